// Issue 24, item 6, in the real extension host: cancelling a call closes the question it raised,
// in both eras, over stdio and Streamable HTTP, when the agent cancels through the gateway and when
// Run Tool's Cancel does (the same callToolWithElicitation with an AbortSignal that runTool.ts
// uses). The 2025 servers ask like server-everything's `trigger-elicitation-request`: the question
// goes out through the call and is never withdrawn when the call is cancelled
// (fixtureServer.mjs, `askLikeEverything`). Assertions about the protocol read what the servers recorded.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { callToolWithElicitation } from '../../src/servers/toolRunner';
import { invoke, startAsAgent } from './agent';
import { nextPrompt, services, startHttpFixture, waitFor, waitForRunning } from './helpers';
import { recordedLines, recordFile } from './fixtureRecord';

const fixture = (name: string): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', name);
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

// Short names: VS Code shortens a server's part of the agent's tool names (see agent.ts).
const OLD_STDIO = 'oldio';
const OLD_HTTP = 'oldhp';
const NEW_STDIO = 'newio';
const NEW_HTTP = 'newhp';
const ALL = [OLD_STDIO, OLD_HTTP, NEW_STDIO, NEW_HTTP] as const;

/** Every line `server` recorded. */
const lines = (server: string): Record<string, unknown>[] => recordedLines(recordFile(server));
/** What a 2025 fixture recorded for `tag` (`callCancelled`, `answered`, `error`). */
const about = (server: string, tag: string, kind: string): Record<string, unknown>[] =>
  lines(server).filter((r) => r['tag'] === tag && r['kind'] === kind);
/** The tools/call legs a 2026-07-28 fixture received for `tag`. */
const legs = (server: string, tag: string): Record<string, unknown>[] =>
  lines(server).filter((r) => r['kind'] === 'received' && r['tag'] === tag);

type How = 'gateway' | 'runTool';

/** Starts a call that asks; returns how to cancel it and the call's settling (never rejects). */
function start(
  s: TestServices,
  how: How,
  server: string,
  tool: string,
  args: Record<string, unknown>,
): { cancel(): void; done: Promise<unknown> } {
  if (how === 'gateway') {
    const cts = new vscode.CancellationTokenSource();
    const done = invoke(server, tool, args, cts.token).then(
      (text) => ({ text }),
      (err: unknown) => ({ err }),
    );
    return { cancel: () => cts.cancel(), done: done.finally(() => cts.dispose()) };
  }
  const conn = s.manager.get(server);
  assert.ok(conn, `${server} is configured`);
  const ac = new AbortController();
  const done = callToolWithElicitation(conn, s.broker, { name: tool, arguments: args }, { signal: ac.signal }).then(
    (result) => ({ result }),
    (err: unknown) => ({ err }),
  );
  return { cancel: () => ac.abort(), done };
}

suite('Issue 24 item 6: cancelling a call closes the question it raised (both eras, stdio and HTTP, gateway and Run Tool)', () => {
  let s: TestServices;
  let saved: unknown;
  let savedRate: unknown;
  const children: ChildProcess[] = [];

  suiteSetup(async function () {
    this.timeout(120_000);
    s = await services();
    saved = config().inspect('servers')?.workspaceValue;
    savedRate = config().inspect('rateLimit')?.workspaceValue;
    await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    const oldUrl = await startHttpFixture(fixture('httpServer.mjs'), ['0', OLD_HTTP], children, { FIXTURE_RECORD: recordFile(OLD_HTTP) });
    const newUrl = await startHttpFixture(fixture('modernHttpServer.mjs'), ['0', NEW_HTTP, 'mrtr'], children, {
      FIXTURE_RECORD: recordFile(NEW_HTTP),
    });
    await config().update(
      'servers',
      {
        ...(saved as Record<string, unknown> | undefined),
        [OLD_STDIO]: { command: 'node', args: [fixture('stdioServer.mjs'), OLD_STDIO], env: { FIXTURE_RECORD: recordFile(OLD_STDIO) } },
        [OLD_HTTP]: { type: 'http', url: oldUrl },
        [NEW_STDIO]: {
          command: 'node',
          args: [fixture('mrtrStdioServer.mjs'), NEW_STDIO, 'modern'],
          env: { FIXTURE_RECORD: recordFile(NEW_STDIO) },
        },
        [NEW_HTTP]: { type: 'http', url: newUrl },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    for (const n of ALL) await waitForRunning(s, n);
    await waitFor(() => ALL.every((n) => s.manager.get(n)?.ready === true && s.gateway.has(n)), 'tools listed and gateway endpoints open');
    await startAsAgent(OLD_STDIO, 'askLikeEverything');
    await startAsAgent(OLD_HTTP, 'askLikeEverything');
    await startAsAgent(NEW_STDIO, 'form');
    await startAsAgent(NEW_HTTP, 'form');
  });
  suiteTeardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await config().update('servers', saved, vscode.ConfigurationTarget.Workspace);
    await config().update('rateLimit', savedRate, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !ALL.some((n) => s.manager.get(n)), 'servers removed');
    for (const c of children.splice(0)) c.kill('SIGTERM');
  });
  // A failed test must not leave its prompt open in front of the next one.
  teardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  /** Starts the call, waits for its question on screen, cancels the call: the question closes as the call's. */
  async function cancelWhileAsking(how: How, server: string, tool: string, args: Record<string, unknown>): Promise<void> {
    const closed: string[] = [];
    const watch = s.hooks.presenter.intercept('notifyCallCancelled', (inner) => (asker) => {
      closed.push(asker.name);
      inner(asker);
    });
    try {
      const call = start(s, how, server, tool, args);
      const shown = await nextPrompt(s);
      assert.match(shown.widget?.title ?? '', new RegExp(server), `${server}: the question is on screen`);
      assert.equal(s.broker.queue.size, 1);
      call.cancel();
      await call.done;
      await waitFor(() => s.broker.queue.size === 0, `${server} (${how}): the question closed`);
      const last = s.broker.queue.history.list().at(-1);
      assert.deepEqual([last?.asker.name, last?.action, last?.decidedBy], [server, 'cancel', 'callCancel'], `${server} (${how})`);
      assert.deepEqual(closed, [server], `${server} (${how}): the user is told why it closed`);
    } finally {
      watch.dispose();
    }
  }

  for (const how of ['gateway', 'runTool'] as const) {
    test(`2025, ${how}: a server that does not withdraw its question hears the cancellation; the form closes; the server gets one cancel`, async function () {
      this.timeout(90_000);
      for (const server of [OLD_STDIO, OLD_HTTP]) {
        const tag = `${how}-${server}`;
        await cancelWhileAsking(how, server, 'askLikeEverything', { tag });
        await waitFor(() => about(server, tag, 'callCancelled').length === 1, `${server} heard the cancellation`);
        await waitFor(() => about(server, tag, 'answered').length === 1, `${server} got its answer`);
        assert.deepEqual(about(server, tag, 'answered')[0]?.['response'], { action: 'cancel' }, server);
        assert.deepEqual(about(server, tag, 'error'), [], `${server}: no second answer, no error`);
      }
    });

    test(`2026-07-28, ${how}: the round belongs to the call; cancelling it closes the form and sends no retry`, async function () {
      this.timeout(90_000);
      for (const server of [NEW_STDIO, NEW_HTTP]) {
        const tag = `${how}-${server}`;
        await cancelWhileAsking(how, server, 'form', { tag });
        assert.equal(legs(server, tag).length, 1, `${server}: no retry`);
      }
    });
  }

  test('2025 over Streamable HTTP, two calls in flight: each question arrived on its own call’s stream, so cancelling either closes exactly its own', async function () {
    this.timeout(90_000);
    const server = OLD_HTTP;
    const first = start(s, 'runTool', server, 'askLikeEverything', { tag: 'http-first' });
    await nextPrompt(s);
    const second = start(s, 'runTool', server, 'askLikeEverything', { tag: 'http-second' });
    await waitFor(() => s.broker.queue.size === 2, 'both questions pending');
    second.cancel();
    await second.done;
    await waitFor(() => s.broker.queue.size === 1, 'the second call’s question closed');
    assert.match(s.broker.queue.list()[0]?.message ?? '', /http-first/, 'the first is still open');
    first.cancel();
    await first.done;
    await waitFor(() => s.broker.queue.size === 0, 'the first call’s question closed');
    for (const tag of ['http-first', 'http-second']) {
      await waitFor(() => about(server, tag, 'answered').length === 1, `${tag} answered`);
      assert.deepEqual(about(server, tag, 'answered')[0]?.['response'], { action: 'cancel' }, tag);
    }
  });

  test('2025 over stdio, two calls in flight: a question that could be either call’s stays open when one is cancelled; one that came while its call was alone closes', async function () {
    this.timeout(90_000);
    const server = OLD_STDIO;
    const first = start(s, 'runTool', server, 'askLikeEverything', { tag: 'alone' });
    await nextPrompt(s);
    // The second call's question arrives while both calls are in flight: its call cannot be told.
    const second = start(s, 'runTool', server, 'askLikeEverything', { tag: 'ambiguous' });
    await waitFor(() => s.broker.queue.size === 2, 'both questions pending');
    second.cancel();
    await second.done;
    await waitFor(() => about(server, 'ambiguous', 'callCancelled').length === 1, 'the server heard the second cancellation');
    assert.equal(s.broker.queue.size, 2, 'the ambiguous question stays open');
    first.cancel();
    await first.done;
    await waitFor(() => s.broker.queue.size === 1, 'the first call’s question closed');
    assert.match(s.broker.queue.list()[0]?.message ?? '', /ambiguous/, 'the one left is the ambiguous one');
    await waitFor(() => about(server, 'alone', 'answered').length === 1, 'the first question was answered');
    assert.deepEqual(about(server, 'alone', 'answered')[0]?.['response'], { action: 'cancel' });
  });
});
