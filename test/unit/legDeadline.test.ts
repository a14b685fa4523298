/**
 * A question may stay open as long as the user needs: a leg's timeout stands still while a
 * question its server raised is open, and starts again in full once none is. First the deadline
 * alone on simulated time, then a real SDK server's tool call through a Connection and the real
 * broker, whose form stays open for 20 simulated minutes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SdkError, SdkErrorCode, type CallToolResult } from '@modelcontextprotocol/client';
import { LegDeadline, type OpenQuestions } from '../../src/servers/legDeadline';
import { Connection } from '../../src/servers/connection';
import { CALL_TIMEOUT_MS } from '../../src/servers/sessionRequests';
import { ElicitationBroker } from '../../src/elicitation/broker';
import { Emitter } from '../../src/util/emitter';
import { ManualClock } from '../host/manualClock';
import { FakePresenter } from './support/fakePresenter';
import { FakeLaunches, MemoryLog, RecordingSampler, stdioDef } from './support/fakeLaunches';

const MINUTE = 60_000;

/** Questions opened and closed by hand, per server. */
class Questions implements OpenQuestions {
  private readonly open = new Map<string, number>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  hasOpen(server: string): boolean {
    return (this.open.get(server) ?? 0) > 0;
  }
  ask(server: string): () => void {
    this.open.set(server, (this.open.get(server) ?? 0) + 1);
    this.changed.fire();
    return () => {
      this.open.set(server, (this.open.get(server) ?? 0) - 1);
      this.changed.fire();
    };
  }
}

function timedOut(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason instanceof SdkError && signal.reason.code === SdkErrorCode.RequestTimeout;
}

void describe('LegDeadline: no leg times out while a question it raised is open', () => {
  void it('with no question open, the leg times out as before; progress gives it the full time again', () => {
    const clock = new ManualClock();
    const d = new LegDeadline('s', 10 * MINUTE, { setTimer: clock.setTimer, questions: new Questions() });
    clock.advance(9 * MINUTE);
    d.extend();
    clock.advance(9 * MINUTE);
    assert.equal(d.signal.aborted, false, 'progress at 9 minutes moved the deadline to 19');
    clock.advance(MINUTE);
    assert.ok(timedOut(d.signal), 'the SDK timeout error, as the SDK timer would have raised');
    assert.equal(clock.waiting, 0);
  });

  void it('an open question stops the clock for 20 minutes and more; answered, the full timeout starts again', () => {
    const clock = new ManualClock();
    const questions = new Questions();
    const d = new LegDeadline('s', 10 * MINUTE, { setTimer: clock.setTimer, questions });
    clock.advance(9 * MINUTE);
    const answer = questions.ask('s');
    assert.ok(d.suspended);
    clock.advance(20 * MINUTE);
    d.extend();
    assert.equal(d.signal.aborted, false, 'still waiting on the user');
    answer();
    assert.equal(d.suspended, false);
    clock.advance(10 * MINUTE - 1);
    assert.equal(d.signal.aborted, false, 'the full timeout again, not the minute that was left');
    clock.advance(1);
    assert.ok(timedOut(d.signal));
  });

  void it("another server's question does not stop this leg's clock", () => {
    const clock = new ManualClock();
    const questions = new Questions();
    const d = new LegDeadline('mine', MINUTE, { setTimer: clock.setTimer, questions });
    questions.ask('other');
    clock.advance(MINUTE);
    assert.ok(timedOut(d.signal));
  });

  void it('a leg that starts while its server has a question open waits for it to close; dispose leaves nothing behind', () => {
    const clock = new ManualClock();
    const questions = new Questions();
    const answer = questions.ask('s');
    const d = new LegDeadline('s', MINUTE, { setTimer: clock.setTimer, questions });
    assert.equal(clock.waiting, 0);
    clock.advance(60 * MINUTE);
    answer();
    assert.equal(clock.waiting, 1);
    d.dispose();
    assert.equal(clock.waiting, 0, 'the timer went with the leg');
    questions.ask('s')();
    assert.equal(clock.waiting, 0, 'and so did its watch on the questions');
    assert.equal(d.signal.aborted, false);
  });
});

void describe('A tool call whose form stays open 20 simulated minutes (2025 server, real broker)', () => {
  function harness(): { conn: Connection; clock: ManualClock; broker: ElicitationBroker; presenter: FakePresenter } {
    const clock = new ManualClock();
    // No script: each form waits until the test answers it.
    const presenter = new FakePresenter();
    const broker = new ElicitationBroker({
      presenter,
      gate: () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
      settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: false, urlExpiryMs: 0 }),
      log: { info: () => undefined, warn: () => undefined },
    });
    const conn = new Connection(stdioDef(), {
      log: new MemoryLog(),
      clientInfo: { name: 'test-host', version: '0.0.0' },
      sink: broker,
      sampler: new RecordingSampler(),
      onGaveUp: () => undefined,
      createTransport: new FakeLaunches().create,
      legClock: { setTimer: clock.setTimer, questions: broker.queue },
    });
    return { conn, clock, broker, presenter };
  }
  /** Lets the in-memory messages flow until `ready` holds (bounded: a broken build fails, it does not hang). */
  async function until(ready: () => boolean, what: string): Promise<void> {
    for (let i = 0; !ready(); i++) {
      if (i > 10_000) throw new Error(`never happened: ${what}`);
      await new Promise((r) => setImmediate(r));
    }
  }
  const text = (r: unknown): string => {
    const first = (r as CallToolResult).content[0];
    return first?.type === 'text' ? first.text : '';
  };

  void it('answered after 20 minutes on screen and 20 set aside, the tool result arrives with the answer', async () => {
    const { conn, clock, broker, presenter } = harness();
    await conn.start();
    const call = conn.sendLeg('tools/call', { name: 'ask', arguments: {} }, {}, 'ask');
    await until(() => presenter.forms.length === 1, 'the form shown');
    const form = presenter.forms[0];
    assert.equal(clock.waiting, 0, "the call's timeout stands still while its form is open");
    clock.advance(20 * MINUTE);
    form?.control?.setAside(true);
    assert.equal(broker.queue.list()[0]?.state, 'aside');
    clock.advance(20 * MINUTE);
    form?.answer({ action: 'accept', content: { name: 'Ada' } });
    assert.deepEqual(JSON.parse(text(await call)), { action: 'accept', content: { name: 'Ada' } });
    conn.dispose();
  });

  void it('a call with no question open still times out after its time', async () => {
    const { conn, clock } = harness();
    await conn.start();
    const failed = assert.rejects(
      conn.sendLeg('tools/call', { name: 'hold', arguments: {} }, {}, 'hold'),
      (err: unknown) => err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout,
    );
    await until(() => clock.waiting === 1, "the call's timer armed");
    clock.advance(CALL_TIMEOUT_MS);
    await failed;
    conn.dispose();
  });
});
