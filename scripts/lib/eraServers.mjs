// The servers of issue 40's evidence (scripts/eraMatrix.mjs, scripts/eraProbe.mjs): each as its
// framework's users write it, how to start it over stdio and over Streamable HTTP, and which of its
// tools ask. Also the helpers that start a server over HTTP and wait for its port.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { hostPaths, repoRoot } from '../hostPaths.mjs';

const PY_FIXTURES = path.join(repoRoot, 'test', 'fixtures', 'py');
const TS_V2 = path.join(repoRoot, 'test', 'fixtures', 'eraTsServer.mjs');
const EVERYTHING = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const SDK_V1 = path.join(repoRoot, 'test', 'fixtures', 'stdioServer.mjs');

/**
 * @typedef {{ command: string, args: string[], env?: Record<string, string> }} Launch
 * @typedef {{ name: string, arguments?: Record<string, unknown> }} AskingTool
 * @typedef {{
 *   id: string,
 *   framework: string,
 *   style: string,
 *   stdio?: Launch,
 *   http?: (port: number) => Launch & { ready: RegExp },
 *   tools: AskingTool[],
 * }} EraServer
 */

/** @param {string} file @returns {Launch} */
const py = (file) => ({ command: hostPaths().python, args: [path.join(PY_FIXTURES, file)] });
/** @param {string} file @returns {NonNullable<EraServer['http']>} */
const pyHttp = (file) => (port) => ({
  ...py(file),
  args: [path.join(PY_FIXTURES, file), '--http', String(port)],
  ready: /LISTENING (\d+)/,
});

/** @type {EraServer[]} */
export const ERA_SERVERS = [
  {
    id: 'fastmcp-imperative',
    framework: 'FastMCP 4.0.10',
    style: 'ctx.elicit()',
    stdio: py('fastmcp_imperative.py'),
    http: pyHttp('fastmcp_imperative.py'),
    tools: ['ask_text', 'ask_integer', 'ask_confirm', 'ask_choice', 'ask_multi', 'ask_titled', 'ask_form'].map((name) => ({ name })),
  },
  {
    id: 'fastmcp-mrtr',
    framework: 'FastMCP 4.0.10',
    style: 'InputRequiredResult',
    stdio: py('fastmcp_mrtr.py'),
    http: pyHttp('fastmcp_mrtr.py'),
    tools: [{ name: 'mrtr_text' }, { name: 'mrtr_confirm' }],
  },
  {
    id: 'fastmcp-mixed',
    framework: 'FastMCP 4.0.10',
    style: 'both (one tool each)',
    stdio: py('fastmcp_mixed.py'),
    http: pyHttp('fastmcp_mixed.py'),
    tools: [{ name: 'ask_imperative' }, { name: 'ask_mrtr' }],
  },
  {
    id: 'pysdk-imperative',
    framework: 'mcp 2.3.0 (Python SDK)',
    style: 'ctx.elicit()',
    stdio: py('pysdk_imperative.py'),
    http: pyHttp('pysdk_imperative.py'),
    tools: [{ name: 'book' }, { name: 'confirm' }],
  },
  {
    id: 'pysdk-resolver',
    framework: 'mcp 2.3.0 (Python SDK)',
    style: 'Resolve(Elicit(...))',
    stdio: py('pysdk_resolver.py'),
    http: pyHttp('pysdk_resolver.py'),
    tools: [{ name: 'book' }, { name: 'deploy', arguments: { target: 'prod' } }],
  },
  {
    id: 'ts-v2-dual',
    framework: '@modelcontextprotocol/server 2.4.0',
    style: 'inputRequired() / elicitInput()',
    stdio: { command: process.execPath, args: [TS_V2] },
    http: (port) => ({ command: process.execPath, args: [TS_V2, '--http', String(port)], ready: /LISTENING (\d+)/ }),
    tools: [{ name: 'ask_mrtr' }, { name: 'ask_imperative' }],
  },
  {
    id: 'ts-v2-modern',
    framework: '@modelcontextprotocol/server 2.4.0 (legacy: reject)',
    style: 'inputRequired() / elicitInput()',
    stdio: { command: process.execPath, args: [TS_V2, '--modern'] },
    http: (port) => ({ command: process.execPath, args: [TS_V2, '--modern', '--http', String(port)], ready: /LISTENING (\d+)/ }),
    tools: [{ name: 'ask_mrtr' }, { name: 'ask_imperative' }],
  },
  {
    id: 'server-everything',
    framework: '@modelcontextprotocol/server-everything 2026.8.31 (SDK v1)',
    style: 'extra.sendRequest(elicitation/create)',
    stdio: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
    http: (port) => ({
      command: process.execPath,
      args: [EVERYTHING, 'streamableHttp'],
      env: { PORT: String(port) },
      ready: /listening on port (\d+)/,
    }),
    tools: [{ name: 'trigger-elicitation-request' }],
  },
];

/** A 2025-only server for the probe questions: the SDK v1 fixture the suite already runs. */
export const SDK_V1_SERVER = /** @type {EraServer} */ ({
  id: 'sdk-v1-fixture',
  framework: '@modelcontextprotocol/sdk 1.x (test/fixtures/stdioServer.mjs)',
  style: '(2025 only)',
  stdio: { command: process.execPath, args: [SDK_V1, 'v1'] },
  tools: [],
});

/** A port nobody listens on right now, for servers that cannot be told to pick one (server-everything). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server over Streamable HTTP and waits for its port.
 * @param {NonNullable<EraServer['http']>} http
 * @returns {Promise<{ url: string, child: import('node:child_process').ChildProcess }>}
 */
export async function startHttp(http) {
  const wanted = http(0).ready.source.includes('LISTENING') ? 0 : /** @type {number} */ (await freePort());
  const launch = http(wanted);
  const child = spawn(launch.command, launch.args, { env: { ...process.env, ...launch.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await /** @type {Promise<number>} */ (
    new Promise((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`no port from ${launch.args.join(' ')} in 20 s: ${seen.slice(-400)}`)), 20_000);
      /** @param {Buffer} d */
      const onData = (d) => {
        seen += String(d);
        const m = launch.ready.exec(seen);
        if (m) {
          clearTimeout(timer);
          resolve(Number(m[1]));
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${launch.args.join(' ')} exited with ${code}: ${seen.slice(-400)}`));
      });
    })
  );
  // Keep draining, or a chatty server blocks on a full pipe.
  child.stdout?.resume();
  child.stderr?.resume();
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}
