#!/usr/bin/env node
// `npm start`: build, provision the host if needed, start the demo MCP servers and code-server with
// the extension installed and demo/ open. Prints the URL and runs until Ctrl+C, then stops every child.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './hostPaths.mjs';
import { startCodeServer } from './lib/codeServer.mjs';
import { readJson } from './lib/json.mjs';

const port = Number(process.env['PORT'] ?? 8080);
const mcpPort = Number(process.env['DEMO_MCP_PORT'] ?? 37651);
const t0 = Date.now();

for (const [what, args] of /** @type {[string, string[]][]} */ ([
  ['provision', ['scripts/provision.mjs']],
  ['build', ['scripts/build.mjs']],
])) {
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`[demo] ${what} failed\n`);
    process.exit(1);
  }
}

const demoDir = path.join(repoRoot, 'demo');
const http = spawn(process.execPath, [path.join(demoDir, 'servers', 'demoHttpServer.mjs'), String(mcpPort)], {
  cwd: repoRoot,
  stdio: ['ignore', 'pipe', 'inherit'],
});
await /** @type {Promise<void>} */ (
  new Promise((resolve, reject) => {
    http.stdout.on('data', (/** @type {Buffer} */ d) => (d.toString().includes('LISTENING') ? resolve() : undefined));
    http.on('exit', (code) =>
      reject(new Error(`demo HTTP server exited (${code}); is port ${mcpPort} in use? Set DEMO_MCP_PORT and edit demo/.vscode/mcp.json.`)),
    );
  })
);

// Installed the way a user's extension is: a folder named publisher.name-version in the extensions dir.
const pkg = /** @type {{ publisher: string, name: string, version: string }} */ (readJson(path.join(repoRoot, 'package.json')));
const extensionsDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-demo-exts-'));
mkdirSync(extensionsDir, { recursive: true });
symlinkSync(repoRoot, path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`), 'dir');

process.on('exit', () => http.kill('SIGKILL'));

/** @type {import('./lib/codeServer.mjs').CodeServer} */
let cs;
try {
  cs = await startCodeServer({
    workspace: demoDir,
    port,
    extensionsDir,
    settings: { 'workbench.colorTheme': process.env['DEMO_THEME'] ?? 'Default Dark Modern' },
  });
} catch (err) {
  http.kill();
  process.stderr.write(`[demo] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

process.stdout.write(
  `\n[demo] ready in ${((Date.now() - t0) / 1000).toFixed(1)} s\n[demo] open ${cs.url}/?folder=${encodeURIComponent(demoDir)}\n[demo] Ctrl+C stops code-server and the demo servers.\n`,
);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  process.stdout.write('\n[demo] stopping…\n');
  http.kill('SIGTERM');
  await cs.stop();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
