// Starts one code-server (the real VS Code server and extension host) on a free loopback port,
// with a fresh user-data-dir and XDG_CONFIG_HOME, in its own process group so that stopping it
// also stops everything it spawned (extension host, MCP stdio servers). Used by the in-host
// suite, the Playwright tests, the demo and the benchmark.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hostPaths, repoRoot } from '../hostPaths.mjs';

/**
 * @typedef {object} CodeServer
 * @property {number} port
 * @property {string} host
 * @property {string} url
 * @property {number | undefined} pid
 * @property {string} home
 * @property {string} userDataDir
 * @property {string} extensionsDir
 * @property {string} output  What it printed so far (the last 100 to 200 kB).
 * @property {() => void} killSync
 * @property {(graceMs?: number) => Promise<void>} stop
 */

/** Processes started by this Node process, stopped on exit even when a test throws. */
/** @type {Set<CodeServer>} */
const live = new Set();
function stopAllSync() {
  for (const cs of live) cs.killSync();
}
process.on('exit', stopAllSync);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(sig, () => {
    stopAllSync();
    process.exit(130);
  });
}

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address());
      srv.close(() => resolve(port));
    });
  });
}

const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'security.workspace.trust.enabled': false,
  'chat.disableAIFeatures': true,
  'chat.commandCenter.enabled': false,
  'window.commandCenter': false,
  'git.enabled': false,
  'github.gitAuthentication': false,
  'workbench.colorTheme': 'Default Dark Modern',
};

/**
 * @param {{ workspace: string, port?: number, settings?: Record<string, unknown>, env?: Record<string,string>,
 *           extensionsDir?: string, host?: string, locale?: string, quiet?: boolean, workspaceTrust?: boolean,
 *           enableProposedApi?: string[] }} opts
 *   `workspaceTrust`: keep VS Code's workspace trust on, without the startup prompt, so the
 *   workspace opens untrusted (restricted mode), as a folder from an unknown source would.
 *   `enableProposedApi`: extension ids that may use proposed API (a stable build allows it to none).
 */
export async function startCodeServer(opts) {
  const p = hostPaths();
  const port = opts.port ?? (await freePort());
  const host = opts.host ?? '127.0.0.1';
  const home = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-cs-'));
  const userDataDir = path.join(home, 'data');
  const extensionsDir = opts.extensionsDir ?? path.join(home, 'exts');
  mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const trust = opts.workspaceTrust ? { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' } : {};
  writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify({ ...DEFAULT_SETTINGS, ...trust, ...opts.settings }, null, 2),
  );
  if (opts.locale && !opts.locale.startsWith('en')) {
    // No language pack can be downloaded here. An empty one (core strings fall back to English)
    // is enough for the server to resolve the locale, so extensions get their own translations.
    writeFileSync(
      path.join(userDataDir, 'languagepacks.json'),
      JSON.stringify({
        [opts.locale]: {
          hash: `test-${opts.locale}`,
          extensions: [{ extensionIdentifier: { id: `mcp-test.language-pack-${opts.locale}` }, version: '0.0.1' }],
          translations: { vscode: path.join(repoRoot, 'test', 'fixtures', 'languagePack', 'main.i18n.json') },
          label: opts.locale,
        },
      }),
    );
  }

  const args = [
    p.codeServerEntry,
    '--bind-addr',
    `${host}:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(opts.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--vscode-option',
    'enable-smoke-test-driver',
    ...(opts.locale ? ['--locale', opts.locale] : []),
    ...(opts.enableProposedApi ?? []).flatMap((id) => ['--enable-proposed-api', id]),
    opts.workspace,
  ];
  const child = spawn(p.node, args, {
    cwd: repoRoot,
    detached: true, // own process group: kill(-pid) reaches the extension host and MCP servers
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      ...opts.env,
      PATH: `${p.nodeBinDir}:${process.env['PATH']}`,
      XDG_CONFIG_HOME: path.join(home, 'xdg-config'),
      XDG_DATA_HOME: path.join(home, 'xdg-data'),
      XDG_CACHE_HOME: path.join(home, 'xdg-cache'),
    },
  });
  let output = '';
  /** @param {Buffer} d */
  const onData = (d) => {
    output += d.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
    if (!opts.quiet && process.env['MCP_TEST_VERBOSE']) process.stderr.write(d);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);

  let exited = false;
  const exitPromise = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    }),
  );

  /** @type {CodeServer} */
  const cs = {
    port,
    host,
    url: `http://${host}:${port}`,
    pid: child.pid,
    home,
    userDataDir,
    extensionsDir,
    get output() {
      return output;
    },
    killSync() {
      if (!exited) {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
      live.delete(cs);
      rmSync(home, { recursive: true, force: true });
    },
    /** SIGTERM the whole group, then SIGKILL what is left after a grace period. */
    async stop(graceMs = 3000) {
      if (!exited) {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGTERM');
        } catch {
          /* already gone */
        }
        await Promise.race([exitPromise, new Promise((r) => setTimeout(r, graceMs))]);
      }
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL'); // stragglers in the group (MCP servers)
      } catch {
        /* none left */
      }
      live.delete(cs);
      rmSync(home, { recursive: true, force: true });
    },
  };
  live.add(cs);

  await /** @type {Promise<void>} */ (
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not start within 30 s:\n${output.slice(-2000)}`)), 30_000);
      const check = () => {
        if (output.includes('HTTP server listening')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      void exitPromise.then(({ code }) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited early (${code}):\n${output.slice(-2000)}`));
      });
      check();
    })
  ).catch(async (e) => {
    await cs.stop();
    throw e;
  });
  return cs;
}

/**
 * The workbench URL; with `payload` for development/test paths (needs enable-smoke-test-driver).
 * @param {{ host: string, port: number, url: string }} cs
 * @param {string} workspace
 * @param {{ extensionDevelopmentPath?: string, extensionTestsPath?: string }} [paths]
 */
export function workbenchUrl(cs, workspace, { extensionDevelopmentPath, extensionTestsPath } = {}) {
  /** @param {string} abs */
  const remote = (abs) => `vscode-remote://${cs.host}:${cs.port}${abs}`;
  const payload = [];
  if (extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
  if (extensionTestsPath) payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  // A `.code-workspace` file opens as a (multi-root) workspace, anything else as a folder.
  const q = new URLSearchParams(workspace.endsWith('.code-workspace') ? { workspace } : { folder: workspace });
  if (payload.length) q.set('payload', JSON.stringify(payload));
  return `${cs.url}/?${q.toString()}`;
}
