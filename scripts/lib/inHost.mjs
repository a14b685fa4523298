// Runs the mocha suite inside the real extension host of code-server: the workbench reads
// `extensionDevelopmentPath` and `extensionTestsPath` from its `payload` URL parameter, loads our
// `run()`, and reports the outcome through window.codeAutomationExit / codeAutomationLog.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { format } from 'node:util';
import path from 'node:path';
import { repoRoot } from '../hostPaths.mjs';
import { launchBrowser } from './browser.mjs';
import { startCodeServer, workbenchUrl } from './codeServer.mjs';
import { makeWorkspace, startHttpFixture, stdioFixture } from './fixtures.mjs';

const SUITE_TIMEOUT_MS = 15 * 60_000;

/** @returns {Promise<{ passed: number, failed: number, exitCode: number, log: string }>} */
export async function runInHostSuite({ grep } = {}) {
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-rec-'));
  const http = await startHttpFixture('fixture-http', { FIXTURE_RECORD: path.join(recordDir, 'fixture-http.jsonl') });
  const ws = makeWorkspace({
    servers: {
      fixture: stdioFixture('fixture', recordDir),
      'fixture-http': { type: 'http', url: http.url },
    },
    // VS Code's chat is on in this host (the gateway tests play its agent), so mcp.json servers
    // would be VS Code's; the suite drives them through our connections, as before.
    settings: { 'mcpElicitation.workspaceMcpJson': 'ours' },
  });
  // A second, installed extension that uses our public API the way a third party would.
  const extensionsDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-exts-'));
  cpSync(path.join(repoRoot, 'test', 'fixtures', 'apiClientExtension'), path.join(extensionsDir, 'mcp-test.api-client-0.0.1'), { recursive: true });
  const cs = await startCodeServer({
    workspace: ws.dir,
    extensionsDir,
    settings: { 'chat.disableAIFeatures': false },
    env: {
      MCP_TEST_RECORD_DIR: recordDir,
      MCP_TEST_REPO_ROOT: repoRoot,
      MCP_TEST_HTTP_URL: http.url,
      MCP_TEST_SSE_URL: http.sseUrl,
      ...(grep ? { MCP_TEST_GREP: grep } : {}),
    },
  });
  const browser = await launchBrowser();
  let log = '';
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const exit = new Promise((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code) => resolve(Number(code)));
    });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      // The host forwards console calls as printf-style argument lists (mocha's reporter uses them).
      const line = format(...(Array.isArray(args) ? args : [args]));
      log += line + '\n';
      if (type !== 'trace') process.stdout.write(`    ${line}\n`);
    });
    await page.goto(
      workbenchUrl(cs, ws.dir, {
        extensionDevelopmentPath: repoRoot,
        extensionTestsPath: path.join(repoRoot, 'out', 'test', 'integration', 'index.js'),
      }),
    );
    const exitCode = await Promise.race([
      exit,
      new Promise((resolve) => setTimeout(() => resolve(124), SUITE_TIMEOUT_MS)),
    ]);
    // Keep the whole host log for diagnosis: mocha output plus code-server's own output.
    mkdirSync(path.join(repoRoot, 'test-results'), { recursive: true });
    writeFileSync(path.join(repoRoot, 'test-results', 'integration.log'), `${log}\n--- code-server ---\n${cs.output}`);
    const m = /MOCHA_SUMMARY (\{.*\})/.exec(log);
    const summary = m ? JSON.parse(m[1]) : { passes: 0, failures: exitCode === 0 ? 0 : 1 };
    if (!m) process.stdout.write(`    (no mocha summary; exit ${exitCode})\n${cs.output.slice(-3000)}\n`);
    return { passed: summary.passes, failed: exitCode !== 0 && summary.failures === 0 ? 1 : summary.failures, exitCode, log };
  } finally {
    await browser.close().catch(() => {});
    await cs.stop();
    await http.stop();
    ws.dispose();
  }
}
