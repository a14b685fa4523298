// Sampling has its own consent (issue 41, item 5): the pure decision of what a sample needs.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { samplingPath, skipsReview } from '../../src/sampling/samplingConsent';

void describe('sampling consent', () => {
  void it('no elicitation policy skips the consent: show (allow, default) and ask both reach the user', () => {
    assert.equal(samplingPath('show', 'srv', undefined), 'consent');
    assert.equal(samplingPath('show', 'srv', {}), 'consent');
    assert.equal(samplingPath('ask', 'srv', undefined), 'ask');
  });

  void it('the user’s skipReview for that server sends straight to the model; a block or the rate limit still refuses', () => {
    assert.equal(samplingPath('show', 'srv', { srv: true }), 'send');
    assert.equal(samplingPath('ask', 'srv', { srv: true }), 'send');
    assert.equal(samplingPath('decline', 'srv', { srv: true }), 'refuse');
  });

  void it('only `true` under the server’s own name counts', () => {
    for (const value of [{ srv: 'true' }, { srv: 1 }, { other: true }, ['srv'], 'srv', true, null, { __proto__: { srv: true } }]) {
      assert.equal(skipsReview('srv', value), false, JSON.stringify(value));
    }
    assert.equal(skipsReview('srv', { srv: true }), true);
  });
});
