import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { elicitVia, EXTENSION_ID, services, waitFor, waitForRunning } from './helpers';
import { askerFor } from '../../src/elicitation/asker';
import { agentOn } from '../../src/gateway/agentSettings';
import { offerable } from '../../src/gateway/routingOfferRule';
import { OFFER_ANSWER_KEY } from '../../src/ui/routingOffer';

/** Records the text of each warning notification until disposed (the notification still shows). */
function recordWarnings(): { readonly texts: string[]; dispose(): void } {
  const window = vscode.window as { showWarningMessage: (message: string, ...rest: unknown[]) => Thenable<unknown> };
  const real = window.showWarningMessage;
  const texts: string[] = [];
  window.showWarningMessage = (message, ...rest) => {
    texts.push(message);
    return real.call(vscode.window, message, ...rest);
  };
  return { texts, dispose: () => (window.showWarningMessage = real) };
}

/** This suite calls the API from our own extension's folder: it is attributed to our extension. */
const SELF = `extension:${EXTENSION_ID}`;

// Runs only in the second host that scripts/lib/inHost.mjs starts with workspace trust on and
// the workspace untrusted. There the workspace's .vscode/settings.json tries to loosen every
// restricted setting and the user settings are stricter (see runUntrusted() in inHost.mjs).
suite('Untrusted workspace: workspace servers do not start, workspace settings cannot loosen handling', () => {
  let s: TestServices;
  const shown: string[] = [];

  suiteSetup(async function () {
    if (vscode.workspace.isTrusted) this.skip();
    s = await services();
    s.hooks.onDidShowPrompt((e) => shown.push(e.kind));
  });

  test('servers from mcp.json and workspace settings stay unstarted, even when started by command; the user’s own server runs', async () => {
    await waitForRunning(s, 'user-server');
    const workspaceServers = ['workspace-file-server', 'workspace-input-server', 'workspace-setting-server'].filter((n) =>
      s.manager.get(n),
    );
    assert.ok(workspaceServers.includes('workspace-file-server'), 'the mcp.json server is listed');
    const check = (when: string): void => {
      for (const name of workspaceServers) {
        const conn = s.manager.get(name);
        assert.equal(conn?.state.kind, 'untrusted', `${name} ${when}`);
        assert.equal(conn?.pid, undefined, `${name} has no process ${when}`);
      }
    };
    check('after activation');
    for (const name of workspaceServers) {
      await vscode.commands.executeCommand('mcpElicitation.startServer', name);
      await vscode.commands.executeCommand('mcpElicitation.restartServer', name);
    }
    await vscode.commands.executeCommand('mcpElicitation.startAll');
    await vscode.commands.executeCommand('mcpElicitation.restartAll');
    check('after Start, Restart, Start All and Restart All');
    await waitForRunning(s, 'user-server');
  });

  test('the user’s values of every restricted setting apply, not the workspace’s', () => {
    const c = vscode.workspace.getConfiguration('mcpElicitation');
    const expected: Record<string, unknown> = {
      serverPolicy: { [SELF]: 'block', 'Secret Source': 'allow' },
      defaultPolicy: 'ask',
      rateLimit: { requests: 3, perSeconds: 60 },
      sensitiveFields: 'decline',
      'url.allowHttpLoopback': false,
      'audit.enabled': true,
      'audit.includeValues': false,
      // Restricted: the workspace's "ours" would have us run its mcp.json servers.
      workspaceMcpJson: 'auto',
      // Restricted: the workspace's "http" would choose how the gateway key travels.
      'gateway.transport': 'stdio',
    };
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(c.get(key), value, key);
    // What the extension acts on, read through the same settings.
    assert.deepEqual({ ...s.limiter.current }, { requests: 3, perSeconds: 60 });
    assert.equal(s.gatekeeper.policyFor(SELF), 'block');
    assert.equal(s.gatekeeper.policyFor('Someone Else'), 'ask');
    assert.equal(s.gateway.agentTransport(), 'stdio');
  });

  test('a source the user blocked stays blocked, and secret-like fields are declined unseen', async () => {
    const before = shown.length;
    const blocked = await s.api.elicit(
      { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      { source: 'Blocked Source' },
    );
    assert.deepEqual(blocked, { action: 'decline' });
    const secret = await s.broker.handle(
      askerFor('Secret Source', undefined),
      {
        mode: 'form',
        message: 'Token?',
        requestedSchema: { type: 'object', properties: { password: { type: 'string' } }, required: ['password'] },
      },
      { signal: new AbortController().signal, requestId: 'untrusted-secret' },
    );
    assert.deepEqual(secret, { action: 'decline' });
    assert.equal(shown.length, before, 'nothing was shown');
  });
  test('a user’s server whose launch reads the workspace (`${workspaceFolder}` cwd, relative envFile) is gated like a workspace server', async () => {
    await waitForRunning(s, 'user-server');
    for (const name of ['user-workspace-cwd', 'user-relative-envfile']) {
      const entry = s.manager.list().find((e) => e.name === name);
      assert.equal(entry?.resolved?.workspaceDefined, false, `${name} is the user's`);
      assert.equal(entry?.resolved?.usesWorkspace, true, `${name} reads the workspace`);
      await vscode.commands.executeCommand('mcpElicitation.startServer', name);
      assert.equal(s.manager.get(name)?.state.kind, 'untrusted', `${name} after Start`);
      assert.equal(s.manager.get(name)?.pid, undefined, `${name} has no process`);
    }
    assert.equal(s.manager.list().find((e) => e.name === 'user-server')?.resolved?.usesWorkspace, false);
  });

  test('a user’s server whose envFile is a file of the untrusted workspace (by its path, or through a link outside it) waits for trust, the file unread; Start says why', async () => {
    await waitForRunning(s, 'user-server');
    const warnings = recordWarnings();
    try {
      for (const name of ['user-absolute-envfile', 'user-linked-envfile']) {
        const entry = s.manager.list().find((e) => e.name === name);
        assert.equal(entry?.resolved?.workspaceDefined, false, `${name} is the user's`);
        assert.equal(entry?.resolved?.trustWait, 'envFile', `${name} waits for its envFile`);
        const def = entry?.resolved?.def;
        assert.ok(def?.type === 'stdio');
        assert.equal(def.envFileValues, undefined, `${name}: the envFile was not read`);
        await vscode.commands.executeCommand('mcpElicitation.startServer', name);
        assert.equal(s.manager.get(name)?.state.kind, 'untrusted', `${name} after Start`);
        assert.equal(s.manager.get(name)?.pid, undefined, `${name} has no process`);
        assert.ok(
          warnings.texts.some((t) => t.includes(name) && t.includes('envFile') && t.includes('starts once you trust this workspace')),
          `${name}: ${warnings.texts.join(' | ')}`,
        );
      }
    } finally {
      warnings.dispose();
    }
  });

  test('a user’s server with ${command:…} waits for trust: the command does not run, and Start says why', async () => {
    const command = 'mcpTest.untrustedCommandVariable';
    const calls: unknown[] = [];
    const registration = vscode.commands.registerCommand(command, (...args: unknown[]) => {
      calls.push(args);
      return '4711';
    });
    const config = vscode.workspace.getConfiguration('mcpElicitation');
    const saved = config.inspect<Record<string, unknown>>('servers')?.globalValue ?? {};
    const base = saved['user-server'] as { command: string; args: string[] };
    const name = 'user-command-variable';
    const warnings = recordWarnings();
    try {
      await config.update(
        'servers',
        { ...saved, [name]: { ...base, args: [...base.args, `--port=\${command:${command}}`] } },
        vscode.ConfigurationTarget.Global,
      );
      await waitFor(() => s.manager.list().some((e) => e.name === name), 'the server is listed');
      const entry = s.manager.list().find((e) => e.name === name);
      assert.equal(entry?.resolved?.trustWait, 'command', 'it waits for trust');
      await vscode.commands.executeCommand('mcpElicitation.startServer', name);
      assert.equal(s.manager.get(name)?.state.kind, 'untrusted', 'after Start');
      assert.equal(s.manager.get(name)?.pid, undefined, 'no process');
      assert.deepEqual(calls, [], 'the command never ran');
      assert.ok(
        warnings.texts.some((t) => t.includes(name) && t.includes('starts once you trust this workspace')),
        warnings.texts.join(' | '),
      );
    } finally {
      warnings.dispose();
      await config.update('servers', saved, vscode.ConfigurationTarget.Global);
      registration.dispose();
      await waitFor(() => !s.manager.list().some((e) => e.name === name), 'the server removed');
    }
  });

  test('inputs and envFiles of workspace servers are not resolved until the workspace is trusted', () => {
    const def = s.manager.list().find((e) => e.name === 'workspace-input-server')?.resolved?.def;
    assert.ok(def?.type === 'stdio', 'listed');
    assert.equal(def.env['FIXTURE_TOKEN'], '${input:workspace-token}', 'the input was not asked');
    assert.equal(def.envFileValues, undefined, 'the envFile was not read');
    assert.deepEqual(s.context.workspaceState.get('mcpElicitation.inputs.known', []), [], 'nothing remembered');
  });

  test('no offer to route VS Code’s servers in an untrusted workspace, even with AI features on and the offer on and unanswered', async () => {
    const chat = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('chat');
    const savedAi = chat().inspect('disableAIFeatures')?.globalValue;
    const asked: string[][] = [];
    const intercepted = s.hooks.routingOffer.intercept('ask', () => (servers) => {
      asked.push(servers.map((d) => d.name));
      return Promise.resolve(undefined);
    });
    try {
      // This host starts with AI features off; on, VS Code would run the mcp.json servers, and
      // they are what an offer would list: everything but trust asks for one.
      await chat().update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
      await waitFor(
        () => offerable(s.manager.vscodeOwned()).some((d) => d.name === 'workspace-file-server'),
        'the mcp.json servers VS Code’s, as AI features are on',
      );
      await s.manager.reload();
      assert.equal(agentOn(), true);
      assert.equal(vscode.workspace.getConfiguration('mcpElicitation').get('offerRouting'), true, 'the offer is on');
      assert.equal(s.context.workspaceState.get(OFFER_ANSWER_KEY), undefined, 'and never answered here');
      assert.deepEqual(asked, [], 'no offer in a workspace the user has not trusted');
      assert.ok(!s.hooks.logLines.some((l) => /offering to route/.test(l.text)), 'none in this window at all');
    } finally {
      intercepted.dispose();
      await chat().update('disableAIFeatures', savedAi, vscode.ConfigurationTarget.Global);
      await waitFor(() => s.manager.vscodeOwned().length === 0, 'AI features off again: the mcp.json servers listed as ours');
    }
    assert.equal(s.manager.get('workspace-file-server')?.state.kind, 'untrusted', 'and still held back by trust');
  });

  // Last: it changes the user's serverPolicy (restored at the end).
  test('"Block this Server" and every policy action take effect in an untrusted workspace: written to user settings and in force', async () => {
    const c = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
    const saved = c().inspect<Record<string, string>>('serverPolicy');
    const name = 'user-server';
    try {
      // What the notification's, the form's and the pending list's "Block this Server" call.
      assert.equal(await s.policyActions.blockServer(name), vscode.ConfigurationTarget.Global);
      await waitFor(() => s.gatekeeper.policyFor(name) === 'block', 'block in force');
      assert.equal(c().inspect<Record<string, string>>('serverPolicy')?.globalValue?.[name], 'block');
      // In force: the server's question is declined at once, nothing shown.
      const before = shown.length;
      const form = { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };
      assert.deepEqual((await elicitVia(name, form)).response, { action: 'decline' });
      assert.equal(shown.length, before, 'nothing was shown');
      for (const policy of ['allow', 'ask', 'block'] as const) {
        await vscode.commands.executeCommand(`mcpElicitation.policy.${policy}`, name);
        await waitFor(() => s.gatekeeper.policyFor(name) === policy, `${policy} in force`);
        assert.equal(c().inspect<Record<string, string>>('serverPolicy')?.globalValue?.[name], policy);
      }
      assert.deepEqual(c().inspect('serverPolicy')?.workspaceValue, saved?.workspaceValue, "the workspace's settings untouched");
      assert.equal(c().inspect<Record<string, string>>('serverPolicy')?.globalValue?.['Secret Source'], 'allow', 'other entries kept');
    } finally {
      await c().update('serverPolicy', saved?.globalValue, vscode.ConfigurationTarget.Global);
    }
  });
});
