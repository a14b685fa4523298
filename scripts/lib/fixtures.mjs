// Test workspaces and fixture servers: a fresh temp folder per run with a .vscode/mcp.json in
// VS Code's own format that points at the SDK-built fixture servers in test/fixtures.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../hostPaths.mjs';

export const FIXTURES = path.join(repoRoot, 'test', 'fixtures');

/**
 * A stdio server entry for mcp.json, recording to `<recordDir>/<name>.jsonl`.
 * @param {string} name
 * @param {string} recordDir
 */
export function stdioFixture(name, recordDir) {
  return {
    type: 'stdio',
    command: 'node',
    args: [path.join(FIXTURES, 'stdioServer.mjs'), name],
    env: { FIXTURE_RECORD: path.join(recordDir, `${name}.jsonl`) },
  };
}

/**
 * Creates a workspace folder with `.vscode/mcp.json`.
 * @param {{ servers: Record<string, unknown> | null, inputs?: unknown[], settings?: Record<string, unknown>, files?: Record<string,string> }} spec
 */
export function makeWorkspace(spec) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-ws-'));
  mkdirSync(path.join(dir, '.vscode'), { recursive: true });
  // `servers: null`: a folder with no mcp.json at all, whose servers live in settings only.
  if (spec.servers !== null) {
    writeFileSync(path.join(dir, '.vscode', 'mcp.json'), JSON.stringify({ inputs: spec.inputs ?? [], servers: spec.servers }, null, 2));
  }
  if (spec.settings) writeFileSync(path.join(dir, '.vscode', 'settings.json'), JSON.stringify(spec.settings, null, 2));
  for (const [rel, content] of Object.entries(spec.files ?? {})) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The port a fixture server prints as `LISTENING <port>` once it listens on a free loopback port.
 * @param {import('node:child_process').ChildProcess} child a process spawned with a piped stdout
 * @param {string} label names the server in the errors
 * @returns {Promise<number>}
 */
export function listeningPort(child, label) {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${label} did not start`)), 10_000);
    child.stdout?.on('data', (/** @type {Buffer} */ d) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`${label} exited ${code}`)));
  });
}

/**
 * Starts the Streamable HTTP / SSE fixture on a free loopback port.
 * @param {Record<string, string>} [env]
 */
export async function startHttpFixture(name = 'fixture-http', env = {}) {
  const child = spawn(process.execPath, [path.join(FIXTURES, 'httpServer.mjs'), '0', name], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const port = await listeningPort(child, 'http fixture');
  process.on('exit', () => child.kill('SIGKILL'));
  return {
    port,
    url: `http://127.0.0.1:${port}/mcp`,
    sseUrl: `http://127.0.0.1:${port}/sse`,
    pid: child.pid,
    /** @returns {Promise<void>} */
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
