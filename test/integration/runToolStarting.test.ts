import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { acceptQuickInput, services, waitFor, waitForRunning } from './helpers';

/** The next Run Tool picker of `kind`, with what `probe` said the moment it opened. */
function nextPicker<T>(s: TestServices, kind: 'server' | 'tool', probe: () => T): Promise<T> {
  return new Promise((resolve) => {
    const sub = s.hooks.onDidShowPrompt((e) => {
      if (e.kind !== `runTool.${kind}`) return;
      sub.dispose();
      resolve(probe());
    });
  });
}

suite('Run Tool while servers start: starting servers are offered and waited for, stopped ones started', () => {
  const SERVER = 'extra-gated';
  let s: TestServices;
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
      {
        [SERVER]: {
          command: 'node',
          args: [path.join(repo, 'test', 'fixtures', 'gatedStdioServer.mjs'), SERVER],
          env: { FIXTURE_GATE: gate },
        },
      },
      vscode.ConfigurationTarget.Workspace,
    );
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.workspace.getConfiguration('mcpElicitation').update('servers', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.manager.get(SERVER), 'gated server removed');
    rmSync(dir, { recursive: true, force: true });
  });

  // The picker lists servers by name, so the gated one ("extra-…") is first and Enter takes it.
  test('a server still starting is listed; picking it waits until it is ready, then its tools are offered', async () => {
    await waitFor(() => s.manager.get(SERVER)?.state.kind === 'starting', 'gated server starting');
    const conn = s.manager.get(SERVER);
    assert.ok(conn);
    const serverPicker = nextPicker(s, 'server', () => conn.state.kind);
    const run = vscode.commands.executeCommand('mcpElicitation.runTool');
    assert.equal(await serverPicker, 'starting', 'offered while still starting');
    const toolPicker = nextPicker(s, 'tool', () => ({ ready: conn.ready, tools: conn.tools.map((t) => t.name) }));
    await acceptQuickInput();
    // Only now may the server finish starting: the tool picker must wait for it.
    writeFileSync(gate, '');
    const atTools = await toolPicker;
    assert.equal(atTools.ready, true, 'the tools were offered only once the server was ready');
    assert.ok(atTools.tools.includes('pid'), `its tools were listed: ${atTools.tools.join(', ')}`);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await run, undefined, 'closing the tool picker runs nothing');
  });

  test('a stopped server is offered with a start action; picking it starts it and goes on to its tools', async () => {
    await vscode.commands.executeCommand('mcpElicitation.stopServer', SERVER);
    const conn = s.manager.get(SERVER);
    assert.ok(conn);
    assert.equal(conn.state.kind, 'stopped');
    const serverPicker = nextPicker(s, 'server', () => conn.state.kind);
    const run = vscode.commands.executeCommand('mcpElicitation.runTool');
    assert.equal(await serverPicker, 'stopped', 'offered while stopped');
    const toolPicker = nextPicker(s, 'tool', () => conn.ready);
    await acceptQuickInput();
    assert.equal(await toolPicker, true, 'started by picking it, then its tools were offered');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.equal(await run, undefined, 'closing the tool picker runs nothing');
  });
});
