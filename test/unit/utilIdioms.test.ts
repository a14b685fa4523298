import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../../src/util/emitter';
import { onAbort, pause, raceAbort, settleOnce } from '../../src/util/async';

/** How many 'abort' listeners a signal holds: Node keeps them on the EventTarget's symbol table. */
function abortListeners(signal: AbortSignal): number {
  const sym = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kEvents');
  const events = sym ? (signal as unknown as Record<symbol, Map<string, { size: number }>>)[sym] : undefined;
  return events?.get('abort')?.size ?? 0;
}

void describe('Emitter', () => {
  void it('runs every listener even when an earlier one throws, and reports the error', () => {
    const errors: unknown[] = [];
    const emitter = new Emitter<number>((e) => errors.push(e));
    const seen: number[] = [];
    emitter.event(() => {
      throw new Error('first listener fails');
    });
    emitter.event((n) => seen.push(n));
    emitter.fire(7);
    assert.deepEqual(seen, [7]);
    assert.equal((errors[0] as Error).message, 'first listener fails');
  });

  void it('event() returns a disposable that unsubscribes only that subscription, idempotently', () => {
    const emitter = new Emitter<string>();
    const seen: string[] = [];
    const listener = (s: string): void => void seen.push(s);
    const a = emitter.event(listener);
    emitter.event(listener);
    a.dispose();
    a.dispose();
    emitter.fire('x');
    assert.deepEqual(seen, ['x']);
  });

  void it("takes vscode.Event's thisArgs and disposables, so VS Code and other extensions can subscribe as they do to any event", () => {
    const emitter = new Emitter<number>();
    const owner = { seen: [] as number[] };
    const bag: { dispose(): void }[] = [];
    emitter.event(
      function (this: typeof owner, n: number) {
        this.seen.push(n);
      },
      owner,
      bag,
    );
    emitter.fire(1);
    assert.equal(bag.length, 1);
    for (const d of bag) d.dispose();
    emitter.fire(2);
    assert.deepEqual(owner.seen, [1]);
  });

  void it('a listener added during a fire hears the next fire, not this one; dispose silences everything', () => {
    const emitter = new Emitter<number>();
    const seen: string[] = [];
    emitter.event((n) => {
      seen.push(`outer ${n}`);
      if (n === 1) emitter.event((m) => void seen.push(`inner ${m}`));
    });
    emitter.fire(1);
    emitter.fire(2);
    emitter.dispose();
    emitter.fire(3);
    emitter.event(() => void seen.push('after dispose'));
    emitter.fire(4);
    assert.deepEqual(seen, ['outer 1', 'outer 2', 'inner 2']);
    assert.equal(emitter.hasListeners, false);
  });
});

void describe('raceAbort', () => {
  void it('resolves with the work when it finishes first, and leaves no listener on the signal', async () => {
    const ctl = new AbortController();
    assert.equal(await raceAbort(Promise.resolve('done'), ctl.signal, () => 'aborted'), 'done');
    assert.equal(abortListeners(ctl.signal), 0);
  });

  void it('resolves with the abort value as soon as the signal aborts, while the work is still pending', async () => {
    const ctl = new AbortController();
    const never = new Promise<string>(() => undefined);
    const raced = raceAbort(never, ctl.signal, () => 'aborted');
    ctl.abort();
    assert.equal(await raced, 'aborted');
  });

  void it('an already aborted signal wins at once, and a later rejection of the work is not unhandled', async () => {
    const ctl = new AbortController();
    ctl.abort();
    let rejectWork!: (e: Error) => void;
    const work = new Promise<string>((_, reject) => (rejectWork = reject));
    assert.equal(await raceAbort(work, ctl.signal, () => 'aborted'), 'aborted');
    rejectWork(new Error('late'));
    await new Promise((r) => setImmediate(r));
  });

  void it('passes a rejection of the work through when it comes first', async () => {
    const ctl = new AbortController();
    await assert.rejects(
      raceAbort(Promise.reject(new Error('boom')), ctl.signal, () => 'aborted'),
      /boom/,
    );
    assert.equal(abortListeners(ctl.signal), 0);
  });

  void it('a thousand calls on one long-lived signal leave it without listeners', async () => {
    const ctl = new AbortController();
    for (let i = 0; i < 1000; i++) await raceAbort(Promise.resolve(i), ctl.signal, () => -1);
    assert.equal(abortListeners(ctl.signal), 0);
  });
});

void describe('settleOnce', () => {
  void it('runs only the first settle; later ones report that they lost', () => {
    const settle = settleOnce();
    const ran: string[] = [];
    assert.equal(settle.settled, false);
    assert.equal(
      settle(() => ran.push('answer')),
      true,
    );
    assert.equal(
      settle(() => ran.push('cancel')),
      false,
    );
    assert.deepEqual(ran, ['answer']);
    assert.equal(settle.settled, true);
  });
});

void describe('pause', () => {
  void it('ends early on abort and leaves no listener after a normal end', async () => {
    const ctl = new AbortController();
    await pause(1, ctl.signal);
    assert.equal(abortListeners(ctl.signal), 0);
    const long = pause(60_000, ctl.signal);
    ctl.abort();
    await long;
  });
});

void describe('onAbort', () => {
  void it('runs on abort, at once for a signal already aborted, and not at all once disposed', () => {
    const live = new AbortController();
    let runs = 0;
    const sub = onAbort(live.signal, () => runs++);
    assert.equal(abortListeners(live.signal), 1);
    sub.dispose();
    assert.equal(abortListeners(live.signal), 0);
    live.abort();
    assert.equal(runs, 0, 'a disposed subscription does not run');
    onAbort(live.signal, () => runs++);
    assert.equal(runs, 1, 'an aborted signal runs the callback at once');
    const later = new AbortController();
    onAbort(later.signal, () => runs++);
    later.abort();
    later.abort();
    assert.equal(runs, 2);
  });
});
