/**
 * Following a task of the 2026-07-28 tasks extension (mrtr/taskFollow.ts) in plain Node: a
 * scripted server answers each tasks/get from a list, the clock is the test's, and pauses pass
 * simulated time at once.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CallCancelledError, UndeclaredInputError } from '../../src/servers/mrtr/errors';
import {
  followTask,
  TaskEndedError,
  TaskExpiredError,
  type FollowOptions,
  type TaskSlot,
  type TaskState,
} from '../../src/servers/mrtr/taskFollow';
import type { SetTimer } from '../../src/servers/legDeadline';
import { ManualTimers } from './support/fakeLaunches';

const form = (message: string): unknown => ({ method: 'elicitation/create', params: { message, requestedSchema: { type: 'object' } } });

/**
 * A question that stays on screen until it is closed, as a user who has not answered yet: `asked`
 * resolves when it is shown, `signal()` is the signal it was shown with (aborted when it closes).
 */
function heldQuestion() {
  let signal: AbortSignal | undefined;
  let shown: () => void = () => undefined;
  const asked = new Promise<void>((resolve) => (shown = resolve));
  const fulfil = (_slot: TaskSlot, _request: unknown, s?: AbortSignal): Promise<{ action: 'cancel' }> => {
    signal = s;
    shown();
    return new Promise((resolve) => s?.addEventListener('abort', () => resolve({ action: 'cancel' })));
  };
  return { asked, fulfil, signal: () => signal };
}

/**
 * A task whose polls answer from `polls`, recording what is asked, updated and cancelled. Each
 * input request is accepted at once, unless `fulfil` asks it another way; `setTimer` is the timer
 * an open question runs on (its polls and the ttl), for a test to fire.
 */
function scripted(polls: Partial<TaskState>[], o: { signal?: AbortSignal; fulfil?: FollowOptions['fulfil']; setTimer?: SetTimer } = {}) {
  let now = 1_000_000;
  const asked: TaskSlot[] = [];
  const updates: Record<string, unknown>[] = [];
  const cancels: string[] = [];
  const run = (handle: Partial<TaskState>): Promise<unknown> =>
    followTask(
      { taskId: 't', status: 'working', ...handle },
      {
        server: 's',
        label: 'tool',
        signal: o.signal ?? new AbortController().signal,
        requests: {
          get: () => {
            const next = polls.shift();
            if (!next) throw new Error('polled past the script');
            return Promise.resolve({ taskId: 't', ...next });
          },
          update: (_id, responses) => {
            updates.push(responses);
            return Promise.resolve({});
          },
          cancel: (id) => {
            cancels.push(id);
            return Promise.resolve({});
          },
        },
        declared: (m) => m === 'elicitation/create',
        fulfil:
          o.fulfil ??
          ((slot) => {
            asked.push(slot);
            return Promise.resolve({ action: 'accept', content: { answer: slot.key } });
          }),
        pause: (ms) => {
          now += ms;
          return Promise.resolve();
        },
        now: () => now,
        ...(o.setTimer ? { setTimer: o.setTimer } : {}),
      },
    );
  return { run, asked, updates, cancels, at: () => now };
}

void describe('followTask (tasks extension, 2026-07-28)', () => {
  void it('asks each key once though later polls list it again, sends only the keys just answered, and ends with the result', async () => {
    const t = scripted([
      { status: 'input_required', inputRequests: { name: form('name?') } },
      { status: 'input_required', inputRequests: { name: form('name?'), city: form('city?') } },
      { status: 'input_required', inputRequests: { city: form('city?') } },
      { status: 'working' },
      { status: 'completed', result: { content: [{ type: 'text', text: 'done' }] } },
    ]);
    const result = await t.run({ ttlMs: 60_000, pollIntervalMs: 10 });
    assert.deepEqual(result, { content: [{ type: 'text', text: 'done' }] });
    assert.deepEqual(
      t.asked.map((a) => a.key),
      ['name', 'city'],
    );
    assert.deepEqual(
      t.updates.map((u) => Object.keys(u)),
      [['name'], ['city']],
    );
    assert.deepEqual(t.cancels, []);
  });

  void it('a task that is still working at its ttl is cancelled and the call fails with the ttl', async () => {
    const t = scripted(Array.from({ length: 100 }, () => ({ status: 'working' })));
    await assert.rejects(t.run({ ttlMs: 1_500, pollIntervalMs: 200 }), (e: unknown) => e instanceof TaskExpiredError && e.ttlMs === 1_500);
    assert.deepEqual(t.cancels, ['t']);
    assert.ok(t.at() - 1_000_000 <= 1_500, 'no poll after the ttl');
  });

  void it('failed and cancelled tasks end the call with their reason, and are not cancelled again', async () => {
    const failed = scripted([{ status: 'failed', error: { code: -32603, message: 'disk full' } }]);
    await assert.rejects(
      failed.run({}),
      (e: unknown) => e instanceof TaskEndedError && e.outcome === 'failed' && /disk full/.test(e.message),
    );
    const cancelled = scripted([{ status: 'cancelled', statusMessage: 'shutting down' }]);
    await assert.rejects(cancelled.run({}), (e: unknown) => e instanceof TaskEndedError && e.outcome === 'cancelled');
    assert.deepEqual([...failed.cancels, ...cancelled.cancels], []);
  });

  void it('an input request of a kind we do not offer ends the call before anything is shown; the task is cancelled', async () => {
    const t = scripted([{ status: 'input_required', inputRequests: { a: { method: 'roots/list' } } }]);
    await assert.rejects(t.run({}), UndeclaredInputError);
    assert.deepEqual(t.asked, []);
    assert.deepEqual(t.cancels, ['t']);
  });

  void it('the caller’s Cancel stops following and cancels the task', async () => {
    const ac = new AbortController();
    ac.abort();
    const t = scripted([{ status: 'working' }], { signal: ac.signal });
    await assert.rejects(t.run({}), CallCancelledError);
    assert.deepEqual(t.cancels, ['t']);
  });

  void it('a tasks/get answer about another task, or with an unknown status, is refused as malformed', async () => {
    const other = scripted([{ taskId: 'u', status: 'working' }]);
    await assert.rejects(other.run({}), (e: unknown) => e instanceof TaskEndedError && e.outcome === 'malformed');
    const odd = scripted([{ status: 'sleeping' }]);
    await assert.rejects(odd.run({}), /unknown task status "sleeping"/);
  });

  void it('a question still open when the task’s ttl runs out closes then: the call fails with the ttl, the task is cancelled, nothing is sent for it', async () => {
    // The user does not answer: the question only ends when its signal does.
    const question = heldQuestion();
    const timers = new ManualTimers();
    // No poll is expected before the ttl: the script is empty.
    const t = scripted([], { fulfil: question.fulfil, setTimer: timers.set });
    const following = t.run({ status: 'input_required', ttlMs: 60_000, inputRequests: { name: form('name?') } });
    await question.asked;
    timers.fire(60_000);
    await assert.rejects(following, (e: unknown) => e instanceof TaskExpiredError && e.ttlMs === 60_000);
    assert.equal(question.signal()?.aborted, true, 'the question closed');
    assert.deepEqual(t.updates, [], 'no tasks/update for a task past its ttl');
    assert.deepEqual(t.cancels, ['t']);
  });

  void it('a task the server ends while its question is open closes the question: cancelled or failed, the call ends with that reason; completed, with the result; nothing is sent for it', async () => {
    const ended: Partial<TaskState>[] = [
      { status: 'cancelled', statusMessage: 'the server gave up' },
      { status: 'failed', error: { code: -32603, message: 'disk full' } },
      { status: 'completed', result: { content: [{ type: 'text', text: 'done without you' }] } },
    ];
    const outcomes: string[] = [];
    for (const end of ended) {
      const question = heldQuestion();
      const timers = new ManualTimers();
      const t = scripted([{ status: 'input_required', inputRequests: { name: form('name?') } }, end], {
        fulfil: question.fulfil,
        setTimer: timers.set,
      });
      const following = t.run({ status: 'input_required', ttlMs: 60_000, pollIntervalMs: 200, inputRequests: { name: form('name?') } });
      await question.asked;
      // The server still waits for the answer at the first poll, and has ended the task at the second.
      timers.fire(200);
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(question.signal()?.aborted, false, `${String(end.status)}: still open while the task waits for it`);
      timers.fire(200);
      outcomes.push(
        await following.then(
          (r) => `result ${JSON.stringify(r)}`,
          (e: unknown) => (e instanceof TaskEndedError ? `${e.outcome}: ${e.reason}` : String(e)),
        ),
      );
      assert.equal(question.signal()?.aborted, true, `${String(end.status)}: the question closed`);
      assert.deepEqual(
        [...t.updates, ...t.cancels],
        [],
        `${String(end.status)}: neither tasks/update nor tasks/cancel for a task that ended`,
      );
    }
    assert.deepEqual(outcomes, [
      'cancelled: the server gave up',
      'failed: disk full',
      'result {"content":[{"type":"text","text":"done without you"}]}',
    ]);
  });
});
