#!/usr/bin/env node
// The same in-host mocha suite, launched in desktop VS Code through @vscode/test-electron.
// Needs to download VS Code, so it works only where that is possible (not on the offline CI
// machine, where `npm test` runs the suite in code-server instead). Usage:
//   npm run test:electron                 (stable VS Code)
//   VSCODE_VERSION=1.101.0 npm run test:electron   (the minimum we support)
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { repoRoot, testExtensionDir } from './hostPaths.mjs';
import { makeWorkspace, startHttpFixture, stdioFixture } from './lib/fixtures.mjs';

if (spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repoRoot, stdio: 'inherit' }).status !== 0) process.exit(1);
const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-rec-'));
const http = await startHttpFixture('fixture-http', { FIXTURE_RECORD: path.join(recordDir, 'fixture-http.jsonl') });
const ws = makeWorkspace({ servers: { fixture: stdioFixture('fixture', recordDir), 'fixture-http': { type: 'http', url: http.url } } });
let code = 1;
try {
  code = await runTests({
    version: process.env['VSCODE_VERSION'] ?? 'stable',
    // Ours (its test build) plus the API-client fixture, as in code-server where it is installed beside ours.
    extensionDevelopmentPath: [testExtensionDir, path.join(repoRoot, 'test', 'fixtures', 'apiClientExtension')],
    extensionTestsPath: path.join(testExtensionDir, 'test', 'index.js'),
    launchArgs: [ws.dir, '--disable-extensions', '--disable-workspace-trust'],
    extensionTestsEnv: {
      MCP_TEST_REPO_ROOT: repoRoot,
      MCP_TEST_RECORD_DIR: recordDir,
      MCP_TEST_HTTP_URL: http.url,
      MCP_TEST_SSE_URL: http.sseUrl,
    },
  });
} catch (err) {
  process.stderr.write(`test-electron failed: ${err instanceof Error ? err.message : String(err)}\n`);
} finally {
  await http.stop();
  ws.dispose();
}
process.exit(code);
