import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

suite('Inputs: ${input:…} asked once, passwords only in SecretStorage', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
  });
  suiteTeardown(async () => {
    mcpJson.restore();
    // An input box left open would hold every later configuration reload behind it.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => !s.manager.get('extra-input'), 'extra server removed');
    await vscode.commands.executeCommand('mcpElicitation.clearInputs');
  });

  test('a password input is asked for with a masked box, passed to the server, kept in SecretStorage only', async () => {
    const json = JSON.parse(mcpJson.original) as { inputs: unknown[]; servers: Record<string, { args?: string[]; command?: string }> };
    const fixture = json.servers['fixture'];
    assert.ok(fixture?.args);
    json.inputs = [{ type: 'promptString', id: 'tok', description: 'Token for the test server', password: true, default: 'pa55-w0rd-value' }];
    json.servers['extra-input'] = { command: fixture.command ?? 'node', args: [fixture.args[0] ?? '', 'extra-input'], env: { FIXTURE_TOKEN: '${input:tok}' } } as never;
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    // The InputBox is VS Code's own (showInputBox); its pre-filled default is accepted like Enter.
    // Bounded: Enter on whatever box is open until the server runs (at most 10 s).
    for (let i = 0; i < 100 && s.manager.get('extra-input')?.state.kind !== 'running'; i++) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 100));
    }
    await waitForRunning(s, 'extra-input');
    const env = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', 'extra-input', 'env', { name: 'FIXTURE_TOKEN' });
    assert.equal(env.content[0]?.text, 'pa55-w0rd-value', 'the server got the value');
    assert.equal(await s.context.secrets.get('mcpElicitation.input.tok'), 'pa55-w0rd-value', 'stored in SecretStorage');
    assert.equal(s.context.workspaceState.get('mcpElicitation.input.tok'), undefined, 'not in workspace state');
    const settings = JSON.stringify(vscode.workspace.getConfiguration('mcpElicitation'));
    assert.ok(!settings.includes('pa55-w0rd-value'), 'never in settings');
  });

  test('Clear Remembered Inputs forgets the secret', async () => {
    // Remove the server first: with it still configured, a late file-watcher reload would ask
    // for the forgotten input again, and an unanswered box blocks later reloads.
    mcpJson.restore();
    await waitFor(() => !s.manager.get('extra-input'), 'extra server removed');
    await vscode.commands.executeCommand('mcpElicitation.clearInputs');
    assert.equal(await s.context.secrets.get('mcpElicitation.input.tok'), undefined);
  });
});
