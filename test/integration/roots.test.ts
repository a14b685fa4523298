// Issue 24, item 1: roots in the real host. SDK fixture servers ask for the roots over stdio and
// Streamable HTTP, pushed (2025-11-25, also through the SDK's legacy shim) and in `input_required`
// rounds (2026-07-28); the answer is the trusted workspace folder, narrowed per server by
// `mcpElicitation.serverRoots`, and a 2025 server hears `notifications/roots/list_changed`.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, startHttpFixture, waitFor, waitForRunning } from './helpers';

const fixture = (name: string): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', name);
const record = (server: string): string => path.join(process.env['MCP_TEST_RECORD_DIR'] ?? '', `${server}.jsonl`);

async function run(server: string, tool: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', server, tool, args);
  return JSON.parse(r.content[0]?.text ?? 'null');
}

const rootsOf = async (server: string): Promise<unknown> => ((await run(server, 'roots')) as { roots: unknown }).roots;

/** How many `notifications/roots/list_changed` the 2025 fixture `server` recorded. */
function changesHeard(server: string): number {
  const file = record(server);
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"rootsChanged"')).length;
}

/** Starts modernHttpServer.mjs serving the MRTR fixture (2026-07-28 only); resolves with its URL. */
const modernHttp = (name: string, children: ChildProcess[]): Promise<string> =>
  startHttpFixture(fixture('modernHttpServer.mjs'), ['0', name, 'mrtr'], children, { FIXTURE_RECORD: record(name) });

suite('Roots: the workspace folders, per server, in both eras (issue 24 item 1)', () => {
  let s: TestServices;
  let savedServers: unknown;
  let savedRoots: unknown;
  const children: ChildProcess[] = [];
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
  /** Every server here asks for roots; the names say transport and era. */
  const SERVERS = ['roots-2025', 'fixture-http', 'roots-modern', 'roots-dual-2025', 'roots-modern-http'];

  suiteSetup(async function () {
    this.timeout(90_000);
    s = await services();
    savedServers = config().inspect('servers')?.workspaceValue;
    savedRoots = config().inspect('serverRoots')?.workspaceValue;
    const url = await modernHttp('roots-modern-http', children);
    await config().update(
      'servers',
      {
        ...(savedServers as Record<string, unknown> | undefined),
        'roots-2025': { command: 'node', args: [fixture('stdioServer.mjs'), 'roots-2025'], env: { FIXTURE_RECORD: record('roots-2025') } },
        'roots-modern': { command: 'node', args: [fixture('mrtrStdioServer.mjs'), 'roots-modern', 'modern'] },
        'roots-dual-2025': {
          command: 'node',
          args: [fixture('mrtrStdioServer.mjs'), 'roots-dual-2025', 'dual'],
          protocolVersion: '2025-11-25',
        },
        'roots-modern-http': { type: 'http', url },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    for (const n of SERVERS) await waitForRunning(s, n);
  });
  suiteTeardown(async () => {
    await config().update('serverRoots', savedRoots, vscode.ConfigurationTarget.Workspace);
    await config().update('servers', savedServers, vscode.ConfigurationTarget.Workspace);
    for (const c of children) c.kill();
  });

  test('every transport and era is answered with the trusted workspace folder, as a file URI with its name', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opens a folder');
    const expected = [{ uri: folder.uri.toString(), name: folder.name }];
    for (const server of SERVERS) assert.deepEqual(await rootsOf(server), expected, server);
  });

  test('serverRoots narrows one server down to none, tells a 2025 server, and leaves the others alone', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const before = changesHeard('roots-2025');
    await config().update(
      'serverRoots',
      { 'roots-2025': [], 'roots-modern': [], 'roots-modern-http': [] },
      vscode.ConfigurationTarget.Workspace,
    );
    await waitFor(() => changesHeard('roots-2025') > before, 'notifications/roots/list_changed reached roots-2025');
    for (const server of ['roots-2025', 'roots-modern', 'roots-modern-http']) assert.deepEqual(await rootsOf(server), [], server);
    assert.deepEqual(await rootsOf('fixture-http'), [{ uri: folder.uri.toString(), name: folder.name }], 'a server without an entry');
    // Named again by its path, the folder is back; by its name, which a .code-workspace file chooses, it is not.
    const heard = changesHeard('roots-2025');
    await config().update(
      'serverRoots',
      { 'roots-2025': [`${folder.uri.fsPath}/`], 'roots-modern': [folder.uri.fsPath], 'roots-modern-http': [folder.name] },
      vscode.ConfigurationTarget.Workspace,
    );
    await waitFor(() => changesHeard('roots-2025') > heard, 'a second list_changed');
    assert.deepEqual(await rootsOf('roots-2025'), [{ uri: folder.uri.toString(), name: folder.name }]);
    assert.deepEqual(await rootsOf('roots-modern'), [{ uri: folder.uri.toString(), name: folder.name }]);
    assert.deepEqual(await rootsOf('roots-modern-http'), [], 'a folder name narrows to nothing');
    await config().update('serverRoots', savedRoots, vscode.ConfigurationTarget.Workspace);
  });

  test('a flood of 1,000 roots/list is rate-limited with a JSON-RPC error; nothing is shown, the server keeps working', async () => {
    let shown = 0;
    const sub = s.hooks.onDidShowPrompt(() => shown++);
    // This host's own warnings: the answers to a server that reads them late once added a drain
    // listener each on its stdin, and Node warned of a leak (src/servers/stdioDrain.ts).
    const leaks: string[] = [];
    const onWarning = (w: Error): void => {
      if (w.name === 'MaxListenersExceededWarning') leaks.push(w.message);
    };
    process.on('warning', onWarning);
    try {
      // The server reads nothing for 250 ms while its 1,000 requests are answered: the pipe fills.
      const r = (await run('roots-2025', 'rootsFlood', { count: 1000, readAfterMs: 250 })) as {
        answered: number;
        errors: Record<string, number>;
      };
      assert.ok(r.answered >= 1 && r.answered < 100, `answered ${r.answered}`);
      assert.deepEqual(Object.keys(r.errors), ['-32000']);
      assert.equal(r.answered + (r.errors['-32000'] ?? 0), 1000);
    } finally {
      sub.dispose();
      process.off('warning', onWarning);
    }
    assert.equal(shown, 0);
    assert.deepEqual(leaks, [], 'no listener leak warned of');
    assert.equal(s.manager.get('roots-2025')?.state.kind, 'running');
  });
});
