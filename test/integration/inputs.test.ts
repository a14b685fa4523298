import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { destination } from '../../src/config/parse/serverFingerprint';
import { services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

const TOK = { id: 'tok', description: 'Token for the test server', password: true } as const;
/** Where an older version kept every workspace's `tok`: never read, never cleared. */
const OLD_GLOBAL_KEY = 'mcpElicitation.input.tok';

// Each test sets up what it needs and leaves nothing behind (teardown), so each passes alone
// (`--grep`) as well as in the suite.
suite('Inputs: ${input:…} asked once, passwords only in SecretStorage', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
  });
  setup(async () => {
    // A value remembered here would be used without asking: every test starts with none.
    await vscode.commands.executeCommand('mcpElicitation.clearInputs');
    await s.context.secrets.delete(keys().here);
  });
  teardown(async () => {
    await removeServer();
    await vscode.commands.executeCommand('mcpElicitation.clearInputs');
    await s.context.secrets.delete(keys().elsewhere);
    await s.context.secrets.delete(OLD_GLOBAL_KEY);
  });

  /** `extra-input` as {@link addServer} writes it: the fixture's command, its script and `args`. */
  function extraInput(args: readonly string[] = ['extra-input']): { command: string; args: string[] } {
    const json = JSON.parse(mcpJson.original) as { servers: Record<string, { args?: string[]; command?: string }> };
    const fixture = json.servers['fixture'];
    assert.ok(fixture?.args);
    return { command: fixture.command ?? 'node', args: [fixture.args[0] ?? '', ...args] };
  }

  /** Where this workspace keeps `tok` of `extra-input`, and where another workspace with the same id would. */
  function keys(args?: readonly string[]): { here: string; elsewhere: string } {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const file = vscode.Uri.joinPath(vscode.Uri.file(folder), '.vscode', 'mcp.json').fsPath;
    const where = destination({ type: 'stdio', ...extraInput(args) });
    return {
      here: s.loader.inputs.storageKey(TOK, { server: 'extra-input', source: { kind: 'workspaceFile', file, folder }, destination: where }),
      elsewhere: s.loader.inputs.storageKey(TOK, {
        server: 'extra-input',
        source: { kind: 'workspaceFile', file: '/other-repo/.vscode/mcp.json', folder: '/other-repo' },
        destination: where,
      }),
    };
  }

  /**
   * Adds `extra-input` (its FIXTURE_TOKEN is `${input:tok}`, pre-filled with `prefill`) to the
   * workspace's mcp.json, as a user would, and accepts any input box until the server runs; returns
   * the token the server got. A remembered value starts it without a box, so the pre-fill is the
   * sign that the user was asked.
   */
  async function addServer(prefill: string, args?: readonly string[]): Promise<string | undefined> {
    const json = JSON.parse(mcpJson.original) as { inputs: unknown[]; servers: Record<string, unknown> };
    json.inputs = [{ type: 'promptString', ...TOK, default: prefill }];
    json.servers['extra-input'] = { ...extraInput(args), env: { FIXTURE_TOKEN: '${input:tok}' } };
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
    return env.content[0]?.text;
  }

  /**
   * Puts the workspace's mcp.json back and waits until `extra-input` is gone: with it still
   * configured, a late file-watcher reload would ask for a forgotten input again, and an
   * unanswered box holds every later configuration reload behind it.
   */
  async function removeServer(): Promise<void> {
    mcpJson.restore();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => !s.manager.get('extra-input'), 'extra server removed');
  }

  test('a password input is asked for with a masked box, passed to the server, kept in SecretStorage only', async () => {
    // Another workspace declaring the same id has its own value; the old global key is never read.
    await s.context.secrets.store(keys().elsewhere, 'other-workspace-secret');
    await s.context.secrets.store(OLD_GLOBAL_KEY, 'old-global-secret');
    assert.equal(await addServer('pa55-w0rd-value'), 'pa55-w0rd-value', 'the server got the value');
    assert.equal(await s.context.secrets.get(keys().here), 'pa55-w0rd-value', 'stored in SecretStorage, for this workspace and server');
    assert.equal(s.context.workspaceState.get(keys().here), undefined, 'not in workspace state');
    assert.equal(await s.context.secrets.get(keys().elsewhere), 'other-workspace-secret', "the other workspace's value is untouched");
    const settings = JSON.stringify(vscode.workspace.getConfiguration('mcpElicitation'));
    assert.ok(!settings.includes('pa55-w0rd-value'), 'never in settings');
  });

  test('a stored password stays with the command it was given for: a commit that changes the arguments asks again (issue 41)', async () => {
    assert.equal(await addServer('given-to-the-first'), 'given-to-the-first');
    await removeServer();
    // The same name, its arguments changed (as a pulled commit would): asked, not handed the stored one.
    const moved = ['extra-input', '--moved'];
    assert.equal(await addServer('asked-again', moved), 'asked-again', 'asked again for the changed definition');
    assert.equal(await s.context.secrets.get(keys(moved).here), 'asked-again');
    assert.equal(await s.context.secrets.get(keys().here), 'given-to-the-first', 'the first definition keeps its own');
  });

  test('Clear Remembered Inputs forgets the secret, and the next start asks again', async () => {
    await s.context.secrets.store(keys().elsewhere, 'other-workspace-secret');
    // Remembered the way a user's answer is: asked in the box, stored, the server started with it.
    assert.equal(await addServer('first-answer'), 'first-answer');
    await removeServer();
    // The control: until cleared, the same server starts with the remembered value, unasked.
    assert.equal(await addServer('not-asked'), 'first-answer', 'remembered before the clear');
    await removeServer();

    await vscode.commands.executeCommand('mcpElicitation.clearInputs');
    assert.equal(await s.context.secrets.get(keys().here), undefined, 'gone from SecretStorage');
    assert.equal(await s.context.secrets.get(keys().elsewhere), 'other-workspace-secret', 'clearing here does not clear another workspace');
    // The same server again: asked again, so the box's pre-fill reaches the server.
    assert.equal(await addServer('second-answer'), 'second-answer', 'asked again after the clear');
  });
});
