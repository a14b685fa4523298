import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { History, PendingQueue, type NewPendingEntry } from '../../src/elicitation/queue/pendingQueue';
import type { DecidedBy, ElicitationAction } from '../../src/elicitation/outcome';

let seq = 0;
function entry(server: string, extra: Partial<NewPendingEntry<string>> = {}): NewPendingEntry<string> {
  seq++;
  return { id: `e${seq}`, server, mode: 'form', message: `m${seq}`, createdAt: seq, payload: `p${seq}`, ...extra };
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
    for (const [id, server] of [['a1', 'a'], ['b1', 'b'], ['a2', 'a'], ['c1', 'c']] as const) q.enqueue(entry(server, { id }));
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

  void it('removes by id and by predicate, returning what went', () => {
    const q = new PendingQueue<string>();
    for (const [id, server] of [['a1', 'a'], ['b1', 'b'], ['a2', 'a'], ['b2', 'b']] as const) q.enqueue(entry(server, { id }));
    q.next();
    assert.equal(q.remove('nope'), undefined);
    assert.equal(q.remove('b2')?.id, 'b2');
    const removed = q.removeWhere((e) => e.server === 'a');
    assert.deepEqual(ids(removed), ['a1', 'a2']);
    assert.equal(removed[0]?.state, 'onScreen', 'the on-screen entry can be removed too');
    assert.equal(q.current(), undefined);
    assert.equal(q.next()?.id, 'b1');
    assert.deepEqual(q.removeWhere(() => false), []);
  });

  void it('notifies listeners once per change and stops after unsubscribe', () => {
    const q = new PendingQueue<string>();
    let calls = 0;
    const off = q.onDidChange(() => calls++);
    q.enqueue(entry('a', { id: '1' }));
    q.enqueue(entry('b', { id: '2' }));
    q.next();
    q.removeWhere(() => true);
    assert.equal(calls, 4);
    q.removeWhere(() => true);
    q.remove('1');
    assert.equal(calls, 4, 'no event when nothing changed');
    off();
    q.enqueue(entry('a'));
    assert.equal(calls, 4);
  });

  void it('runs every listener even if one throws, then rethrows', () => {
    const q = new PendingQueue<string>();
    let reached = false;
    q.onDidChange(() => {
      throw new Error('boom');
    });
    q.onDidChange(() => (reached = true));
    assert.throws(() => q.enqueue(entry('a')), /boom/);
    assert.ok(reached);
    assert.equal(q.size, 1);
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
    assert.deepEqual(times, Array.from({ length: 50 }, (_, i) => 70 + i));
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
