import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { EXTENSION_ID, services, waitForRunning } from './helpers';
import { askerFor } from '../../src/elicitation/asker';

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
    const workspaceServers = ['workspace-file-server', 'workspace-setting-server'].filter((n) => s.manager.get(n));
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
    };
    for (const [key, value] of Object.entries(expected)) assert.deepEqual(c.get(key), value, key);
    // What the extension acts on, read through the same settings.
    assert.deepEqual({ ...s.limiter.current }, { requests: 3, perSeconds: 60 });
    assert.equal(s.gatekeeper.policyFor(SELF), 'block');
    assert.equal(s.gatekeeper.policyFor('Someone Else'), 'ask');
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
});
