// Runs the mocha suite inside the real extension host of code-server: the workbench reads
// `extensionDevelopmentPath` and `extensionTestsPath` from its `payload` URL parameter, loads our
// `run()`, and reports the outcome through window.codeAutomationExit / codeAutomationLog.
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { format } from 'node:util';
import path from 'node:path';
import { hostPaths, repoRoot, testExtensionDir } from '../hostPaths.mjs';
import { launchBrowser } from './browser.mjs';
import { freePort, startCodeServer, workbenchUrl } from './codeServer.mjs';
import { makeWorkspace, startHttpFixture, stdioFixture } from './fixtures.mjs';
import { hostOutcome } from './hostOutcome.mjs';

const SUITE_TIMEOUT_MS = 15 * 60_000;

/** The suite the multi-root run executes; it skips itself in the other runs. */
const MULTI_ROOT_SUITE = 'Multi-root workspace';

/** The suite the untrusted run executes; it skips itself in the trusted run. */
const UNTRUSTED_SUITE = 'Untrusted workspace';

/**
 * The in-host suite in a trusted window, then (unless `grep` picks other tests) the untrusted
 * suite in a second code-server with workspace trust on and the workspace untrusted.
 * @param {{ grep?: string | undefined }} [opts]
 * @returns {Promise<{ passed: number, failed: number, exitCode: number, log: string }>}
 */
export async function runInHostSuite({ grep } = {}) {
  let trusted = await runTrusted({ grep });
  if (!grep || /multi-root/i.test(grep)) {
    process.stdout.write(`\n    --- ${MULTI_ROOT_SUITE} (third host, a .code-workspace with two folders) ---\n`);
    const multi = await runMultiRoot();
    trusted = {
      passed: trusted.passed + multi.passed,
      failed: trusted.failed + multi.failed,
      exitCode: trusted.exitCode || multi.exitCode,
      log: `${trusted.log}\n${multi.log}`,
    };
  }
  if (grep && !/untrusted/i.test(grep)) return trusted;
  process.stdout.write(`\n    --- ${UNTRUSTED_SUITE} (second host, workspace trust on) ---\n`);
  const untrusted = await runUntrusted();
  return {
    passed: trusted.passed + untrusted.passed,
    failed: trusted.failed + untrusted.failed,
    exitCode: trusted.exitCode || untrusted.exitCode,
    log: `${trusted.log}\n${untrusted.log}`,
  };
}

/**
 * @param {{ grep?: string | undefined }} opts
 * @returns {Promise<{ passed: number, failed: number, exitCode: number, log: string }>}
 */
async function runTrusted({ grep }) {
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-rec-'));
  const http = await startHttpFixture('fixture-http', { FIXTURE_RECORD: path.join(recordDir, 'fixture-http.jsonl') });
  const ws = makeWorkspace({
    servers: {
      fixture: stdioFixture('fixture', recordDir),
      'fixture-http': { type: 'http', url: http.url },
    },
    // VS Code's chat is on in this host (the gateway tests play its agent), so mcp.json servers
    // would be VS Code's; the suite drives them through our connections, as before.
    // The offer to route VS Code's servers only in the test that wants it (routingOffer.test.ts).
    settings: { 'mcpElicitation.workspaceMcpJson': 'ours', 'mcpElicitation.offerRouting': false },
  });
  // A second, installed extension that uses our public API the way a third party would.
  const extensionsDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-exts-'));
  cpSync(path.join(repoRoot, 'test', 'fixtures', 'apiClientExtension'), path.join(extensionsDir, 'mcp-test.api-client-0.0.1'), {
    recursive: true,
  });
  // Language models for the sampling tests, registered only while a test asks for them.
  cpSync(path.join(repoRoot, 'test', 'fixtures', 'samplingModelExtension'), path.join(extensionsDir, 'mcp-test.sampling-model-0.0.1'), {
    recursive: true,
  });
  // Copilot Global of this host, empty: VS Code (through chat.mcp.discovery.enabled) and the
  // extension read it from the same COPILOT_HOME, never the user's own ~/.copilot.
  const copilotHome = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-copilot-'));
  // Known before the start, so a test can name the ids VS Code gives the servers it discovers
  // (`copilot.<remote authority>.<name>`): the authority is the workbench's host and port.
  const port = await freePort();
  try {
    return await runHost({
      ws,
      logName: 'integration.log',
      codeServer: {
        port,
        extensionsDir,
        // VS Code's chat on, so the gateway tests can play its agent; it starts no server by itself
        // (a copy of an mcp.json server started by VS Code would be a second client of the fixtures).
        settings: { 'chat.disableAIFeatures': false, 'chat.mcp.autostart': 'never' },
        env: {
          MCP_TEST_RECORD_DIR: recordDir,
          MCP_TEST_REPO_ROOT: repoRoot,
          // The venv with FastMCP and the Python SDK (scripts/provision.mjs), for test/fixtures/py.
          MCP_TEST_PYTHON: hostPaths().python,
          MCP_TEST_HTTP_URL: http.url,
          MCP_TEST_SSE_URL: http.sseUrl,
          COPILOT_HOME: copilotHome,
          MCP_TEST_REMOTE_AUTHORITY: `127.0.0.1:${port}`,
          ...(grep ? { MCP_TEST_GREP: grep } : {}),
          // Where the agent parity test writes the README's comparison table (it always writes one in the record dir).
          ...(process.env['MCP_PARITY_TABLE'] ? { MCP_PARITY_TABLE: path.resolve(process.env['MCP_PARITY_TABLE']) } : {}),
        },
      },
    });
  } finally {
    await http.stop();
    rmSync(copilotHome, { recursive: true, force: true });
  }
}

/**
 * Two folders in a `.code-workspace` file, each with a server in its `.vscode/mcp.json` whose
 * record file is `${workspaceFolder}/<name>.jsonl` (so where it lands tells which folder the
 * variable meant), and one server in the workspace file's `settings.mcp`. VS Code's chat on, as in
 * the trusted run.
 */
async function runMultiRoot() {
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-rec-'));
  const inFolder = (/** @type {string} */ name) => ({
    ...stdioFixture(name, recordDir),
    env: { FIXTURE_RECORD: `\${workspaceFolder}/${name}.jsonl` },
  });
  const a = makeWorkspace({ servers: { 'mr-a': inFolder('mr-a') } });
  const b = makeWorkspace({ servers: { 'mr-b': inFolder('mr-b') } });
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-multi-'));
  const file = path.join(root, 'team.code-workspace');
  writeFileSync(
    file,
    `// shared with the team\n${JSON.stringify(
      {
        folders: [
          { name: 'alpha', path: a.dir },
          { name: 'beta', path: b.dir },
        ],
        settings: {
          'mcpElicitation.offerRouting': false,
          mcp: { servers: { 'mr-ws': stdioFixture('mr-ws', recordDir) } },
        },
      },
      null,
      2,
    )}\n`,
  );
  try {
    return await runHost({
      ws: { dir: file, dispose: () => {} },
      logName: 'integration-multi-root.log',
      codeServer: {
        settings: { 'chat.disableAIFeatures': false, 'chat.mcp.autostart': 'never' },
        env: { MCP_TEST_RECORD_DIR: recordDir, MCP_TEST_REPO_ROOT: repoRoot, MCP_TEST_GREP: MULTI_ROOT_SUITE },
      },
    });
  } finally {
    a.dispose();
    b.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The workspace tries to loosen every restricted setting and defines servers in mcp.json and in
 * its settings; the user settings hold stricter values and servers of the user's own: one that
 * needs nothing of the workspace, two whose launch reads it (`${workspaceFolder}`, a relative
 * envFile), and one that reads the workspace's `.env` by its absolute path. That `.env` sets the
 * variables that make a process load code or pick its binaries.
 */
async function runUntrusted() {
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-rec-'));
  const ws = makeWorkspace({
    servers: {
      'workspace-file-server': stdioFixture('workspace-file-server', recordDir),
      // Neither its input nor its envFile may be resolved before the workspace is trusted.
      'workspace-input-server': {
        ...stdioFixture('workspace-input-server', recordDir),
        env: { FIXTURE_TOKEN: '${input:workspace-token}' },
        envFile: '${workspaceFolder}/.env',
      },
    },
    inputs: [{ type: 'promptString', id: 'workspace-token', description: 'Token', password: true }],
    files: {
      '.env': [
        'NODE_OPTIONS=--require /nonexistent/untrusted-repo-hook.js',
        'LD_PRELOAD=/nonexistent/untrusted-repo.so',
        'DYLD_INSERT_LIBRARIES=/nonexistent/untrusted-repo.dylib',
        'PATH=/nonexistent/untrusted-repo-bin',
        'FROM_REPO_ENV=plain value',
        '',
      ].join('\n'),
    },
    settings: {
      'mcpElicitation.servers': { 'workspace-setting-server': stdioFixture('workspace-setting-server', recordDir) },
      'mcpElicitation.serverPolicy': { 'extension:mcp-elicitation.mcp-elicitation-host': 'allow' },
      'mcpElicitation.workspaceMcpJson': 'ours',
      'mcpElicitation.defaultPolicy': 'allow',
      'mcpElicitation.rateLimit': { requests: 0, perSeconds: 0 },
      'mcpElicitation.sensitiveFields': 'warn',
      'mcpElicitation.url.allowHttpLoopback': true,
      'mcpElicitation.audit.enabled': false,
      'mcpElicitation.audit.includeValues': true,
      // Would move the key from the relay's environment into HTTP headers of the workspace's choosing.
      'mcpElicitation.gateway.transport': 'http',
    },
  });
  const linkDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-link-'));
  const linkedEnv = path.join(linkDir, 'linked.env');
  symlinkSync(path.join(ws.dir, '.env'), linkedEnv);
  try {
    return await runHost({
      ws,
      logName: 'integration-untrusted.log',
      codeServer: {
        workspaceTrust: true,
        settings: {
          'mcpElicitation.servers': {
            'user-server': stdioFixture('user-server', recordDir),
            'user-workspace-cwd': { ...stdioFixture('user-workspace-cwd', recordDir), cwd: '${workspaceFolder}' },
            'user-relative-envfile': { ...stdioFixture('user-relative-envfile', recordDir), envFile: '.env' },
            'user-absolute-envfile': { ...stdioFixture('user-absolute-envfile', recordDir), envFile: path.join(ws.dir, '.env') },
            // Outside the workspace by its path, inside it through the link.
            'user-linked-envfile': { ...stdioFixture('user-linked-envfile', recordDir), envFile: linkedEnv },
          },
          // The suite's API calls come from our own extension's folder, so they carry its id.
          'mcpElicitation.serverPolicy': { 'extension:mcp-elicitation.mcp-elicitation-host': 'block', 'Secret Source': 'allow' },
          'mcpElicitation.defaultPolicy': 'ask',
          'mcpElicitation.rateLimit': { requests: 3, perSeconds: 60 },
          'mcpElicitation.sensitiveFields': 'decline',
        },
        env: { MCP_TEST_RECORD_DIR: recordDir, MCP_TEST_REPO_ROOT: repoRoot, MCP_TEST_GREP: UNTRUSTED_SUITE },
      },
    });
  } finally {
    rmSync(linkDir, { recursive: true, force: true });
  }
}

/**
 * One code-server and browser running the suite in `ws`; always stops both and removes `ws`.
 * @param {{ ws: ReturnType<typeof makeWorkspace>, logName: string, codeServer: Omit<Parameters<typeof startCodeServer>[0], 'workspace'> }} opts
 * @returns {Promise<{ passed: number, failed: number, exitCode: number, log: string }>}
 */
async function runHost({ ws, logName, codeServer }) {
  const cs = await startCodeServer({ workspace: ws.dir, ...codeServer });
  const browser = await launchBrowser();
  let log = '';
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const exit = /** @type {Promise<number>} */ (
      new Promise((resolve) => {
        void page.exposeFunction('codeAutomationExit', (/** @type {unknown} */ code) => resolve(Number(code)));
      })
    );
    await page.exposeFunction('codeAutomationLog', (/** @type {string} */ type, /** @type {unknown} */ args) => {
      // The host forwards console calls as printf-style argument lists (mocha's reporter uses them).
      const line = format(...(Array.isArray(args) ? /** @type {unknown[]} */ (args) : [args]));
      log += line + '\n';
      if (type !== 'trace') process.stdout.write(`    ${line}\n`);
    });
    await page.goto(
      workbenchUrl(cs, ws.dir, {
        // The test build of the extension (scripts/build.mjs made it), which lets the suite reach its services.
        extensionDevelopmentPath: testExtensionDir,
        extensionTestsPath: path.join(testExtensionDir, 'test', 'index.js'),
      }),
    );
    const exitCode = await Promise.race([
      exit,
      /** @type {Promise<number>} */ (new Promise((resolve) => setTimeout(() => resolve(124), SUITE_TIMEOUT_MS))),
    ]);
    // Keep the whole host log for diagnosis: mocha output plus code-server's own output.
    mkdirSync(path.join(repoRoot, 'test-results'), { recursive: true });
    writeFileSync(path.join(repoRoot, 'test-results', logName), `${log}\n--- code-server ---\n${cs.output}`);
    const outcome = hostOutcome(log, exitCode);
    if (!outcome.finished) {
      process.stdout.write(
        `    (no mocha summary: the suite did not finish, counted as a failure; exit ${exitCode})\n${cs.output.slice(-3000)}\n`,
      );
    }
    return { passed: outcome.passed, failed: outcome.failed, exitCode, log };
  } finally {
    await browser.close().catch(() => {});
    await cs.stop();
    ws.dispose();
  }
}
