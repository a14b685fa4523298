// The tasks extension of MCP 2026-07-28 (`io.modelcontextprotocol/tasks`) in the real extension
// host: an SDK v2 fixture server (test/fixtures/tasksModernFixture.mjs), over stdio and over
// Streamable HTTP, answers `tools/call` with a task handle. We poll `tasks/get`; its
// `inputRequests` go to our UI (answered here through the presenter's interceptor) and back with
// `tasks/update`, a key shown again is not asked again, and a task that never ends is cancelled at
// its ttl, a question it left open closed then, as it is when the server ends the task meanwhile.
// The fixture moves each task one step per poll, never by a timer.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { FormAnswer, FormPrompt } from '../../src/elicitation/presenter';
import { services, startHttpFixture, waitFor, waitForRunning } from './helpers';

const fixture = (name: string): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', name);
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
const STDIO = 'tasks-modern';
const HTTP = 'tasks-modern-http';

function run(server: string, tool: string): Thenable<{ content: { text: string }[] }> {
  return vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', server, tool, {});
}

suite('Tasks extension (2026-07-28): inputRequests in tasks/get go to our UI and back with tasks/update', () => {
  let s: TestServices;
  let saved: unknown;
  let savedRate: unknown;
  let savedPolicy: unknown;
  const children: ChildProcess[] = [];

  suiteSetup(async function () {
    this.timeout(90_000);
    s = await services();
    saved = config().inspect('servers')?.workspaceValue;
    savedRate = config().inspect('rateLimit')?.workspaceValue;
    savedPolicy = config().inspect('serverPolicy')?.workspaceValue;
    await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    await config().update('serverPolicy', {}, vscode.ConfigurationTarget.Workspace);
    const url = await startHttpFixture(fixture('modernHttpServer.mjs'), ['0', HTTP, 'tasks'], children);
    await config().update(
      'servers',
      {
        ...(saved as Record<string, unknown> | undefined),
        [STDIO]: { command: 'node', args: [fixture('tasksModernStdioServer.mjs'), STDIO] },
        [HTTP]: { type: 'http', url },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    for (const n of [STDIO, HTTP]) await waitForRunning(s, n);
    await waitFor(() => [STDIO, HTTP].every((n) => s.manager.get(n)?.ready === true), 'tools listed');
  });
  suiteTeardown(async () => {
    s.broker.queue.cancelAll();
    await config().update('servers', saved, vscode.ConfigurationTarget.Workspace);
    await config().update('rateLimit', savedRate, vscode.ConfigurationTarget.Workspace);
    await config().update('serverPolicy', savedPolicy, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => ![STDIO, HTTP].some((n) => s.manager.get(n)), 'servers removed');
    for (const c of children.splice(0)) c.kill('SIGTERM');
  });
  teardown(async () => {
    s.broker.queue.cancelAll();
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  /** Answers each form with its one field set to `value(field)`; records the prompts. */
  function answering(value: (field: string) => string): { prompts: FormPrompt[]; done: vscode.Disposable } {
    const prompts: FormPrompt[] = [];
    const done = s.hooks.presenter.intercept('presentForm', () => (prompt) => {
      prompts.push(prompt);
      const field = prompt.form.fields[0]?.key ?? '';
      return Promise.resolve<FormAnswer>({ action: 'accept', content: { [field]: value(field) } });
    });
    return { prompts, done };
  }

  test('both servers speak 2026-07-28', () => {
    for (const n of [STDIO, HTTP]) {
      const conn = s.manager.get(n);
      assert.equal(conn?.state.kind === 'running' ? conn.state.protocolVersion : undefined, '2026-07-28', n);
    }
  });

  test('a task’s inputRequests are asked through our UI, each key once though the server lists it again, and the answers reach it with tasks/update (stdio and HTTP)', async function () {
    this.timeout(120_000);
    for (const server of [STDIO, HTTP]) {
      const { prompts, done } = answering((field) => (field === 'name' ? 'Ada' : 'Paris'));
      let reply: { greeting: string; updates: string[][]; ignored: string[] };
      try {
        const r = await run(server, 'greet');
        reply = JSON.parse(r.content[0]?.text ?? '{}') as typeof reply;
      } finally {
        done.dispose();
      }
      assert.equal(reply.greeting, 'Hello Ada from Paris', server);
      assert.deepEqual(
        prompts.map((p) => p.form.fields[0]?.key),
        ['name', 'city'],
        `${server}: name asked once, though the second poll listed it again`,
      );
      assert.equal(prompts[0]?.asker.name, server);
      assert.deepEqual(reply.updates, [['name'], ['city']], `${server}: each tasks/update carried only the key just answered`);
      assert.deepEqual(reply.ignored, [], `${server}: no key the server did not ask (or had answered) was ever sent`);
      const last = s.broker.queue.history.list().at(-1);
      assert.deepEqual([last?.asker.name, last?.action, last?.message], [server, 'accept', 'Task: which city?']);
    }
  });

  test('a task that never finishes ends at its ttl: the call fails with the reason and the server is told with tasks/cancel', async function () {
    this.timeout(60_000);
    await assert.rejects(Promise.resolve(run(STDIO, 'never')), /did not finish within its time to live \(1500 ms\)/);
    // tasks/cancel goes out as the call fails; ask the server until it has heard it.
    const t0 = Date.now();
    for (;;) {
      const cancelled = JSON.parse((await run(STDIO, 'cancelled')).content[0]?.text ?? '[]') as string[];
      if (cancelled.length > 0) break;
      assert.ok(Date.now() - t0 < 20_000, 'tasks/cancel reached the server');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  test('a task whose ttl runs out while its question is on screen: the form closes then, the call fails with the ttl, nothing stays pending, the server hears tasks/cancel', async function () {
    this.timeout(60_000);
    const cancelledBefore = (JSON.parse((await run(STDIO, 'cancelled')).content[0]?.text ?? '[]') as string[]).length;
    let shown = 0;
    const sub = s.hooks.onDidShowPrompt(() => shown++);
    try {
      // Nobody answers: the real form stays on screen until something closes it.
      await assert.rejects(Promise.resolve(run(STDIO, 'brief')), /did not finish within its time to live \(3000 ms\)/);
    } finally {
      sub.dispose();
    }
    assert.ok(shown > 0, 'the form was shown');
    assert.equal(s.broker.queue.size, 0, 'nothing stays pending');
    const last = s.broker.queue.history.list().at(-1);
    assert.deepEqual([last?.asker.name, last?.message, last?.action], [STDIO, 'Task: what is your name?', 'cancel']);
    const t0 = Date.now();
    for (;;) {
      const cancelled = JSON.parse((await run(STDIO, 'cancelled')).content[0]?.text ?? '[]') as string[];
      if (cancelled.length > cancelledBefore) break;
      assert.ok(Date.now() - t0 < 20_000, 'tasks/cancel reached the server');
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  test('a task the server cancels while its question is on screen: the form closes then, the call fails with the server’s reason, nothing stays pending', async function () {
    this.timeout(60_000);
    let shown = 0;
    const sub = s.hooks.onDidShowPrompt(() => shown++);
    try {
      // Nobody answers, and the task's ttl is a minute: only the server's cancel can close the form.
      await assert.rejects(Promise.resolve(run(HTTP, 'abandons')), /was cancelled by the server: the server stopped waiting for an answer/);
    } finally {
      sub.dispose();
    }
    assert.ok(shown > 0, 'the form was shown');
    assert.equal(s.broker.queue.size, 0, 'nothing stays pending');
    const last = s.broker.queue.history.list().at(-1);
    assert.deepEqual([last?.asker.name, last?.message, last?.action], [HTTP, 'Task: what is your name?', 'cancel']);
  });

  test('a failed task fails the call with its error; nothing is shown and the server still answers', async () => {
    let shown = 0;
    const sub = s.hooks.onDidShowPrompt(() => shown++);
    try {
      await assert.rejects(Promise.resolve(run(HTTP, 'fails')), /failed: the disk is full/);
    } finally {
      sub.dispose();
    }
    assert.equal(shown, 0);
    const cancelled = await run(HTTP, 'cancelled');
    assert.ok(Array.isArray(JSON.parse(cancelled.content[0]?.text ?? 'null')));
  });
});
