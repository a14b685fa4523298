// The interceptor the test factory puts in front of the presenter and the broker's intake
// (test/host/intercept.ts): in-host tests observe or answer through it instead of replacing
// methods on live objects, so it must pass everything else through untouched.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Interceptor } from '../host/intercept';

class Real {
  readonly said: string[] = [];
  #secret = 'own state';
  say(word: string): string {
    this.said.push(word);
    return `${word} (${this.#secret})`;
  }
  get count(): number {
    return this.said.length;
  }
}

void describe('Interceptor', () => {
  void it('passes every call to the real object, which keeps its own state', () => {
    const real = new Real();
    const stand = new Interceptor<Real>().wrap(real);
    assert.equal(stand.say('hello'), 'hello (own state)');
    assert.deepEqual(real.said, ['hello']);
    assert.equal(stand.count, 1);
  });

  void it('an interception sees the call and may pass it on; disposing it restores the real method', () => {
    const real = new Real();
    const tap = new Interceptor<Real>();
    const stand = tap.wrap(real);
    const seen: string[] = [];
    const observing = tap.intercept('say', (say) => (word) => {
      seen.push(word);
      return say(word.toUpperCase());
    });
    assert.equal(stand.say('hi'), 'HI (own state)');
    assert.deepEqual(seen, ['hi']);
    observing.dispose();
    assert.equal(stand.say('bye'), 'bye (own state)');
    assert.deepEqual(seen, ['hi']);
    assert.deepEqual(real.said, ['HI', 'bye']);
  });

  void it('refuses a second interception of the same method until the first ends', () => {
    const tap = new Interceptor<Real>();
    tap.wrap(new Real());
    const first = tap.intercept('say', () => () => 'first');
    assert.throws(() => tap.intercept('say', () => () => 'second'), /already intercepted/);
    first.dispose();
    tap.intercept('say', () => () => 'second').dispose();
  });

  void it('cannot intercept before it stands in front of anything', () => {
    assert.throws(() => new Interceptor<Real>().intercept('say', (say) => say), /not built with this interceptor/);
  });
});
