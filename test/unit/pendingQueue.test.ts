import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { History, PendingQueue, type NewPendingEntry } from '../../src/elicitation/queue/pendingQueue';
import type { DecidedBy, ElicitationAction } from '../../src/elicitation/outcome';
import { ElicitationBroker } from '../../src/elicitation/broker';
import type { Presenter } from '../../src/elicitation/presenter';
import { FakePresenter } from './support/fakePresenter';
import { askerFor } from '../../src/elicitation/asker';

let seq = 0;
function entry(server: string, extra: Partial<NewPendingEntry<string>> = {}): NewPendingEntry<string> {
  seq++;
  return {
    id: `e${seq}`,
    asker: askerFor(server, undefined),
    mode: 'form',
    message: `m${seq}`,
    createdAt: seq,
    payload: `p${seq}`,
    ...extra,
  };
}

function ids(entries: ReadonlyArray<{ id: string }>): string[] {
  return entries.map((e) => e.id);
}

void describe('PendingQueue', () => {
  void it('enqueues in the queued state and lists in arrival order', () => {
    const q = new PendingQueue<string>();
    const a = q.enqueue(entry('a', { id: 'a1' }));
    q.enqueue(entry('b', { id: 'b1' }));
    q.enqueue(entry('a', { id: 'a2', mode: 'url', elicitationId: 'el-1' }));
    assert.equal(a.state, 'queued');
    assert.equal(q.size, 3);
    assert.deepEqual(ids(q.list()), ['a1', 'b1', 'a2']);
    assert.equal(q.get('a2')?.elicitationId, 'el-1');
  });

  void it('refuses a duplicate id', () => {
    const q = new PendingQueue<string>();
    q.enqueue(entry('a', { id: 'x' }));
    assert.throws(() => q.enqueue(entry('b', { id: 'x' })), /already queued/);
  });

  void it('shows one at a time, FIFO across servers', () => {
    const q = new PendingQueue<string>();
    for (const [id, server] of [
      ['a1', 'a'],
      ['b1', 'b'],
      ['a2', 'a'],
      ['c1', 'c'],
    ] as const) {
      q.enqueue(entry(server, { id }));
    }
    const shown: string[] = [];
    for (let first = q.next(); first; first = q.next()) {
      assert.equal(first.state, 'onScreen');
      assert.equal(q.current()?.id, first.id);
      assert.equal(q.next(), undefined, 'nothing else goes on screen meanwhile');
      shown.push(first.id);
      assert.equal(q.finish(first.id)?.id, first.id);
    }
    assert.deepEqual(shown, ['a1', 'b1', 'a2', 'c1']);
    assert.equal(q.size, 0);
    assert.equal(q.current(), undefined);
  });

  void it('frees the screen when a url request awaits completion, and finds it by elicitationId', () => {
    const q = new PendingQueue<string>();
    q.enqueue(entry('s', { id: 'u', mode: 'url' }));
    q.enqueue(entry('s', { id: 'f' }));
    q.next();
    const waiting = q.markAwaitingCompletion('u', 'el-9');
    assert.deepEqual([waiting?.state, waiting?.elicitationId], ['awaitingCompletion', 'el-9']);
    assert.equal(q.current(), undefined);
    assert.equal(q.next()?.id, 'f');
    assert.equal(q.findByElicitationId('s', 'el-9')?.id, 'u');
    assert.equal(q.findByElicitationId('other', 'el-9'), undefined, 'elicitation ids are per server');
    assert.equal(q.markAwaitingCompletion('missing', 'x'), undefined);
    assert.deepEqual(ids(q.list()), ['u', 'f'], 'a state change keeps arrival order');
  });

  void it('an asking entry is listed and counted but takes no turn until admitted', () => {
    const q = new PendingQueue<string>();
    q.enqueue(entry('a', { id: 'ask', state: 'asking' }));
    q.enqueue(entry('b', { id: 'b1' }));
    assert.equal(q.size, 2);
    assert.equal(q.get('ask')?.state, 'asking');
    assert.equal(q.next()?.id, 'b1', 'the asking one is passed over');
    q.finish('b1');
    assert.equal(q.next(), undefined);
    assert.equal(q.admit('ask')?.state, 'queued');
    assert.equal(q.admit('ask'), undefined, 'only an asking entry is admitted');
    assert.equal(q.next()?.id, 'ask');
  });

  void it('an entry set aside keeps the turn: nothing else is shown until it is back on screen and done', () => {
    const q = new PendingQueue<string>();
    q.enqueue(entry('a', { id: 'a1' }));
    q.enqueue(entry('b', { id: 'b1' }));
    assert.equal(q.setAside('a1', true), undefined, 'a queued entry cannot be set aside');
    q.next();
    assert.equal(q.setAside('a1', true)?.state, 'aside');
    assert.equal(q.current()?.id, 'a1');
    assert.equal(q.next(), undefined, 'no prompt pops up over what the user opened instead');
    assert.equal(q.setAside('a1', false)?.state, 'onScreen');
    q.finish('a1');
    assert.equal(q.next()?.id, 'b1');
  });

  void it('removes by id and by predicate, returning what went', () => {
    const q = new PendingQueue<string>();
    for (const [id, server] of [
      ['a1', 'a'],
      ['b1', 'b'],
      ['a2', 'a'],
      ['b2', 'b'],
    ] as const) {
      q.enqueue(entry(server, { id }));
    }
    q.next();
    assert.equal(q.remove('nope'), undefined);
    assert.equal(q.remove('b2')?.id, 'b2');
    const removed = q.removeWhere((e) => e.asker.name === 'a');
    assert.deepEqual(ids(removed), ['a1', 'a2']);
    assert.equal(removed[0]?.state, 'onScreen', 'the on-screen entry can be removed too');
    assert.equal(q.current(), undefined);
    assert.equal(q.next()?.id, 'b1');
    assert.deepEqual(
      q.removeWhere(() => false),
      [],
    );
  });

  void it('notifies listeners once per change and stops after unsubscribe', () => {
    const q = new PendingQueue<string>();
    let calls = 0;
    const sub = q.onDidChange(() => calls++);
    q.enqueue(entry('a', { id: '1' }));
    q.enqueue(entry('b', { id: '2' }));
    q.next();
    q.removeWhere(() => true);
    assert.equal(calls, 4);
    q.removeWhere(() => true);
    q.remove('1');
    assert.equal(calls, 4, 'no event when nothing changed');
    sub.dispose();
    q.enqueue(entry('a'));
    assert.equal(calls, 4);
  });

  void it('runs every listener even if one throws, and reports the error without failing the change', () => {
    const errors: unknown[] = [];
    const q = new PendingQueue<string>((err) => errors.push(err));
    let reached = false;
    q.onDidChange(() => {
      throw new Error('boom');
    });
    q.onDidChange(() => (reached = true));
    q.enqueue(entry('a'));
    assert.ok(reached);
    assert.equal(q.size, 1);
    assert.match(String(errors[0]), /boom/);
  });
});

void describe('History', () => {
  interface HistoryEntry {
    readonly server: string;
    readonly message: string;
    readonly action: ElicitationAction;
    readonly time: number;
    readonly decidedBy: DecidedBy;
  }
  const item = (i: number): HistoryEntry => ({ server: 's', message: `m${i}`, action: 'accept', time: i, decidedBy: 'user' });

  void it('keeps the last 50 by default, oldest first', () => {
    const h = new History<HistoryEntry>();
    for (let i = 0; i < 120; i++) h.push(item(i));
    assert.equal(h.size, 50);
    assert.equal(h.capacity, 50);
    const times = h.list().map((e) => e.time);
    assert.deepEqual(
      times,
      Array.from({ length: 50 }, (_, i) => 70 + i),
    );
  });

  void it('works below capacity, with a custom capacity, and clears', () => {
    const h = new History<number>(3);
    let changes = 0;
    h.onDidChange(() => changes++);
    h.push(1);
    h.push(2);
    assert.deepEqual(h.list(), [1, 2]);
    h.push(3);
    h.push(4);
    assert.deepEqual(h.list(), [2, 3, 4]);
    h.clear();
    assert.deepEqual(h.list(), []);
    h.push(5);
    assert.deepEqual(h.list(), [5]);
    assert.equal(changes, 6);
  });

  void it('records every way an elicitation can end', () => {
    const h = new History<HistoryEntry>();
    for (const decidedBy of ['user', 'policy', 'rateLimit', 'serverCancel', 'timeout', 'disconnect'] as const) {
      h.push({ ...item(0), decidedBy, action: decidedBy === 'user' ? 'accept' : 'cancel' });
    }
    assert.equal(h.size, 6);
  });

  void it('rejects a capacity that is not a positive integer', () => {
    assert.throws(() => new History(0), RangeError);
    assert.throws(() => new History(2.5), RangeError);
  });
});

/** The servers the user was told withdrew their prompt. */
const withdrawn = (ui: FakePresenter): string[] => ui.notices.filter((n) => n.kind === 'serverCancelled').map((n) => n.server);

function brokerWith(presenter: Presenter, outcome: 'show' | 'ask'): ElicitationBroker {
  return new ElicitationBroker({
    presenter,
    gate: () => ({ outcome, decidedBy: 'user', policy: outcome === 'ask' ? 'ask' : 'allow' }),
    settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: false, urlExpiryMs: 0 }),
    log: { info: () => undefined, warn: () => undefined },
  });
}

const fixture = askerFor('fixture', undefined);
const params = (message: string): Record<string, unknown> => ({
  message,
  requestedSchema: { type: 'object', properties: { a: { type: 'string' } } },
});
const wire = (): { signal: AbortSignal; requestId: string } => ({ signal: new AbortController().signal, requestId: 'r' });
const until = async (p: () => boolean): Promise<void> => {
  for (let i = 0; !p(); i++) {
    if (i > 100) assert.fail('condition never held');
    await new Promise((r) => setImmediate(r));
  }
};

void describe('broker and queue: the ask notification and questions set aside', () => {
  void it('a request waiting on the ask notification is pending (asking), then queued in order once answered', async () => {
    const ui = new FakePresenter();
    const b = brokerWith(ui, 'ask');
    const reply = b.handle(fixture, params('May I?'), wire());
    await until(() => ui.asks.length === 1);
    assert.deepEqual(
      b.queue.list().map((e) => [e.message, e.state]),
      [['May I?', 'asking']],
    );
    assert.equal(b.queue.size, 1, 'counted (the status bar shows queue.size)');
    assert.equal(ui.asks[0]?.prompt.id, b.queue.list()[0]?.id, 'the notification knows its list entry');
    ui.asks[0]?.answer('answer');
    await until(() => ui.forms.length === 1);
    assert.equal(b.queue.list()[0]?.state, 'onScreen');
    ui.forms[0]?.answer({ action: 'accept', content: { a: 'yes' } });
    assert.deepEqual(await reply, { action: 'accept', content: { a: 'yes' } });
    assert.equal(b.queue.size, 0);
  });

  void it('settled from the pending list while asking: the notification is withdrawn and the server gets that answer', async () => {
    const ui = new FakePresenter();
    const b = brokerWith(ui, 'ask');
    const reply = b.handle(fixture, params('May I?'), wire());
    await until(() => ui.asks.length === 1);
    const id = b.queue.list()[0]?.id ?? '';
    assert.ok(b.queue.settle(id, 'decline'));
    assert.equal(ui.asks[0]?.signal.aborted, true);
    assert.deepEqual(await reply, { action: 'decline' });
    assert.equal(ui.forms.length, 0, 'nothing was shown');
    assert.deepEqual([b.queue.history.list().at(-1)?.action, b.queue.history.list().at(-1)?.decidedBy], ['decline', 'user']);
    assert.equal(b.queue.size, 0);
  });

  void it('a blocked server declines requests still asking, recorded as the policy', async () => {
    const ui = new FakePresenter();
    const b = brokerWith(ui, 'ask');
    const reply = b.handle(fixture, params('May I?'), wire());
    await until(() => ui.asks.length === 1);
    b.declineQueuedFromBlocked((s) => s === 'fixture');
    assert.deepEqual(await reply, { action: 'decline' });
    assert.equal(b.queue.history.list().at(-1)?.decidedBy, 'policy');
  });

  void it('a question set aside stays pending with its turn; once back on screen it is answered, then the next one shows', async () => {
    const ui = new FakePresenter();
    const b = brokerWith(ui, 'show');
    const first = b.handle(fixture, params('first'), wire());
    const second = b.handle(fixture, params('second'), wire());
    await until(() => ui.forms.length === 1);
    ui.forms[0]?.control?.setAside(true);
    assert.deepEqual(
      b.queue.list().map((e) => [e.message, e.state]),
      [
        ['first', 'aside'],
        ['second', 'queued'],
      ],
    );
    await new Promise((r) => setImmediate(r));
    assert.equal(ui.forms.length, 1, 'the next question does not take over');
    ui.forms[0]?.control?.setAside(false);
    assert.equal(b.queue.list()[0]?.state, 'onScreen');
    ui.forms[0]?.answer({ action: 'accept', content: { a: 'one' } });
    assert.deepEqual(await first, { action: 'accept', content: { a: 'one' } });
    await until(() => ui.forms.length === 2);
    ui.forms[1]?.answer({ action: 'cancel' });
    assert.deepEqual(await second, { action: 'cancel' });
  });

  void it('a question set aside can be cancelled from the list, and the server withdrawing it closes it', async () => {
    const ui = new FakePresenter();
    const b = brokerWith(ui, 'show');
    const first = b.handle(fixture, params('first'), wire());
    await until(() => ui.forms.length === 1);
    ui.forms[0]?.control?.setAside(true);
    b.queue.settle(b.queue.list()[0]?.id ?? '', 'cancel');
    assert.deepEqual(await first, { action: 'cancel' });
    const server = new AbortController();
    const second = b.handle(fixture, params('second'), { signal: server.signal, requestId: 'r2' });
    await until(() => ui.forms.length === 2);
    ui.forms[1]?.control?.setAside(true);
    server.abort();
    assert.deepEqual(await second, { action: 'cancel' });
    assert.equal(b.queue.history.list().at(-1)?.decidedBy, 'serverCancel');
    assert.equal(b.queue.size, 0);
  });

  void it('the user is told when the server withdraws the prompt on screen, not when the user cancels it from the list', async () => {
    const ui = new FakePresenter();
    const b = brokerWith(ui, 'show');
    const mine = b.handle(fixture, params('mine'), wire());
    await until(() => ui.forms.length === 1);
    b.queue.settle(b.queue.list()[0]?.id ?? '', 'cancel');
    assert.deepEqual(await mine, { action: 'cancel' });
    assert.deepEqual(withdrawn(ui), []);
    const server = new AbortController();
    const theirs = b.handle(fixture, params('theirs'), { signal: server.signal, requestId: 'r2' });
    await until(() => ui.forms.length === 2);
    server.abort();
    assert.deepEqual(await theirs, { action: 'cancel' });
    assert.deepEqual(withdrawn(ui), ['fixture']);
  });

  void it('a form without fields reaches the presenter as a confirmation and accepts with {}', async () => {
    const ui = new FakePresenter();
    const b = brokerWith(ui, 'show');
    const reply = b.handle(fixture, { message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } }, wire());
    await until(() => ui.forms.length === 1);
    assert.deepEqual(ui.forms[0]?.prompt.form.fields, []);
    ui.forms[0]?.answer({ action: 'accept', content: {} });
    assert.deepEqual(await reply, { action: 'accept', content: {} });
  });
});

void describe('broker: what became of "Open in Browser" is recorded', () => {
  const url = (id: string): Record<string, unknown> => ({
    mode: 'url',
    message: 'Sign in',
    url: 'https://auth.example.com/x',
    elicitationId: id,
  });
  for (const [answer, sent, browser] of [
    [{ action: 'accept', browser: 'opened' }, 'accept', 'opened'],
    [{ action: 'cancel', browser: 'notOpened' }, 'cancel', 'notOpened'],
    [{ action: 'accept', browser: 'notOpened' }, 'accept', 'notOpened'],
    [{ action: 'accept' }, 'accept', undefined],
  ] as const) {
    void it(`${JSON.stringify(answer)}: the server gets ${sent}, the history keeps browser ${String(browser)}`, async () => {
      const ui = new FakePresenter();
      ui.answerUrl = () => answer;
      const b = brokerWith(ui, 'show');
      assert.deepEqual(await b.handle(fixture, url('u1'), wire()), { action: sent });
      const [h] = b.queue.history.list();
      assert.equal(h?.action, sent);
      assert.equal(h?.browser, browser);
    });
  }
});

void describe('queue: the request signal listener goes with the request', () => {
  // One signal for many requests: a 2026-07-28 call's signal spans its rounds, and an API caller
  // may hand the same signal to every request it makes.
  void it('answered requests leave no abort listener on a signal that outlives them, and a late abort changes nothing', async () => {
    const shared = new AbortController();
    const ui = new FakePresenter({ form: () => ({ action: 'accept', content: { a: 'yes' } }) });
    ui.answerUrl = () => ({ action: 'accept', browser: 'opened' });
    const b = brokerWith(ui, 'show');
    const extra = { signal: shared.signal, requestId: 'r' };
    for (const m of ['one', 'two', 'three']) {
      assert.deepEqual(await b.handle(fixture, params(m), extra), { action: 'accept', content: { a: 'yes' } });
    }
    // An accepted url stays listed, awaiting completion, after its request was answered.
    const sent = await b.handle(
      fixture,
      { mode: 'url', message: 'Sign in', url: 'https://auth.example.com/x', elicitationId: 'u1' },
      extra,
    );
    assert.deepEqual(sent, { action: 'accept' });
    assert.deepEqual(
      b.queue.list().map((e) => e.state),
      ['awaitingCompletion'],
    );
    assert.equal(getEventListeners(shared.signal, 'abort').length, 0, 'every request removed its listener');
    shared.abort();
    assert.deepEqual(
      b.queue.list().map((e) => e.state),
      ['awaitingCompletion'],
      'the browser step still waits for its completion',
    );
    assert.deepEqual(
      b.queue.history.list().map((h) => [h.action, h.decidedBy]),
      [...Array<[string, string]>(4).fill(['accept', 'user'])],
    );
    assert.equal(b.queue.list()[0]?.payload.ticket.decidedBy, undefined, 'a late abort is no server cancel');
  });

  void it('while the request waits, the same signal still cancels it', async () => {
    const shared = new AbortController();
    const ui = new FakePresenter();
    const b = brokerWith(ui, 'show');
    const reply = b.handle(fixture, params('waiting'), { signal: shared.signal, requestId: 'r' });
    await until(() => ui.forms.length === 1);
    shared.abort();
    assert.deepEqual(await reply, { action: 'cancel' });
    assert.equal(b.queue.history.list()[0]?.decidedBy, 'serverCancel');
    assert.equal(getEventListeners(shared.signal, 'abort').length, 0);
  });
});
