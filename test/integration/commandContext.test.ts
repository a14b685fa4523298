// The context keys behind package.json's `when` clauses: Route, Give Back and Run Tool are shown
// only where they can act. Read back from what the extension gave VS Code (code-server has no
// command that reads a context key; the e2e palette test sees the real palette hide Route).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { CONTEXT_KEYS } from '../../src/ui/commandContext';

type ContextKey = (typeof CONTEXT_KEYS)[keyof typeof CONTEXT_KEYS];
import { services, waitFor, waitForRunning } from './helpers';

const MINE = 'give-back-me';
const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

/** Waits until the extension has given VS Code `value` for `key`. */
async function contextIs(s: TestServices, key: ContextKey, value: boolean): Promise<void> {
  await waitFor(
    () => s.commandContext.get(key) === value,
    `context key ${key} = ${String(value)} (is ${String(s.commandContext.get(key))})`,
  );
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
    await contextIs(s, CONTEXT_KEYS.hasServers, true);
    await contextIs(s, CONTEXT_KEYS.canRunTool, true);
    assert.equal(s.manager.vscodeOwned().length, 0, 'this workspace runs its mcp.json servers here');
    await contextIs(s, CONTEXT_KEYS.canRoute, false);

    // With chat on, VS Code runs the servers of .vscode/mcp.json; Route can take them.
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === 'fixture'), "fixture is VS Code's");
    await contextIs(s, CONTEXT_KEYS.canRoute, true);
    const def = s.manager.vscodeOwned().find((d) => d.name === 'fixture');
    assert.ok(def);
    assert.equal(s.serversView.getTreeItem({ kind: 'vscodeServer', def }).contextValue, 'vscodeServer.routable');

    await config().update('workspaceMcpJson', savedMode, vscode.ConfigurationTarget.Workspace);
    await waitForRunning(s, 'fixture');
    await contextIs(s, CONTEXT_KEYS.canRoute, false);
  });

  test('Give Back shows only while a server of our workspace setting exists', async () => {
    const saved = config().inspect('servers')?.workspaceValue;
    const inSetting = (): boolean => s.manager.list().some((e) => e.resolved?.def.source.kind === 'setting');
    assert.equal(inSetting(), false, 'this workspace starts with its servers in mcp.json only');
    await contextIs(s, CONTEXT_KEYS.canGiveBack, false);
    try {
      await config().update(
        'servers',
        { ...(saved as Record<string, unknown> | undefined), [MINE]: { command: 'node', args: [FIXTURE, MINE] } },
        vscode.ConfigurationTarget.Workspace,
      );
      await waitFor(() => s.manager.get(MINE) !== undefined, `${MINE} configured`);
      await contextIs(s, CONTEXT_KEYS.canGiveBack, true);
      const entry = s.manager.list().find((e) => e.name === MINE);
      assert.ok(entry);
      assert.match(String(s.serversView.getTreeItem({ kind: 'server', entry }).contextValue), /\.ours$/, 'its row offers Give Back');
    } finally {
      await config().update('servers', saved, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(() => s.manager.get(MINE) === undefined, `${MINE} removed`);
    await contextIs(s, CONTEXT_KEYS.canGiveBack, false);
  });
});
