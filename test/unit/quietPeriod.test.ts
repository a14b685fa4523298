import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QuietPeriod } from '../../src/util/quietPeriod';

void describe('QuietPeriod', () => {
  void it('says a key once within the period, again after it, and each key on its own', () => {
    let now = 1_000;
    const q = new QuietPeriod(60_000, () => now);
    const first = q.begin('a');
    assert.ok(first, 'the first notice is shown');
    first.done();
    assert.equal(q.begin('a'), undefined, 'the same server at once: quiet');
    assert.ok(q.begin('b'), 'another server is told on its own');
    now += 59_999;
    assert.equal(q.begin('a'), undefined, 'still within the period');
    now += 1;
    assert.ok(q.begin('a'), 'the period is over: shown again');
  });

  void it('a notice still on screen keeps its key quiet after the period', () => {
    let now = 0;
    const q = new QuietPeriod(1_000, () => now);
    const open = q.begin('a');
    assert.ok(open);
    now = 10_000;
    assert.equal(q.begin('a'), undefined, 'the first one was never closed');
    open.done();
    assert.ok(q.begin('a'), 'closed and the period over: shown again');
  });
});
