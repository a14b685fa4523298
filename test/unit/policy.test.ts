import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Gatekeeper, isServerPolicy, mergeScopes, resolvePolicy, type GateDecision } from '../../src/elicitation/policy/policy';
import { RateLimiter } from '../../src/elicitation/policy/tokenBucket';

void describe('resolvePolicy', () => {
  void it('uses the server entry, then the default', () => {
    const settings = { serverPolicy: { noisy: 'block', careful: 'ask' }, defaultPolicy: 'ask' };
    assert.equal(resolvePolicy('noisy', settings), 'block');
    assert.equal(resolvePolicy('careful', settings), 'ask');
    assert.equal(resolvePolicy('other', settings), 'ask');
  });

  void it('falls back to the default for an invalid entry, and to allow for an invalid default', () => {
    assert.equal(resolvePolicy('s', { serverPolicy: { s: 'deny' }, defaultPolicy: 'block' }), 'block');
    assert.equal(resolvePolicy('s', { serverPolicy: { s: 42 }, defaultPolicy: 'BLOCK' }), 'allow');
    assert.equal(resolvePolicy('s', { serverPolicy: {}, defaultPolicy: undefined }), 'allow');
    assert.equal(resolvePolicy('s', { serverPolicy: { s: null }, defaultPolicy: ['ask'] }), 'allow');
  });

  void it('ignores inherited keys', () => {
    const settings = { serverPolicy: {}, defaultPolicy: 'ask' };
    assert.equal(resolvePolicy('constructor', settings), 'ask');
    assert.equal(resolvePolicy('__proto__', settings), 'ask');
    assert.equal(resolvePolicy('toString', settings), 'ask');
  });

  void it('recognises exactly the three policies', () => {
    assert.deepEqual(['allow', 'ask', 'block', 'Allow', '', undefined].map(isServerPolicy), [true, true, true, false, false, false]);
  });
});

void describe('mergeScopes', () => {
  void it('lets workspace keys override user keys and keeps the rest', () => {
    const merged = mergeScopes({ chatty: 'allow', mine: 'ask' }, { chatty: 'block', team: 'ask' });
    assert.deepEqual(merged, { chatty: 'block', mine: 'ask', team: 'ask' });
  });

  void it('treats missing or non-object scopes as empty', () => {
    assert.deepEqual(mergeScopes(undefined, { a: 'ask' }), { a: 'ask' });
    assert.deepEqual(mergeScopes({ a: 'ask' }, null), { a: 'ask' });
    assert.deepEqual(mergeScopes(['block'], 'block'), {});
  });

  void it('keeps a "__proto__" key as data', () => {
    const merged = mergeScopes(JSON.parse('{"__proto__": "block"}'), {});
    assert.equal(Object.getPrototypeOf(merged), Object.prototype);
    assert.equal(resolvePolicy('__proto__', { serverPolicy: merged, defaultPolicy: 'allow' }), 'block');
  });
});

void describe('Gatekeeper', () => {
  function setup(serverPolicy: Record<string, unknown> = {}, defaultPolicy: unknown = 'allow', requests = 3) {
    let t = 0;
    const clock = { now: () => t, advance: (ms: number) => (t += ms) };
    const limiter = new RateLimiter({ requests, perSeconds: 60 }, clock.now);
    return { gate: new Gatekeeper({ serverPolicy, defaultPolicy }, limiter), clock, limiter };
  }

  void it('shows allowed requests and asks first for ask servers', () => {
    const { gate } = setup({ wary: 'ask' });
    assert.deepEqual(gate.decide('friendly'), { outcome: 'show', decidedBy: 'user', policy: 'allow' });
    assert.deepEqual(gate.decide('wary'), { outcome: 'ask', decidedBy: 'user', policy: 'ask' });
  });

  void it('declines blocked servers by policy without using their rate budget', () => {
    const { gate } = setup({ noisy: 'block' }, 'allow', 1);
    for (let i = 0; i < 5; i++) assert.deepEqual(gate.decide('noisy'), { outcome: 'decline', decidedBy: 'policy', policy: 'block' });
    gate.update({ serverPolicy: {}, defaultPolicy: 'allow' });
    assert.equal(gate.decide('noisy').outcome, 'show');
  });

  void it('decides by policy alone when told not to count (an answer from memory): the budget is untouched, a block still declines', () => {
    const { gate } = setup({ noisy: 'block' }, 'allow', 1);
    for (let i = 0; i < 5; i++) assert.equal(gate.decide('quiet', false).outcome, 'show');
    assert.equal(gate.decide('quiet').outcome, 'show', 'the one counted request still fits the limit of one');
    assert.equal(gate.decide('quiet').outcome, 'decline');
    assert.equal(gate.decide('quiet', false).outcome, 'show', 'an uncounted request is not refused by the limit');
    assert.deepEqual(gate.decide('noisy', false), { outcome: 'decline', decidedBy: 'policy', policy: 'block' });
  });

  void it('declines over-limit requests, flagging the first in the window', () => {
    const { gate } = setup({}, 'ask', 2);
    const decisions = Array.from({ length: 5 }, () => gate.decide('s'));
    assert.deepEqual(
      decisions.map((d) => d.outcome),
      ['ask', 'ask', 'decline', 'decline', 'decline'],
    );
    const limited = decisions.filter((d): d is Extract<GateDecision, { decidedBy: 'rateLimit' }> => d.decidedBy === 'rateLimit');
    assert.deepEqual(
      limited.map((d) => [d.firstInWindow, d.windowCount, d.windowSeconds, d.policy]),
      [
        [true, 3, 60, 'ask'],
        [false, 4, 60, 'ask'],
        [false, 5, 60, 'ask'],
      ],
    );
  });

  void it('lifts the limit for a server after allowMore, until the session resets', () => {
    const { gate } = setup({}, 'allow', 1);
    gate.decide('s');
    assert.equal(gate.decide('s').decidedBy, 'rateLimit');
    gate.allowMore('s');
    assert.ok(gate.isUnlimited('s'));
    for (let i = 0; i < 20; i++) assert.equal(gate.decide('s').outcome, 'show');
    assert.equal(gate.decide('t').outcome, 'show');
    assert.equal(gate.decide('t').decidedBy, 'rateLimit', 'other servers stay limited');
    gate.resetSession();
    assert.equal(gate.decide('s').decidedBy, 'rateLimit');
  });

  void it('keeps blocking after allowMore', () => {
    const { gate } = setup({ s: 'block' });
    gate.allowMore('s');
    assert.equal(gate.decide('s').decidedBy, 'policy');
  });

  void it('applies replaced settings to the next decision, including the rate limit', () => {
    const { gate, limiter } = setup({}, 'allow', 1);
    assert.equal(gate.decide('s').outcome, 'show');
    gate.update({ serverPolicy: { s: 'block' }, defaultPolicy: 'allow' });
    assert.equal(gate.policyFor('s'), 'block');
    assert.equal(gate.decide('s').decidedBy, 'policy');
    gate.update({ serverPolicy: {}, defaultPolicy: 'ask', rateLimit: { requests: 0, perSeconds: 0 } });
    assert.deepEqual(limiter.current, { requests: 0, perSeconds: 0 });
    for (let i = 0; i < 10; i++) assert.equal(gate.decide('s').outcome, 'ask');
    gate.update({ serverPolicy: {}, defaultPolicy: 'nonsense', rateLimit: 'garbage' });
    assert.deepEqual(limiter.current, { requests: 10, perSeconds: 60 }, 'a malformed limit falls back to the default, not to unlimited');
    assert.equal(gate.decide('s').outcome, 'show');
  });

  void it('takes an initial rate limit from its settings', () => {
    const limiter = new RateLimiter({ requests: 100, perSeconds: 60 }, () => 0);
    new Gatekeeper({ serverPolicy: {}, defaultPolicy: 'allow', rateLimit: { requests: 1, perSeconds: 5 } }, limiter);
    assert.deepEqual(limiter.current, { requests: 1, perSeconds: 5 });
  });
});
