// The fault battery in the real extension host: servers that die with a form open, never answer
// `initialize`, answer 500, cut a stream mid-message or are not there at all; and an Accept
// triggered twice. Each must end in a visible state with a reason, never a crash, a stuck prompt,
// a lost or doubled answer, or a stalled neighbour.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { acceptQuickInput, elicitVia, nextPrompt, services, startHttpFixture, waitFor, waitForRunning } from './helpers';

function repo(): string {
  const root = process.env['MCP_TEST_REPO_ROOT'];
  assert.ok(root, 'MCP_TEST_REPO_ROOT is set by the harness');
  return root;
}
const fixture = (name: string): string => path.join(repo(), 'test', 'fixtures', name);

async function setServers(servers: Record<string, unknown> | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('mcpElicitation').update('servers', servers, vscode.ConfigurationTarget.Workspace);
}

function state(s: TestServices, name: string): string {
  const st = s.manager.get(name)?.state;
  return st ? JSON.stringify(st) : 'absent';
}

/** Waits for the first `error` state of `name` and returns its reason. */
async function errorReason(s: TestServices, name: string, timeoutMs = 20_000): Promise<string> {
  let reason: string | undefined;
  await waitFor(
    () => {
      const st = s.manager.get(name)?.state;
      if (st?.kind === 'error') reason = st.reason;
      return reason !== undefined;
    },
    `${name} in error state (now ${state(s, name)})`,
    timeoutMs,
  );
  return reason ?? '';
}

/** The other servers are unaffected: still running, and answering. */
async function neighboursFine(s: TestServices): Promise<void> {
  assert.equal(s.manager.get('fixture')?.state.kind, 'running');
  const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', 'fixture', 'echo', {
    text: 'still here',
  });
  assert.equal(r.content[0]?.text, 'still here');
}

/** Starts test/fixtures/httpServer.mjs with a fault mode; resolves with its URL. */
const httpFixture = (fault: string, children: ChildProcess[]): Promise<string> =>
  startHttpFixture(fixture('httpServer.mjs'), ['0', `fault-${fault}`], children, { FIXTURE_HTTP_FAULT: fault });

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

function formTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('mcpElicitation.form'));
}

suite('Faults: dead, silent, broken and absent servers; a double Accept', () => {
  let s: TestServices;
  let savedServers: unknown;
  const children: ChildProcess[] = [];

  suiteSetup(async () => {
    s = await services();
    await waitForRunning(s, 'fixture');
    savedServers = vscode.workspace.getConfiguration('mcpElicitation').inspect('servers')?.workspaceValue;
  });

  teardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await setServers(savedServers as Record<string, unknown> | undefined);
    await waitFor(() => !s.manager.list().some((e) => e.name.startsWith('fault-')), 'fault servers removed');
    s.hooks.connectTimeoutMs = undefined;
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  test('server killed while its form is open: the form closes, the user is told, nothing stays pending, the server comes back', async () => {
    await setServers({ 'fault-kill': { command: 'node', args: [fixture('stdioServer.mjs'), 'fault-kill'] } });
    await waitForRunning(s, 'fault-kill');
    const conn = s.manager.get('fault-kill');
    const pid = conn?.pid;
    assert.ok(conn && pid);
    const told: string[] = [];
    const telling = s.hooks.presenter.intercept('notifyServerGone', (notify) => (asker) => {
      told.push(asker.name);
      notify(asker);
    });
    try {
      const shown = nextPrompt(s);
      // Two fields: the webview form, in the default presentation.
      const call = elicitVia('fault-kill', {
        message: 'Killed while open',
        requestedSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } } },
      });
      const settled = call.then(
        () => 'answered',
        (e: unknown) => `failed: ${String(e)}`,
      );
      assert.equal((await shown).kind, 'webview');
      assert.equal(formTabs().length, 1, 'the form is open');
      process.kill(pid, 'SIGKILL');
      assert.match(await settled, /^failed/, 'the tool call fails with the connection');
      await waitFor(() => formTabs().length === 0, 'the form closed');
      await waitFor(() => told.includes('fault-kill'), 'the user was told');
      assert.equal(s.broker.queue.list().filter((e) => e.asker.name === 'fault-kill').length, 0, 'no pending entry left');
      const last = s.broker.queue.history
        .list()
        .filter((h) => h.asker.name === 'fault-kill')
        .at(-1);
      assert.equal(last?.decidedBy, 'disconnect');
      await waitFor(() => conn.state.kind === 'running' && conn.pid !== pid, 'restarted by the restart policy');
    } finally {
      telling.dispose();
    }
  });

  test('a server that never answers initialize goes to error after the connect timeout; the others keep running', async () => {
    // Read per attempt by the connection (see connectTimeoutMs in src/context.ts).
    s.hooks.connectTimeoutMs = 1500;
    const t0 = Date.now();
    await setServers({ 'fault-silent': { command: 'node', args: [fixture('silentServer.mjs')] } });
    await waitFor(() => s.manager.get('fault-silent')?.state.kind === 'starting', 'silent server starting');
    // While it hangs, the neighbours answer as usual.
    await neighboursFine(s);
    const reason = await errorReason(s, 'fault-silent');
    assert.match(reason, /timed out/i);
    assert.ok(Date.now() - t0 >= 1500, 'not before the timeout');
    await neighboursFine(s);
  });

  test('a Streamable HTTP server answering 500: error state with the status in the reason', async () => {
    const url = await httpFixture('500', children);
    await setServers({ 'fault-500': { type: 'http', url } });
    assert.match(await errorReason(s, 'fault-500'), /500/);
    await neighboursFine(s);
  });

  test('an unreachable server (closed port): error state naming the refusal', async () => {
    await setServers({ 'fault-closed': { type: 'http', url: `http://127.0.0.1:${await closedPort()}/mcp` } });
    assert.match(await errorReason(s, 'fault-closed'), /ECONNREFUSED/);
    await neighboursFine(s);
  });

  test('an HTTP server that cuts the stream mid-message and dies: the call fails, error state with a reason', async () => {
    const url = await httpFixture('drop', children);
    await setServers({ 'fault-drop': { type: 'http', url } });
    await waitForRunning(s, 'fault-drop');
    const call = Promise.resolve(vscode.commands.executeCommand('mcpElicitation.runTool', 'fault-drop', 'echo', { text: 'never' })).then(
      () => 'answered',
      (e: unknown) => `failed: ${String(e)}`,
    );
    assert.match(await errorReason(s, 'fault-drop'), /connection was lost/);
    assert.match(await call, /^failed/, 'the waiting call is failed, not left hanging');
    await neighboursFine(s);
  });

  test('Accept triggered twice: exactly one answer reaches the server, and the queue is clean', async () => {
    const presentation = vscode.workspace.getConfiguration('mcpElicitation').inspect('presentation')?.workspaceValue;
    await vscode.workspace.getConfiguration('mcpElicitation').update('presentation', 'quickInput', vscode.ConfigurationTarget.Workspace);
    try {
      await setServers({ 'fault-hostile': { command: 'node', args: [fixture('hostileServer.mjs')] } });
      await waitForRunning(s, 'fault-hostile');
      await waitFor(() => s.manager.get('fault-hostile')?.tools.some((t) => t.name === 'elicitCounted') === true, 'tools listed');
      const shown = nextPrompt(s);
      const call = vscode.commands.executeCommand<{ content: { text: string }[] }>(
        'mcpElicitation.runTool',
        'fault-hostile',
        'elicitCounted',
        {
          params: {
            message: 'Press Enter twice',
            requestedSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          },
        },
      );
      const box = (await shown).widget as vscode.InputBox;
      box.value = 'once';
      await Promise.all([acceptQuickInput(), acceptQuickInput()]);
      // The server counts responses per id off the wire, after a ping barrier: any second one would be there.
      const r = JSON.parse((await call).content[0]?.text ?? '{}') as { responses: unknown[] };
      assert.deepEqual(r.responses, [{ result: { action: 'accept', content: { a: 'once' } } }]);
      assert.equal(s.broker.queue.list().filter((e) => e.asker.name === 'fault-hostile').length, 0);
      assert.equal(s.broker.queue.history.list().filter((h) => h.asker.name === 'fault-hostile').length, 1);
    } finally {
      await vscode.workspace.getConfiguration('mcpElicitation').update('presentation', presentation, vscode.ConfigurationTarget.Workspace);
    }
  });
});
