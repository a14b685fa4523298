import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coalesced } from '../../src/util/coalesce';
import { PendingQueue } from '../../src/elicitation/queue/pendingQueue';
import { askerFor } from '../../src/elicitation/asker';

/** What the status bar and the badge do: show the pending count, one update per call. */
function countDisplay(queue: PendingQueue<null>): { shown: number[]; update: () => void } {
  const shown: number[] = [];
  return { shown, update: () => shown.push(queue.size) };
}

function enqueue(queue: PendingQueue<null>, n: number): void {
  for (let i = 0; i < n; i++) {
    queue.enqueue({ id: `e${queue.size + 1}`, asker: askerFor('s', undefined), mode: 'form', message: 'm', createdAt: 0, payload: null });
  }
}

void describe('coalesced', () => {
  void it('a hundred queue changes in one synchronous run update the display once, with the final count, before any timer', async () => {
    const queue = new PendingQueue<null>();
    const display = countDisplay(queue);
    queue.onDidChange(coalesced(display.update));
    enqueue(queue, 100);
    assert.deepEqual(display.shown, [], 'nothing during the run');
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(display.shown, [100]);
  });

  void it('changes in a later run update again', async () => {
    const queue = new PendingQueue<null>();
    const display = countDisplay(queue);
    queue.onDidChange(coalesced(display.update));
    enqueue(queue, 2);
    await Promise.resolve();
    queue.remove('e1');
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(display.shown, [2, 1]);
  });

  void it('flush runs a pending update at once, and only then', async () => {
    const queue = new PendingQueue<null>();
    const display = countDisplay(queue);
    const changed = coalesced(display.update);
    queue.onDidChange(changed);
    changed.flush();
    assert.deepEqual(display.shown, [], 'nothing pending, nothing run');
    enqueue(queue, 3);
    changed.flush();
    assert.deepEqual(display.shown, [3]);
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(display.shown, [3], 'the flushed update is not run twice');
  });

  void it('after dispose nothing runs, not even an update already asked for', async () => {
    const queue = new PendingQueue<null>();
    const display = countDisplay(queue);
    const changed = coalesced(display.update);
    queue.onDidChange(changed);
    enqueue(queue, 1);
    changed.dispose();
    enqueue(queue, 1);
    await new Promise((r) => setTimeout(r, 0));
    assert.deepEqual(display.shown, []);
  });
});
