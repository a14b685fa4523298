// The context keys behind package.json's `when` clauses: Route, Give Back and Run Tool are shown
// only where they can act. Read back from VS Code's own context key service.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { CONTEXT_KEYS } from '../../src/ui/commandContext';
import { services, waitFor, waitForRunning } from './helpers';

const MINE = 'give-back-me';
const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

/** Waits until VS Code's context key service holds `value` for `key`. */
async function contextIs(key: string, value: boolean): Promise<void> {
  let last: unknown;
  for (const t0 = Date.now(); Date.now() - t0 < 20_000;) {
    last = await vscode.commands.executeCommand('getContextKeyValue', key);
    if (last === value) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`context key ${key} is ${String(last)}, expected ${String(value)}`);
}

suite('Context keys: Route, Give Back and Run Tool only where they can act', () => {
  let s: TestServices;
  let savedMode: unknown;

  suiteSetup(async () => {
    s = await services();
    savedMode = config().inspect('workspaceMcpJson')?.workspaceValue;
    await waitForRunning(s, 'fixture');
  });
  suiteTeardown(async () => {
    await config().update('workspaceMcpJson', savedMode, vscode.ConfigurationTarget.Workspace);
    await waitForRunning(s, 'fixture');
  });

  test("with every server ours, Run Tool shows and Route hides; once VS Code runs mcp.json's servers, Route shows", async () => {
    await contextIs(CONTEXT_KEYS.hasServers, true);
    await contextIs(CONTEXT_KEYS.canRunTool, true);
    assert.equal(s.manager.vscodeOwned().length, 0, 'this workspace runs its mcp.json servers here');
    await contextIs(CONTEXT_KEYS.canRoute, false);

    // With chat on, VS Code runs the servers of .vscode/mcp.json; Route can take them.
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === 'fixture'), "fixture is VS Code's");
    await contextIs(CONTEXT_KEYS.canRoute, true);
    const def = s.manager.vscodeOwned().find((d) => d.name === 'fixture');
    assert.ok(def);
    assert.equal(s.serversView.getTreeItem({ kind: 'vscodeServer', def }).contextValue, 'vscodeServer.routable');

    await config().update('workspaceMcpJson', savedMode, vscode.ConfigurationTarget.Workspace);
    await waitForRunning(s, 'fixture');
    await contextIs(CONTEXT_KEYS.canRoute, false);
  });

  test('Give Back shows only while a server of our workspace setting exists', async () => {
    const saved = config().inspect('servers')?.workspaceValue;
    const inSetting = (): boolean => s.manager.list().some((e) => e.resolved?.def.source.kind === 'setting');
    assert.equal(inSetting(), false, 'this workspace starts with its servers in mcp.json only');
    await contextIs(CONTEXT_KEYS.canGiveBack, false);
    try {
      await config().update(
        'servers',
        { ...(saved as Record<string, unknown> | undefined), [MINE]: { command: 'node', args: [FIXTURE, MINE] } },
        vscode.ConfigurationTarget.Workspace,
      );
      await waitFor(() => s.manager.get(MINE) !== undefined, `${MINE} configured`);
      await contextIs(CONTEXT_KEYS.canGiveBack, true);
      const entry = s.manager.list().find((e) => e.name === MINE);
      assert.ok(entry);
      assert.match(String(s.serversView.getTreeItem({ kind: 'server', entry }).contextValue), /\.ours$/, 'its row offers Give Back');
    } finally {
      await config().update('servers', saved, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(() => s.manager.get(MINE) === undefined, `${MINE} removed`);
    await contextIs(CONTEXT_KEYS.canGiveBack, false);
  });
});
