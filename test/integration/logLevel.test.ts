// Issue 24, item 4: the server's log level follows the extension's, in the real host. Changing the
// host's log level ("Developer: Set Log Level") sends `logging/setLevel` to a 2025-11-25 server and
// puts the level into `_meta["io.modelcontextprotocol/logLevel"]` of a 2026-07-28 server's next
// request. Both fixtures record what they received in FIXTURE_RECORD files.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning } from './helpers';

const fixture = (name: string): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', name);
const record = (server: string): string => path.join(process.env['MCP_TEST_RECORD_DIR'] ?? '', `${server}.jsonl`);

/** Every JSONL entry the fixture `server` recorded so far. */
function records(server: string): Record<string, unknown>[] {
  const file = record(server);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The levels the 2025 fixture was sent with `logging/setLevel`, in order. */
const levelsSet = (server: string): unknown[] =>
  records(server)
    .filter((r) => r['kind'] === 'setLevel')
    .map((r) => r['level']);

suite('Log level: a server follows the extension log level, in both eras (issue 24 item 4)', () => {
  const OLD = 'loglevel-2025';
  const MODERN = 'loglevel-modern';
  let s: TestServices;
  let savedServers: unknown;
  let levelBefore = 'info';
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

  suiteSetup(async function () {
    this.timeout(90_000);
    s = await services();
    levelBefore = (await vscode.commands.executeCommand<string>('_extensionTests.getLogLevel')) ?? 'info';
    savedServers = config().inspect('servers')?.workspaceValue;
    await config().update(
      'servers',
      {
        ...(savedServers as Record<string, unknown> | undefined),
        [OLD]: { command: 'node', args: [fixture('adaptiveServer.mjs'), OLD], env: { FIXTURE_RECORD: record(OLD) } },
        [MODERN]: { command: 'node', args: [fixture('mrtrStdioServer.mjs'), MODERN, 'modern'], env: { FIXTURE_RECORD: record(MODERN) } },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    await waitForRunning(s, OLD);
    await waitForRunning(s, MODERN);
    // The 2025 server hears our level once connected; the change below must come after that.
    await waitFor(() => levelsSet(OLD).length > 0, `${OLD} got its first logging/setLevel`, 30_000);
  });

  suiteTeardown(async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', levelBefore);
    await config().update('servers', savedServers, vscode.ConfigurationTarget.Workspace);
  });

  /** Sets the host level, then waits until the 2025 server was told `expected`; returns its record count before. */
  async function setHostLevel(level: string, expected: string): Promise<void> {
    const before = levelsSet(OLD).length;
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', level);
    await waitFor(
      () => levelsSet(OLD).slice(before).includes(expected),
      `${OLD} got logging/setLevel ${expected} (got ${JSON.stringify(levelsSet(OLD).slice(before))})`,
      30_000,
    );
  }

  /** Calls `echo` on the 2026-07-28 server and returns the `_meta` log level its tools/call carried. */
  async function modernCallLevel(tag: string): Promise<unknown> {
    await vscode.commands.executeCommand('mcpElicitation.runTool', MODERN, 'echo', { text: tag });
    const calls = records(MODERN).filter((r) => r['method'] === 'tools/call' && r['tool'] === 'echo');
    const last = calls.at(-1);
    assert.ok(last, `${MODERN} recorded the echo call`);
    return last['logLevel'];
  }

  test("warning, then error: the 2025 server gets logging/setLevel and the 2026 server's next request carries the level", async function () {
    this.timeout(120_000);
    await setHostLevel('warn', 'warning');
    assert.equal(await modernCallLevel('warn'), 'warning');
    assert.equal(
      records(MODERN).filter((r) => r['method'] === 'logging/setLevel').length,
      0,
      'a 2026-07-28 server gets no logging/setLevel',
    );

    await setHostLevel('error', 'error');
    assert.equal(await modernCallLevel('error'), 'error');
    assert.deepEqual(levelsSet(OLD).at(-1), 'error');
  });
});
