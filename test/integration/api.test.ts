import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { acceptQuickInput, nextPrompt, services, waitFor } from './helpers';

interface ApiState {
  version: number;
  servers: { name: string; state: string; tools: string[] }[];
  pending: { server: string; mode: string; state: string; message: string }[];
  pendingChanges: number;
}

/** The API client fixture's identity: `extension:` and its extension id. */
const CLIENT = 'extension:mcp-test.api-client';

const form = {
  message: 'Which environment?',
  requestedSchema: { type: 'object', properties: { env: { type: 'string', enum: ['dev', 'prod'] } }, required: ['env'] },
};

suite('Public API used from a second extension', () => {
  let s: TestServices;
  suiteSetup(async () => {
    s = await services();
    // tools/list follows the handshake: wait for both, or a slow host sees a running server with no tools yet.
    await waitFor(
      () =>
        s.manager.get('fixture')?.state.kind === 'running' && (s.manager.get('fixture')?.tools.some((t) => t.name === 'elicit') ?? false),
      'fixture running with its tools',
    );
  });
  teardown(async () => {
    await vscode.workspace.getConfiguration('mcpElicitation').update('serverPolicy', undefined, vscode.ConfigurationTarget.Workspace);
  });

  test('elicit() shows our UI with the source as attribution and resolves to the ElicitResult', async () => {
    const result = vscode.commands.executeCommand<{ action: string; content?: unknown }>('mcpApiClient.elicit', form);
    const p = await nextPrompt(s);
    const qp = p.widget as vscode.QuickPick<vscode.QuickPickItem>;
    assert.match(qp.title ?? '', /API Client Test/);
    const state = await vscode.commands.executeCommand<ApiState>('mcpApiClient.state');
    assert.equal(state.version, 1);
    // Named by its extension id, whatever `source` says: that is its policy key and rate-limit bucket.
    assert.deepEqual(
      state.pending.map((e) => [e.server, e.mode, e.state]),
      [[CLIENT, 'form', 'onScreen']],
    );
    assert.ok(state.servers.some((x) => x.name === 'fixture' && x.state === 'running' && x.tools.includes('elicit')));
    qp.activeItems = qp.items.filter((i) => i.label === 'prod');
    await acceptQuickInput();
    assert.deepEqual(await result, { action: 'accept', content: { env: 'prod' } });
    const after = await vscode.commands.executeCommand<ApiState>('mcpApiClient.state');
    assert.equal(after.pending.length, 0);
  });

  test('API requests obey the same policy as servers (block → decline, nothing shown)', async () => {
    await vscode.workspace
      .getConfiguration('mcpElicitation')
      .update('serverPolicy', { [CLIENT]: 'block' }, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.gatekeeper.policyFor(CLIENT) === 'block', 'policy applied');
    let shown = false;
    const sub = s.hooks.onDidShowPrompt(() => (shown = true));
    const result = await vscode.commands.executeCommand('mcpApiClient.elicit', form);
    sub.dispose();
    assert.deepEqual(result, { action: 'decline' });
    assert.equal(shown, false);
    assert.equal(s.broker.queue.history.list().at(-1)?.decidedBy, 'policy');
  });

  test('the second extension is handed the public API and nothing that leads inside: no services, broker, manager or gateway key', async () => {
    const got = await vscode.commands.executeCommand<{ keys: string[]; frozen: boolean; plain: boolean; reachable: string[] }>(
      'mcpApiClient.surface',
    );
    assert.deepEqual(got.keys, ['elicit', 'onDidChangePending', 'onDidChangeServers', 'pending', 'servers', 'version']);
    assert.ok(got.frozen && got.plain, 'a frozen plain object');
    const inside = ['broker', 'manager', 'gateway', 'services', 'testServices', '__testing', 'hooks', 'queue', 'secret', 'key'];
    assert.deepEqual(
      got.reachable.filter((n) => inside.includes(n)),
      [],
    );
  });

  test('a source naming a configured server borrows nothing of it: the server is blocked, the extension is still asked', async () => {
    await vscode.workspace
      .getConfiguration('mcpElicitation')
      .update('serverPolicy', { fixture: 'block' }, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.gatekeeper.policyFor('fixture') === 'block', 'policy applied');
    const result = vscode.commands.executeCommand<{ action: string }>('mcpApiClient.elicit', form, 'fixture');
    const p = await nextPrompt(s);
    const state = await vscode.commands.executeCommand<ApiState>('mcpApiClient.state');
    assert.deepEqual(
      state.pending.map((e) => e.server),
      [CLIENT],
    );
    s.broker.queue.settle(p.id, 'cancel');
    assert.deepEqual(await result, { action: 'cancel' }, "shown and answered by the user, not declined by the fixture's policy");
  });

  test('a malformed request from the API is rejected with the reason', async () => {
    await assert.rejects(
      Promise.resolve(
        vscode.commands.executeCommand('mcpApiClient.elicit', {
          message: 'x',
          requestedSchema: { type: 'object', properties: { a: { $ref: '#/x' } } },
        }),
      ),
      /properties\.a/,
    );
  });
});
