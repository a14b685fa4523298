import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../../src/context';
import { acceptQuickInput, nextPrompt, services, waitFor, waitForRunning } from './helpers';

type Item = vscode.QuickPickItem & { label: string };

/** Makes `label` the active item of the open picker and accepts it, as Enter would. */
async function pick(picker: vscode.QuickInput | undefined, label: string): Promise<Item> {
  const qp = picker as vscode.QuickPick<Item> | undefined;
  assert.ok(qp, 'a QuickPick is shown');
  const item = qp.items.find((i) => i.label === label);
  assert.ok(item, `${label} is offered: ${qp.items.map((i) => i.label).join(', ')}`);
  qp.activeItems = [item];
  await acceptQuickInput();
  return item;
}

suite('Run Tool while servers start: starting servers are offered and waited for, stopped ones started', () => {
  const SERVER = 'extra-gated';
  let s: Services;
  let dir: string;
  let gate: string;

  suiteSetup(async () => {
    s = await services();
    await waitForRunning(s, 'fixture');
    const repo = process.env['MCP_TEST_REPO_ROOT'];
    assert.ok(repo);
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-gate-'));
    gate = path.join(dir, 'open');
    await vscode.workspace.getConfiguration('mcpElicitation').update(
      'servers',
      { [SERVER]: { command: 'node', args: [path.join(repo, 'test', 'fixtures', 'gatedStdioServer.mjs'), SERVER], env: { FIXTURE_GATE: gate } } },
      vscode.ConfigurationTarget.Workspace,
    );
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.workspace.getConfiguration('mcpElicitation').update('servers', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.manager.get(SERVER), 'gated server removed');
    rmSync(dir, { recursive: true, force: true });
  });

  test('a server still starting is listed; picking it waits until it is ready, then its tools are offered', async () => {
    await waitFor(() => s.manager.get(SERVER)?.state.kind === 'starting', 'gated server starting');
    const serverPicker = nextPrompt(s);
    const run = vscode.commands.executeCommand<{ content: { text: string }[] } | undefined>('mcpElicitation.runTool');
    const shown = await serverPicker;
    assert.equal(shown.kind, 'runTool.server');
    const item = await pick(shown.widget, SERVER);
    assert.match(item.description ?? '', /starting/);
    const conn = s.manager.get(SERVER);
    assert.ok(conn);
    let readyWhenToolsShown: boolean | undefined;
    const toolPicker = new Promise<vscode.QuickInput | undefined>((resolve) => {
      const sub = s.hooks.onDidShowPrompt((e) => {
        if (e.kind !== 'runTool.tool') return;
        readyWhenToolsShown = conn.ready;
        sub.dispose();
        resolve(e.widget);
      });
    });
    // Only now may the server finish starting: the tool picker must wait for it.
    writeFileSync(gate, '');
    await pick(await toolPicker, 'pid');
    assert.equal(readyWhenToolsShown, true, 'the tools were offered only once the server was ready');
    const result = await run;
    assert.equal(result?.content[0]?.text, String(conn.pid), 'the tool ran on the server that was starting');
  });

  test('a stopped server is offered with a start action; picking it starts it and goes on to its tools', async () => {
    await vscode.commands.executeCommand('mcpElicitation.stopServer', SERVER);
    const conn = s.manager.get(SERVER);
    assert.equal(conn?.state.kind, 'stopped');
    const serverPicker = nextPrompt(s);
    const run = vscode.commands.executeCommand('mcpElicitation.runTool');
    const item = await pick((await serverPicker).widget, SERVER);
    assert.match(item.description ?? '', /stopped/);
    const toolPicker = await nextPrompt(s);
    assert.equal(toolPicker.kind, 'runTool.tool');
    assert.equal(conn.ready, true, 'started by picking it');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await run, undefined, 'closing the tool picker runs nothing');
  });
});
