import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

const TOK = { id: 'tok', description: 'Token for the test server', password: true } as const;

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

  /** Where this workspace keeps `tok` of `extra-input`, and where another workspace with the same id would. */
  function keys(): { here: string; elsewhere: string } {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const file = vscode.Uri.joinPath(vscode.Uri.file(folder), '.vscode', 'mcp.json').fsPath;
    return {
      here: s.loader.inputs.storageKey(TOK, { server: 'extra-input', source: { kind: 'workspaceFile', file, folder } }),
      elsewhere: s.loader.inputs.storageKey(TOK, {
        server: 'extra-input',
        source: { kind: 'workspaceFile', file: '/other-repo/.vscode/mcp.json', folder: '/other-repo' },
      }),
    };
  }

  test('a password input is asked for with a masked box, passed to the server, kept in SecretStorage only', async () => {
    // Another workspace declaring the same id has its own value; the old global key is never read.
    await s.context.secrets.store(keys().elsewhere, 'other-workspace-secret');
    await s.context.secrets.store('mcpElicitation.input.tok', 'old-global-secret');
    const json = JSON.parse(mcpJson.original) as { inputs: unknown[]; servers: Record<string, { args?: string[]; command?: string }> };
    const fixture = json.servers['fixture'];
    assert.ok(fixture?.args);
    json.inputs = [{ type: 'promptString', ...TOK, default: 'pa55-w0rd-value' }];
    json.servers['extra-input'] = {
      command: fixture.command ?? 'node',
      args: [fixture.args[0] ?? '', 'extra-input'],
      env: { FIXTURE_TOKEN: '${input:tok}' },
    } as never;
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    // The InputBox is VS Code's own (showInputBox); its pre-filled default is accepted like Enter.
    // Bounded: Enter on whatever box is open until the server runs (at most 10 s).
    for (let i = 0; i < 100 && s.manager.get('extra-input')?.state.kind !== 'running'; i++) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 100));
    }
    await waitForRunning(s, 'extra-input');
    const env = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', 'extra-input', 'env', {
      name: 'FIXTURE_TOKEN',
    });
    assert.equal(env.content[0]?.text, 'pa55-w0rd-value', 'the server got the value');
    assert.equal(await s.context.secrets.get(keys().here), 'pa55-w0rd-value', 'stored in SecretStorage, for this workspace and server');
    assert.equal(s.context.workspaceState.get(keys().here), undefined, 'not in workspace state');
    assert.equal(await s.context.secrets.get(keys().elsewhere), 'other-workspace-secret', "the other workspace's value is untouched");
    const settings = JSON.stringify(vscode.workspace.getConfiguration('mcpElicitation'));
    assert.ok(!settings.includes('pa55-w0rd-value'), 'never in settings');
  });

  test('Clear Remembered Inputs forgets the secret', async () => {
    // Remove the server first: with it still configured, a late file-watcher reload would ask
    // for the forgotten input again, and an unanswered box blocks later reloads.
    mcpJson.restore();
    await waitFor(() => !s.manager.get('extra-input'), 'extra server removed');
    await vscode.commands.executeCommand('mcpElicitation.clearInputs');
    assert.equal(await s.context.secrets.get(keys().here), undefined);
    assert.equal(await s.context.secrets.get(keys().elsewhere), 'other-workspace-secret', 'clearing here does not clear another workspace');
    await s.context.secrets.delete(keys().elsewhere);
    await s.context.secrets.delete('mcpElicitation.input.tok');
  });
});
