/**
 * Task-augmented elicitation and sampling (MCP 2025-11-25 tasks, client side): the pure store in
 * plain Node with timers the test fires, then a Session against a real SDK 1.x server that sends
 * its requests as tasks and polls them with the SDK's own `experimental.tasks` calls.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProtocolError, type Result } from '@modelcontextprotocol/client';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationSink, HandleExtra } from '../../src/elicitation/broker';
import * as clientTasksModule from '../../src/servers/capabilities/clientTasks';
import {
  ClientTasks,
  RELATED_TASK_META_KEY,
  TASK_CANCELLED_CODE,
  TASK_LIMITS,
  type TaskLimits,
} from '../../src/servers/capabilities/clientTasks';
import { answerMaybeAsTask, SessionTasks, TASKS_CAPABILITY, taskParam } from '../../src/servers/capabilities/tasks';
import { CLIENT_CAPABILITIES } from '../../src/servers/capabilities/clientCapabilities';
import { Session } from '../../src/servers/session';
import { FakeLaunches, ManualTimers, MemoryLog, RecordingSampler, stdioDef } from './support/fakeLaunches';

/** A run the test settles itself; `signal` is what the task gave it. */
function deferred(): {
  run: (s: AbortSignal) => Promise<Result>;
  resolve: (r: Result) => void;
  reject: (e: unknown) => void;
  signal: () => AbortSignal;
} {
  let resolve: (r: Result) => void = () => undefined;
  let reject: (e: unknown) => void = () => undefined;
  let signal: AbortSignal | undefined;
  const promise = new Promise<Result>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return {
    run: (s) => {
      signal = s;
      return promise;
    },
    resolve,
    reject,
    signal: () => {
      if (!signal) throw new Error('not run');
      return signal;
    },
  };
}

function store(timers = new ManualTimers(), limits: Partial<TaskLimits> = {}): { tasks: ClientTasks; timers: ManualTimers } {
  let n = 0;
  let now = Date.UTC(2026, 10, 25, 12, 0, 0);
  return {
    tasks: new ClientTasks({ setTimer: timers.set, now: () => (now += 1), newId: () => `t${++n}`, limits }),
    timers,
  };
}

async function rejection(p: Promise<unknown> | (() => unknown)): Promise<ProtocolError> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    assert.ok(e instanceof ProtocolError, `expected a ProtocolError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected a JSON-RPC error');
}

const accept: Result = { action: 'accept', content: { name: 'Ada' } };

void describe('ClientTasks (2025-11-25 tasks, receiver side)', () => {
  void it('answers at once with a working task; the answer later completes it, and tasks/result carries the related-task _meta', async () => {
    const { tasks } = store();
    const d = deferred();
    const { task } = await tasks.create('elicitation/create', 60_000, d.run);
    assert.deepEqual([task.taskId, task.status, task.ttl, task.pollInterval], ['t1', 'working', 60_000, TASK_LIMITS.pollIntervalMs]);
    assert.match(task.createdAt, /^\d{4}-\d\d-\d\dT/);
    const result = tasks.result('t1');
    let settled = false;
    void result.then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false, 'tasks/result blocks while the task is working');
    d.resolve(accept);
    assert.deepEqual(await result, { ...accept, _meta: { [RELATED_TASK_META_KEY]: { taskId: 't1' } } });
    assert.equal(tasks.get('t1').status, 'completed');
  });

  void it('a run that fails makes a failed task whose tasks/result is exactly the error the request would have got', async () => {
    const { tasks } = store();
    const d = deferred();
    await tasks.create('sampling/createMessage', undefined, d.run);
    d.reject(new ProtocolError(-1, 'User rejected the sampling request'));
    const err = await rejection(tasks.result('t1'));
    assert.deepEqual([err.code, err.message], [-1, 'User rejected the sampling request']);
    assert.equal(tasks.get('t1').status, 'failed');
  });

  void it('a request the broker rejects as malformed (-32602) is rejected itself: no task is made', async () => {
    const { tasks } = store();
    const err = await rejection(
      tasks.create('elicitation/create', 1000, () => Promise.reject(new ProtocolError(-32602, 'requestedSchema: must be an object'))),
    );
    assert.deepEqual([err.code, err.message], [-32602, 'requestedSchema: must be an object']);
    assert.equal(tasks.size, 0);
  });

  void it('tasks/get for an unknown id is -32602 with the reason', () => {
    const { tasks } = store();
    const err = (() => {
      try {
        tasks.get('nope');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    assert.ok(err instanceof ProtocolError);
    assert.equal(err.code, -32602);
    assert.match(err.message, /no task "nope"/);
  });

  void it('tasks/cancel closes the question and answers the cancelled task; a second cancel is -32602; tasks/result says cancelled', async () => {
    const { tasks } = store();
    const d = deferred();
    await tasks.create('elicitation/create', 60_000, d.run);
    const waiting = tasks.result('t1');
    const cancelled = tasks.cancel('t1');
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(d.signal().aborted, 'the question’s signal is aborted: its prompt closes');
    const err = await rejection(waiting);
    assert.equal(err.code, TASK_CANCELLED_CODE);
    assert.match(err.message, /cancelled/);
    assert.equal((await rejection(() => tasks.cancel('t1'))).code, -32602);
    // An answer that arrives after the cancel changes nothing.
    d.resolve(accept);
    await new Promise((r) => setImmediate(r));
    assert.equal(tasks.get('t1').status, 'cancelled');
  });

  void it('a task nobody answers ends at its ttl: the question closes, the task fails with the reason, and later it is removed', async () => {
    const { tasks, timers } = store();
    const d = deferred();
    await tasks.create('elicitation/create', 5_000, d.run);
    const waiting = tasks.result('t1');
    timers.fire(5_000);
    assert.ok(d.signal().aborted);
    const err = await rejection(waiting);
    assert.equal(err.code, -32603);
    assert.match(err.message, /no answer within the task's ttl of 5000 ms/);
    assert.equal(tasks.get('t1').status, 'failed');
    timers.fire(TASK_LIMITS.keepAfterTtlMs);
    assert.equal((await rejection(() => tasks.get('t1'))).code, -32602);
    assert.equal(tasks.size, 0);
  });

  void it('the ttl granted: the default when none is asked, and within the bounds otherwise', async () => {
    const { tasks } = store();
    const ttl = async (asked: number | undefined): Promise<number> =>
      (await tasks.create('elicitation/create', asked, () => new Promise(() => undefined))).task.ttl;
    assert.equal(await ttl(undefined), TASK_LIMITS.defaultTtlMs);
    assert.equal(await ttl(1), TASK_LIMITS.minTtlMs);
    assert.equal(await ttl(10 * 3_600_000), TASK_LIMITS.maxTtlMs);
    assert.equal(await ttl(90_000), 90_000);
  });

  void it('tasks/list pages through every task, oldest first; a cursor we never gave is -32602', async () => {
    const { tasks } = store(new ManualTimers(), { pageSize: 2 });
    for (let i = 0; i < 5; i++) await tasks.create('elicitation/create', 60_000, () => new Promise(() => undefined));
    const first = tasks.list(undefined);
    assert.deepEqual(
      first.tasks.map((t) => t.taskId),
      ['t1', 't2'],
    );
    const second = tasks.list(first.nextCursor);
    const third = tasks.list(second.nextCursor);
    assert.deepEqual(
      [...second.tasks, ...third.tasks].map((t) => t.taskId),
      ['t3', 't4', 't5'],
    );
    assert.equal(third.nextCursor, undefined);
    assert.equal((await rejection(() => tasks.list('bogus'))).code, -32602);
    assert.equal((await rejection(() => tasks.list('99'))).code, -32602);
  });

  void it('a flood of tasks is bounded: finished ones make room, and with every task open a new one is refused', async () => {
    const { tasks } = store(new ManualTimers(), { maxTasks: 2 });
    await tasks.create('elicitation/create', 60_000, () => Promise.resolve(accept));
    await tasks.create('elicitation/create', 60_000, () => new Promise(() => undefined));
    await tasks.create('elicitation/create', 60_000, () => new Promise(() => undefined));
    assert.deepEqual(
      tasks.list(undefined).tasks.map((t) => t.taskId),
      ['t2', 't3'],
      'the finished t1 made room',
    );
    const err = await rejection(tasks.create('elicitation/create', 60_000, () => new Promise(() => undefined)));
    assert.match(err.message, /too many open tasks/);
  });

  void it('a burst of tasks read in one go is bounded the same way: past the cap the rest are refused, and a refused one asks nobody', async () => {
    // A server's requests that arrive in one read from the pipe all reach `create` before any of
    // them is accepted (each waits a turn for an early -32602 first).
    const { tasks } = store(new ManualTimers(), { maxTasks: 2 });
    let asked = 0;
    const open = (): Promise<Result> => {
      asked++;
      return new Promise(() => undefined);
    };
    const burst = [1, 2, 3, 4].map(() =>
      tasks.create('elicitation/create', 60_000, open).then(
        () => 'task',
        (e: unknown) => (e instanceof ProtocolError && /too many open tasks/.test(e.message) ? 'refused' : String(e)),
      ),
    );
    assert.deepEqual(await Promise.all(burst), ['task', 'task', 'refused', 'refused']);
    assert.equal(tasks.size, 2);
    assert.equal(asked, 2, 'only the two tasks asked their question');
  });

  void it('dispose closes every open question and ends every waiting tasks/result', async () => {
    const { tasks } = store();
    const d = deferred();
    await tasks.create('elicitation/create', 60_000, d.run);
    const waiting = tasks.result('t1');
    tasks.dispose();
    assert.ok(d.signal().aborted);
    assert.equal((await rejection(waiting)).code, TASK_CANCELLED_CODE);
    assert.equal((await rejection(tasks.create('elicitation/create', 1, d.run))).code, -32603);
  });

  void it('a session loads the tasks runtime at its first task, not before; an ended session refuses one', async () => {
    let loads = 0;
    const load = (): typeof clientTasksModule => {
      loads++;
      return clientTasksModule;
    };
    const tasks = new SessionTasks({ newId: () => 'only' }, load);
    assert.deepEqual(await answerMaybeAsTask(tasks, 'elicitation/create', { message: 'x' }, () => Promise.resolve(accept)), accept);
    assert.equal(loads, 0, 'a request without `task` loads nothing');
    const created = (await answerMaybeAsTask(tasks, 'elicitation/create', { message: 'x', task: {} }, () => Promise.resolve(accept))) as {
      task: { taskId: string };
    };
    assert.equal(created.task.taskId, 'only');
    assert.equal(loads, 1);
    tasks.dispose();

    const ended = new SessionTasks({}, load);
    ended.dispose();
    const err = await rejection(answerMaybeAsTask(ended, 'elicitation/create', { task: {} }, () => Promise.resolve(accept)));
    assert.equal(err.code, -32603, 'the session has ended');
    assert.equal((await rejection(() => ended.current.get('t1'))).code, -32602);
  });

  void it('the task field: absent is an ordinary request; anything but { ttl?: number } is -32602', () => {
    assert.equal(taskParam({ message: 'x' }), undefined);
    assert.deepEqual(taskParam({ task: {} }), { ttl: undefined });
    assert.deepEqual(taskParam({ task: { ttl: 500 } }), { ttl: 500 });
    assert.throws(() => taskParam({ task: 'soon' }), /task: must be an object/);
    assert.throws(() => taskParam({ task: { ttl: -1 } }), /task\.ttl/);
  });
});

/** A sink that keeps each question's signal and lets the test answer it. */
class HeldSink implements ElicitationSink {
  readonly asked: { params: unknown; extra: HandleExtra; answer: (r: { action: 'accept'; content: Record<string, string> }) => void }[] =
    [];
  private heard: (() => void)[] = [];
  handle(_asker: unknown, params: unknown, extra: HandleExtra): ReturnType<ElicitationSink['handle']> {
    return new Promise((resolve) => {
      this.asked.push({ params, extra, answer: resolve });
      for (const h of this.heard.splice(0)) h();
      extra.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true });
    });
  }
  next(): Promise<void> {
    return new Promise((r) => this.heard.push(r));
  }
  complete(): void {}
  serverGone(): void {}
}

async function connected(): Promise<{ session: Session; launches: FakeLaunches; sink: HeldSink; sampler: RecordingSampler }> {
  const launches = new FakeLaunches();
  const sink = new HeldSink();
  const sampler = new RecordingSampler();
  const session = new Session(launches.create(stdioDef('one'), { stderr: () => undefined, warn: () => undefined }), {
    name: 'one',
    clientInfo: { name: 'test-host', version: '0.0.0' },
    sink,
    sampler,
    log: new MemoryLog(),
    protocolVersion: undefined,
  });
  await session.connect(5_000);
  return { session, launches, sink, sampler };
}

const form = { message: 'Your name?', requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } } };

void describe('Session: task-augmented requests from a real SDK server', () => {
  void it('declares tasks exactly as VS Code does', () => {
    assert.deepEqual(CLIENT_CAPABILITIES.tasks, {
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    });
    assert.equal(CLIENT_CAPABILITIES.tasks, TASKS_CAPABILITY);
  });

  void it('elicitation/create with task: the SDK server gets a task, polls it, and reads the user’s answer from tasks/result', async () => {
    const { session, launches, sink } = await connected();
    const server = launches.last.server;
    assert.ok(server);
    const asked = sink.next();
    const stream = server.server.experimental.tasks.elicitInputStream({ mode: 'form', ...form }, { task: { ttl: 60_000 } });
    const seen: string[] = [];
    let final: unknown;
    const reading = (async () => {
      for await (const m of stream) {
        seen.push(m.type === 'taskStatus' ? `status ${m.task.status}` : m.type);
        if (m.type === 'result') final = m.result;
        if (m.type === 'error') final = m.error;
      }
    })();
    await asked;
    const question = sink.asked[0];
    assert.ok(question);
    assert.equal((question.params as { task?: unknown }).task, undefined, 'the broker sees the question without the task field');
    assert.equal((question.params as { message?: unknown }).message, 'Your name?');
    question.answer({ action: 'accept', content: { name: 'Ada' } });
    await reading;
    assert.equal(seen[0], 'taskCreated');
    assert.equal(seen.at(-1), 'result');
    assert.ok(seen.includes('status completed'));
    assert.deepEqual(
      { ...(final as Record<string, unknown>), _meta: undefined },
      { action: 'accept', content: { name: 'Ada' }, _meta: undefined },
    );
    const listed = await server.server.experimental.tasks.listTasks();
    assert.equal(listed.tasks.length, 1);
    assert.equal(listed.tasks[0]?.status, 'completed');
    await session.dispose();
  });

  void it('sampling/createMessage with task reaches the sampler and its reply comes back through tasks/result', async () => {
    const { session, launches, sampler } = await connected();
    const server = launches.last.server;
    assert.ok(server);
    const results: unknown[] = [];
    for await (const m of server.server.experimental.tasks.createMessageStream(
      { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 },
      { task: { ttl: 60_000 } },
    )) {
      if (m.type === 'result' || m.type === 'error') results.push(m.type === 'result' ? m.result : m.error);
    }
    assert.equal(sampler.asked.length, 1);
    assert.equal((sampler.asked[0]?.params as { task?: unknown }).task, undefined);
    assert.deepEqual((results[0] as { content: unknown }).content, { type: 'text', text: 'sampled' });
    await session.dispose();
  });

  void it('tasks/cancel from the server closes the open question; tasks/get of an unknown id is -32602 and the session stays', async () => {
    const { session, launches, sink } = await connected();
    const server = launches.last.server;
    assert.ok(server);
    const asked = sink.next();
    const created = (await server.server.request(
      { method: 'elicitation/create', params: { mode: 'form', ...form, task: { ttl: 60_000 } } },
      (await import('@modelcontextprotocol/sdk/types.js')).CreateTaskResultSchema,
    )) as { task: { taskId: string; status: string } };
    assert.equal(created.task.status, 'working');
    await asked;
    const cancelled = await server.server.experimental.tasks.cancelTask(created.task.taskId);
    assert.equal(cancelled.status, 'cancelled');
    assert.ok(sink.asked[0]?.extra.signal.aborted, 'the question was closed');
    const err = await server.server.experimental.tasks.getTask('no-such-task').then(
      () => assert.fail('expected -32602'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof McpError);
    assert.equal(err.code, -32602);
    assert.match(err.message, /no task "no-such-task"/);
    assert.equal(session.isDisposed, false);
    const after = await server.server.experimental.tasks.getTask(created.task.taskId);
    assert.equal(after.status, 'cancelled');
    await session.dispose();
  });
  void it('tasks/update from the server (keys we never asked): -32602 naming them, for a live task and an unknown id; the task goes on and its answer still arrives', async () => {
    const { session, launches, sink } = await connected();
    const server = launches.last.server;
    assert.ok(server);
    const types = await import('@modelcontextprotocol/sdk/types.js');
    const asked = sink.next();
    const created = (await server.server.request(
      { method: 'elicitation/create', params: { mode: 'form', ...form, task: { ttl: 60_000 } } },
      types.CreateTaskResultSchema,
    )) as { task: { taskId: string } };
    await asked;
    const update = (params: Record<string, unknown>): Promise<unknown> =>
      server.server.request({ method: 'tasks/update', params }, types.EmptyResultSchema).then(
        () => assert.fail('expected an error'),
        (e: unknown) => e,
      );
    const never = await update({ taskId: created.task.taskId, inputResponses: { color: { action: 'accept', content: { c: 'red' } } } });
    assert.ok(never instanceof McpError);
    assert.equal(never.code, -32602);
    assert.match(never.message, new RegExp(`task "${created.task.taskId}" never asked for input, so "color" was never asked`));
    const unknown = await update({ taskId: 'no-such-task', inputResponses: {} });
    assert.ok(unknown instanceof McpError);
    assert.equal(unknown.code, -32602);
    assert.match(unknown.message, /no task "no-such-task"/);
    const malformed = await update({ taskId: created.task.taskId, inputResponses: [] });
    assert.ok(malformed instanceof McpError);
    assert.equal(malformed.code, -32602);
    assert.equal(sink.asked.length, 1, 'nothing else was asked');
    assert.equal(sink.asked[0]?.extra.signal.aborted, false, 'the question is still open');
    sink.asked[0]?.answer({ action: 'accept', content: { name: 'Ada' } });
    const result = (await server.server.experimental.tasks.getTaskResult(created.task.taskId, types.ElicitResultSchema)) as {
      action: string;
    };
    assert.equal(result.action, 'accept');
    await session.dispose();
  });
});
