/**
 * Rate limiting for elicitation requests, per server: a token bucket that refills continuously,
 * plus the bookkeeping the UI needs to say "‹server› sent N requests in M s" once per window
 * rather than once per rejected request.
 */

/** Milliseconds since some fixed point; `Date.now` in production, a fake in tests. */
export type Clock = () => number;

/**
 * A bucket of `capacity` tokens that refills from empty to full in `refillPerSeconds` seconds,
 * continuously (not in steps). Each request takes one token.
 */
export class TokenBucket {
  // Tokens are kept scaled by the refill period (in ms) so that with an integer clock all
  // arithmetic is exact: one token = `periodMs` units, refill = `capacity` units per ms.
  // Floating point would let 6 s × (10 / 60 s) come out as 0.999… and wrongly reject.
  private units: number;
  private last: number;
  private readonly periodMs: number;

  /**
   * @param capacity burst size; at least 1.
   * @param refillPerSeconds seconds for an empty bucket to fill; greater than 0.
   * @param clock milliseconds.
   * @param initialTokens defaults to a full bucket.
   */
  constructor(
    readonly capacity: number,
    readonly refillPerSeconds: number,
    private readonly clock: Clock,
    initialTokens: number = capacity,
  ) {
    if (!(capacity >= 1) || !(refillPerSeconds > 0)) {
      throw new RangeError(`TokenBucket needs capacity >= 1 and refillPerSeconds > 0 (got ${capacity}, ${refillPerSeconds})`);
    }
    this.periodMs = refillPerSeconds * 1000;
    this.units = Math.min(Math.max(initialTokens, 0), capacity) * this.periodMs;
    this.last = clock();
  }

  /** Takes a token if one is available. */
  tryTake(): boolean {
    this.refill();
    if (this.units < this.periodMs) return false;
    this.units -= this.periodMs;
    return true;
  }

  /** Tokens available now (fractional while refilling). */
  available(): number {
    this.refill();
    return this.units / this.periodMs;
  }

  private refill(): void {
    const now = this.clock();
    // A clock that steps backwards (suspend, NTP) must not drain or overfill the bucket.
    if (now > this.last) {
      this.units = Math.min(this.units + (now - this.last) * this.capacity, this.capacity * this.periodMs);
      this.last = now;
    }
  }
}

/** The `mcpElicitation.rateLimit` setting: at most `requests` per `perSeconds`; 0 in either is unlimited. */
export interface RateLimit {
  readonly requests: number;
  readonly perSeconds: number;
}

/** Ten requests a minute: generous for real forms, stops a looping server from burying the user. */
export const DEFAULT_RATE_LIMIT: RateLimit = { requests: 10, perSeconds: 60 };

/**
 * Reads a raw setting value into a {@link RateLimit}. Anything malformed (missing fields,
 * negatives, NaN, fractions of a request) gives the default rather than no limit at all.
 */
export function normaliseRateLimit(value: unknown): RateLimit {
  if (typeof value !== 'object' || value === null) return DEFAULT_RATE_LIMIT;
  const requests: unknown = Object.hasOwn(value, 'requests') ? (value as { requests: unknown }).requests : undefined;
  const perSeconds: unknown = Object.hasOwn(value, 'perSeconds') ? (value as { perSeconds: unknown }).perSeconds : undefined;
  const valid =
    typeof requests === 'number' &&
    Number.isInteger(requests) &&
    requests >= 0 &&
    typeof perSeconds === 'number' &&
    Number.isFinite(perSeconds) &&
    perSeconds >= 0;
  return valid ? { requests, perSeconds } : DEFAULT_RATE_LIMIT;
}

/** What {@link RateLimiter.check} decided for one request. */
export interface RateCheck {
  readonly allowed: boolean;
  /** True for the first rejection in the current window: the moment to tell the user, once. */
  readonly firstRejectionInWindow: boolean;
  /** Requests from this server in the current window, this one included (0 when unlimited). */
  readonly countInWindow: number;
  /** Length of the window (the limit's `perSeconds`; 0 when unlimited). */
  readonly windowSeconds: number;
}

interface ServerState {
  bucket: TokenBucket;
  windowStart: number;
  count: number;
  notified: boolean;
}

/**
 * One {@link TokenBucket} per server, all with the same limit. Counting for the notice uses a
 * fixed window that opens at a server's first request after the previous one closed: exact
 * enough for "N requests in M s" and O(1) memory even under a flood.
 */
export class RateLimiter {
  private readonly states = new Map<string, ServerState>();
  private limit: RateLimit;

  constructor(
    limit: RateLimit,
    private readonly clock: Clock,
  ) {
    this.limit = limit;
  }

  /** The limit in force. */
  get current(): RateLimit {
    return this.limit;
  }

  private get unlimited(): boolean {
    return this.limit.requests <= 0 || this.limit.perSeconds <= 0;
  }

  /** Counts one request from `server` and says whether it may go ahead. */
  check(server: string): RateCheck {
    if (this.unlimited) return { allowed: true, firstRejectionInWindow: false, countInWindow: 0, windowSeconds: 0 };
    const now = this.clock();
    const windowMs = this.limit.perSeconds * 1000;
    let state = this.states.get(server);
    if (!state) {
      state = { bucket: this.newBucket(), windowStart: now, count: 0, notified: false };
      this.states.set(server, state);
    }
    if (now - state.windowStart >= windowMs || now < state.windowStart) {
      state.windowStart = now;
      state.count = 0;
      state.notified = false;
    }
    state.count++;
    const allowed = state.bucket.tryTake();
    const firstRejectionInWindow = !allowed && !state.notified;
    if (firstRejectionInWindow) state.notified = true;
    return { allowed, firstRejectionInWindow, countInWindow: state.count, windowSeconds: this.limit.perSeconds };
  }

  /**
   * Applies a new limit from the next request on. Buckets keep what they hold (capped at the
   * new capacity) so editing the setting cannot be used to refill them.
   */
  setLimit(limit: RateLimit): void {
    if (limit.requests === this.limit.requests && limit.perSeconds === this.limit.perSeconds) return;
    this.limit = limit;
    if (this.unlimited) {
      this.states.clear();
      return;
    }
    for (const state of this.states.values()) {
      state.bucket = this.newBucket(state.bucket.available());
    }
  }

  /** Forgets a server (disconnected or removed), so a reconnect starts with a full bucket. */
  forget(server: string): void {
    this.states.delete(server);
  }

  private newBucket(initialTokens?: number): TokenBucket {
    return new TokenBucket(this.limit.requests, this.limit.perSeconds, this.clock, initialTokens);
  }
}
