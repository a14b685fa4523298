// Tasks in the real extension host (MCP 2025-11-25, client side): the SDK fixture servers, over
// stdio (`fixture`) and Streamable HTTP (`fixture-http`), send elicitation/create and
// sampling/createMessage with a `task` field and drive the task with the SDK's own
// `experimental.tasks` calls (test/fixtures/taskTools.mjs). The question goes through the same
// broker, pending list, policy and audit log as any other; the user's part is answered through the
// presenter's interceptor, and the model is the deterministic test model of
// test/fixtures/samplingModelExtension.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { FormAnswer, FormPrompt } from '../../src/elicitation/presenter';
import { services, waitFor, waitForRunning, setPolicy } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

interface TaskReply {
  readonly taskId?: string;
  readonly steps?: string[];
  readonly result?: Record<string, unknown>;
  readonly error?: { code?: number; message: string };
  readonly task?: { taskId: string; status: string; ttl: number; statusMessage?: string };
  readonly status?: string;
  readonly statusMessage?: string;
  readonly tasks?: { taskId: string; status: string }[];
}

async function task(server: string, args: Record<string, unknown>): Promise<TaskReply> {
  const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', server, 'task', args);
  return JSON.parse(r.content[0]?.text ?? 'null') as TaskReply;
}

const nameForm = (message: string): Record<string, unknown> => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
});

interface AuditLine {
  readonly server: string;
  readonly message: string;
  readonly mode: string;
  readonly action: string;
  readonly decidedBy: string;
}

suite('Tasks (2025-11-25): task-augmented elicitation and sampling in the real host', () => {
  let s: TestServices;
  let previousPolicy: unknown;
  let previousRate: unknown;
  let shown: string[];
  let watching: vscode.Disposable;

  suiteSetup(async function () {
    this.timeout(60_000);
    s = await services();
    previousPolicy = config().inspect('serverPolicy')?.workspaceValue;
    previousRate = config().inspect('rateLimit')?.workspaceValue;
    await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    await waitForRunning(s, 'fixture');
    await waitForRunning(s, 'fixture-http');
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('mcpTest.samplingModel.unregister');
    await config().update('serverPolicy', previousPolicy, vscode.ConfigurationTarget.Workspace);
    await config().update('rateLimit', previousRate, vscode.ConfigurationTarget.Workspace);
  });
  setup(() => {
    shown = [];
    watching = s.hooks.onDidShowPrompt((p) => shown.push(p.kind));
  });
  teardown(async () => {
    watching.dispose();
    s.broker.queue.cancelAll();
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  /** Answers the forms in the user's place, in order; records each prompt and how many requests were pending then. */
  function answering(...answers: ((p: FormPrompt) => FormAnswer)[]): { prompts: FormPrompt[]; pending: number[]; done: vscode.Disposable } {
    const prompts: FormPrompt[] = [];
    const pending: number[] = [];
    const done = s.hooks.presenter.intercept('presentForm', () => (prompt) => {
      prompts.push(prompt);
      pending.push(s.broker.queue.size);
      const next = answers.shift();
      return Promise.resolve(next ? next(prompt) : { action: 'cancel' });
    });
    return { prompts, pending, done };
  }

  /** Keeps each form open until its signal aborts (the server or the ttl closed it). */
  function holding(): { opened: FormPrompt[]; closed: FormPrompt[]; done: vscode.Disposable } {
    const opened: FormPrompt[] = [];
    const closed: FormPrompt[] = [];
    const done = s.hooks.presenter.intercept('presentForm', () => (prompt, signal) => {
      opened.push(prompt);
      return new Promise<FormAnswer>((resolve) => {
        const close = (): void => {
          closed.push(prompt);
          resolve({ action: 'cancel' });
        };
        if (signal.aborted) close();
        else signal.addEventListener('abort', close, { once: true });
      });
    });
    return { opened, closed, done };
  }

  async function auditLines(): Promise<AuditLine[]> {
    await s.audit.flush();
    if (!existsSync(s.audit.file)) return [];
    return readFileSync(s.audit.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditLine);
  }

  test('task-augmented elicitation/create over stdio and HTTP: the form shows, is pending, and its answer reaches the server through tasks/get and tasks/result; history and audit record it', async function () {
    this.timeout(120_000);
    await setPolicy(s, {});
    for (const server of ['fixture', 'fixture-http']) {
      const message = `Task form from ${server}`;
      const { prompts, pending, done } = answering(() => ({ action: 'accept', content: { name: 'Ada' } }));
      try {
        const r = await task(server, { op: 'run', params: nameForm(message), ttl: 120_000 });
        assert.deepEqual(r.result && { action: r.result['action'], content: r.result['content'] }, {
          action: 'accept',
          content: { name: 'Ada' },
        });
        assert.equal(r.steps?.[0], 'taskCreated');
        assert.ok(r.steps?.includes('completed'), `the server polled the task to completed: ${String(r.steps)}`);
        assert.equal(r.steps?.at(-1), 'result');
        assert.equal(prompts.length, 1);
        assert.equal(prompts[0]?.asker.name, server);
        assert.equal(String(prompts[0]?.message), message);
        assert.equal(pending[0], 1, 'the question was in the pending list while shown');
      } finally {
        done.dispose();
      }
      const last = s.broker.queue.history.list().at(-1);
      assert.deepEqual([last?.asker.name, last?.action, last?.decidedBy, last?.message], [server, 'accept', 'user', message]);
      const line = (await auditLines()).find((l) => l.message === message);
      assert.deepEqual(line && [line.server, line.mode, line.action, line.decidedBy], [server, 'form', 'accept', 'user']);
    }
  });

  test('policy applies to a task like any other: blocked, the task completes with decline and nothing is shown', async () => {
    await setPolicy(s, { fixture: 'block' });
    const r = await task('fixture', { op: 'run', params: nameForm('Blocked task'), ttl: 60_000 });
    assert.deepEqual(r.result && r.result['action'], 'decline');
    assert.deepEqual(shown, []);
    assert.equal(s.broker.queue.history.list().at(-1)?.decidedBy, 'policy');
  });

  test('task-augmented sampling/createMessage: the model answers through the consent, and the reply reaches the server through tasks/result', async function () {
    this.timeout(120_000);
    await vscode.commands.executeCommand('mcpTest.samplingModel.register');
    const models = await vscode.lm.selectChatModels({ vendor: 'mcp-test-sampling' });
    assert.equal(models.length, 2);
    await setPolicy(s, {});
    const { prompts, done } = answering(
      () => ({ action: 'accept', content: { model: 'sampling-mini', message1: 'Task hello' } }),
      (p) => ({ action: 'accept', content: { reply: String(p.form.fields[0]?.default) } }),
    );
    try {
      const r = await task('fixture', {
        op: 'run',
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Task hello' } }], maxTokens: 20 },
        ttl: 120_000,
      });
      assert.deepEqual(r.result?.['content'], { type: 'text', text: 'sampling-mini heard: Task hello' });
      assert.equal(prompts[0]?.asker.name, 'fixture', 'the consent names the server');
    } finally {
      done.dispose();
    }
    const last = s.broker.queue.history.list().at(-1);
    assert.deepEqual([last?.mode, last?.action, last?.model], ['sampling', 'accept', 'sampling-mini']);
  });

  test('tasks/list shows the task and tasks/cancel closes its open form; the history says the server cancelled', async function () {
    this.timeout(60_000);
    await setPolicy(s, {});
    const { opened, closed, done } = holding();
    try {
      const created = await task('fixture-http', { op: 'create', params: nameForm('Cancel me'), ttl: 120_000 });
      const id = created.task?.taskId ?? '';
      assert.equal(created.task?.status, 'working');
      await waitFor(() => opened.length === 1, 'the form of the task is shown');
      const listed = await task('fixture-http', { op: 'list' });
      assert.deepEqual(
        listed.tasks?.filter((t) => t.taskId === id).map((t) => t.status),
        ['working'],
      );
      const cancelled = await task('fixture-http', { op: 'cancel', taskId: id });
      assert.equal(cancelled.status, 'cancelled');
      await waitFor(() => closed.length === 1, 'the form closed');
      assert.equal((await task('fixture-http', { op: 'get', taskId: id })).status, 'cancelled');
      const again = await task('fixture-http', { op: 'cancel', taskId: id });
      assert.equal(again.error?.code, -32602, 'a finished task cannot be cancelled again');
    } finally {
      done.dispose();
    }
    await waitFor(() => s.broker.queue.history.list().at(-1)?.message === 'Cancel me', 'the cancelled question in the history');
    assert.equal(s.broker.queue.history.list().at(-1)?.decidedBy, 'serverCancel');
  });

  test('a task nobody answers ends at its ttl: the form closes by itself and the server reads why from tasks/get and tasks/result', async function () {
    this.timeout(60_000);
    await setPolicy(s, {});
    const { opened, closed, done } = holding();
    try {
      const created = await task('fixture', { op: 'create', params: nameForm('Nobody answers'), ttl: 1_500 });
      const id = created.task?.taskId ?? '';
      assert.equal(created.task?.ttl, 1_500);
      await waitFor(() => opened.length === 1, 'the form of the task is shown');
      await waitFor(() => closed.length === 1, 'the form closed at the ttl', 30_000);
      const got = await task('fixture', { op: 'get', taskId: id });
      assert.equal(got.status, 'failed');
      assert.match(got.statusMessage ?? '', /no answer within the task's ttl of 1500 ms/);
      const result = await task('fixture', { op: 'result', taskId: id });
      assert.equal(result.error?.code, -32603);
      assert.match(result.error?.message ?? '', /ttl/);
    } finally {
      done.dispose();
    }
  });

  test('bad input: tasks/get, tasks/result and tasks/cancel for an unknown id, a bad cursor and a malformed task request are -32602 with the reason; nothing is shown; the server still works', async () => {
    await setPolicy(s, {});
    for (const op of ['get', 'result', 'cancel']) {
      const r = await task('fixture', { op, taskId: 'no-such-task' });
      assert.equal(r.error?.code, -32602, op);
      assert.match(r.error?.message ?? '', /no task "no-such-task"/, op);
    }
    const cursor = await task('fixture', { op: 'list', cursor: 'not-ours' });
    assert.equal(cursor.error?.code, -32602);
    const malformed = await task('fixture', { op: 'create', params: { mode: 'form', message: 'x', requestedSchema: 'nope' } });
    assert.equal(malformed.error?.code, -32602, 'a request the broker rejects gets no task');
    assert.deepEqual(shown, []);
    const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', 'fixture', 'echo', {
      text: 'still here',
    });
    assert.equal(r.content[0]?.text, 'still here');
  });
  test('bad input: tasks/update (keys we never asked) over stdio and HTTP is -32602 naming them; the task goes on (still working, its form the only prompt) and still answers tasks/cancel', async function () {
    this.timeout(120_000);
    await setPolicy(s, {});
    for (const server of ['fixture', 'fixture-http']) {
      const { opened, closed, done } = holding();
      try {
        const created = await task(server, { op: 'create', params: nameForm(`Update test on ${server}`), ttl: 60_000 });
        const id = created.task?.taskId ?? '';
        await waitFor(() => opened.length === 1, 'the form of the task is shown');
        const never = await task(server, { op: 'update', taskId: id, params: { color: { action: 'accept', content: { c: 'red' } } } });
        assert.equal(never.error?.code, -32602, server);
        assert.match(never.error?.message ?? '', new RegExp(`task "${id}" never asked for input, so "color" was never asked`), server);
        const unknown = await task(server, { op: 'update', taskId: 'no-such-task', params: {} });
        assert.equal(unknown.error?.code, -32602, server);
        assert.match(unknown.error?.message ?? '', /no task "no-such-task"/, server);
        assert.equal((await task(server, { op: 'get', taskId: id })).status, 'working', `${server}: the task goes on`);
        assert.deepEqual([opened.length, closed.length], [1, 0], `${server}: nothing else shown, the form still open`);
        assert.equal(s.broker.queue.size, 1);
        const cancelled = await task(server, { op: 'cancel', taskId: id });
        assert.equal(cancelled.status, 'cancelled', `${server}: the task still answers its own requests`);
      } finally {
        done.dispose();
      }
    }
  });
});
