import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_RATE_LIMIT, normaliseRateLimit, RateLimiter, TokenBucket } from '../../src/elicitation/policy/tokenBucket';

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000): { now: () => number; advance: (ms: number) => void; set: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms), set: (ms) => (t = ms) };
}

function takeMany(take: () => boolean, n: number): number {
  let ok = 0;
  for (let i = 0; i < n; i++) if (take()) ok++;
  return ok;
}

void describe('TokenBucket', () => {
  void it('allows a full burst, then refuses', () => {
    const clock = fakeClock();
    const b = new TokenBucket(10, 60, clock.now);
    assert.equal(
      takeMany(() => b.tryTake(), 25),
      10,
    );
  });

  void it('refills continuously: one token per capacity/period, exactly', () => {
    const clock = fakeClock();
    const b = new TokenBucket(10, 60, clock.now);
    takeMany(() => b.tryTake(), 10);
    clock.advance(5_999);
    assert.equal(b.tryTake(), false);
    clock.advance(1);
    assert.equal(b.tryTake(), true);
    assert.equal(b.tryTake(), false);
    clock.advance(18_000);
    assert.equal(
      takeMany(() => b.tryTake(), 5),
      3,
    );
  });

  void it('never holds more than its capacity', () => {
    const clock = fakeClock();
    const b = new TokenBucket(3, 1, clock.now);
    clock.advance(3_600_000);
    assert.equal(b.available(), 3);
    assert.equal(
      takeMany(() => b.tryTake(), 10),
      3,
    );
  });

  void it('accepts fractional periods and an initial fill', () => {
    const clock = fakeClock();
    const b = new TokenBucket(2, 0.5, clock.now, 0);
    assert.equal(b.tryTake(), false);
    clock.advance(250);
    assert.equal(b.tryTake(), true);
    assert.equal(b.available(), 0);
  });

  void it('ignores a clock that steps backwards', () => {
    const clock = fakeClock(100_000);
    const b = new TokenBucket(1, 10, clock.now);
    assert.equal(b.tryTake(), true);
    clock.set(50_000);
    assert.equal(b.tryTake(), false);
    clock.set(60_000);
    assert.equal(b.tryTake(), false, 'refill counts only time after the last seen instant');
    clock.set(110_000);
    assert.equal(b.tryTake(), true);
  });

  void it('rejects nonsensical parameters', () => {
    assert.throws(() => new TokenBucket(0, 60, Date.now), RangeError);
    assert.throws(() => new TokenBucket(5, 0, Date.now), RangeError);
    assert.throws(() => new TokenBucket(Number.NaN, 60, Date.now), RangeError);
  });
});

void describe('RateLimiter', () => {
  void it('lets exactly 10 of a 25-request burst through by default, and says so once', () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(DEFAULT_RATE_LIMIT, clock.now);
    const checks = Array.from({ length: 25 }, () => limiter.check('chatty'));
    assert.equal(checks.filter((c) => c.allowed).length, 10);
    assert.equal(checks.filter((c) => !c.allowed).length, 15);
    assert.deepEqual(
      checks.filter((c) => c.firstRejectionInWindow).map((c) => [c.countInWindow, c.windowSeconds]),
      [[11, 60]],
    );
    assert.equal(checks.at(-1)?.countInWindow, 25);
  });

  void it('keeps servers apart', () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 2, perSeconds: 60 }, clock.now);
    assert.equal(
      takeMany(() => limiter.check('a').allowed, 5),
      2,
    );
    assert.equal(
      takeMany(() => limiter.check('b').allowed, 5),
      2,
    );
  });

  void it('refills over time and announces again in a new window', () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 2, perSeconds: 10 }, clock.now);
    takeMany(() => limiter.check('s').allowed, 2);
    assert.equal(limiter.check('s').firstRejectionInWindow, true);
    clock.advance(4_000);
    assert.deepEqual(limiter.check('s'), { allowed: false, firstRejectionInWindow: false, countInWindow: 4, windowSeconds: 10 });
    clock.advance(1_000); // 5 s since empty: one token back
    assert.equal(limiter.check('s').allowed, true);
    assert.equal(limiter.check('s').allowed, false);
    clock.advance(5_000); // window of 10 s is over; one more token
    const fresh = limiter.check('s');
    assert.deepEqual(fresh, { allowed: true, firstRejectionInWindow: false, countInWindow: 1, windowSeconds: 10 });
    const rejected = limiter.check('s');
    assert.deepEqual([rejected.allowed, rejected.firstRejectionInWindow, rejected.countInWindow], [false, true, 2]);
  });

  void it('treats 0 in either field as unlimited', () => {
    for (const limit of [
      { requests: 0, perSeconds: 60 },
      { requests: 10, perSeconds: 0 },
    ]) {
      const limiter = new RateLimiter(limit, fakeClock().now);
      const checks = Array.from({ length: 1000 }, () => limiter.check('s'));
      assert.ok(checks.every((c) => c.allowed && !c.firstRejectionInWindow));
    }
  });

  void it('applies a new limit without refilling drained buckets', () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 5, perSeconds: 60 }, clock.now);
    takeMany(() => limiter.check('s').allowed, 5);
    limiter.setLimit({ requests: 20, perSeconds: 60 });
    assert.equal(limiter.check('s').allowed, false);
    assert.equal(
      takeMany(() => limiter.check('new').allowed, 30),
      20,
    );
    limiter.setLimit({ requests: 2, perSeconds: 60 });
    assert.deepEqual(limiter.current, { requests: 2, perSeconds: 60 });
    assert.equal(
      takeMany(() => limiter.check('other').allowed, 5),
      2,
    );
  });

  void it('lifts the limit entirely when set to unlimited, and forgets servers', () => {
    const clock = fakeClock();
    const limiter = new RateLimiter({ requests: 1, perSeconds: 60 }, clock.now);
    limiter.check('s');
    assert.equal(limiter.check('s').allowed, false);
    limiter.forget('s');
    assert.equal(limiter.check('s').allowed, true);
    limiter.setLimit({ requests: 0, perSeconds: 0 });
    assert.equal(
      takeMany(() => limiter.check('s').allowed, 50),
      50,
    );
  });
});

void describe('normaliseRateLimit', () => {
  void it('keeps valid values, including 0 for unlimited', () => {
    assert.deepEqual(normaliseRateLimit({ requests: 3, perSeconds: 1.5 }), { requests: 3, perSeconds: 1.5 });
    assert.deepEqual(normaliseRateLimit({ requests: 0, perSeconds: 0 }), { requests: 0, perSeconds: 0 });
  });

  void it('falls back to the default for anything malformed', () => {
    for (const bad of [
      undefined,
      null,
      5,
      'x',
      {},
      { requests: -1, perSeconds: 60 },
      { requests: 1.5, perSeconds: 60 },
      { requests: 10, perSeconds: Number.NaN },
      { requests: '10', perSeconds: 60 },
      { requests: 10, perSeconds: Infinity },
    ]) {
      assert.equal(normaliseRateLimit(bad), DEFAULT_RATE_LIMIT, JSON.stringify(bad));
    }
  });
});
