/**
 * The loopback redirect (src/servers/auth/loopbackRedirect.ts) on its own: a response is handed to
 * the sign-in whose `state` it carries, and one whose `state` matches none ends none of the
 * sign-ins waiting; it only gets an error page.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LoopbackRedirect } from '../../src/servers/auth/loopbackRedirect';

void describe('loopback redirect', () => {
  void it('a foreign state gets 400 and ends no sign-in; each waiting sign-in then gets its own response', async () => {
    const r = new LoopbackRedirect();
    const url = await r.url();
    const settled: string[] = [];
    const wait = (state: string): Promise<URLSearchParams> => {
      const p = r.expect(state, new AbortController().signal);
      p.then(
        () => settled.push(`${state} resolved`),
        () => settled.push(`${state} rejected`),
      );
      return p;
    };
    const a = wait('state-a');
    const b = wait('state-b');

    const foreign = await fetch(`${url}?code=stolen&state=state-x`);
    assert.equal(foreign.status, 400);
    assert.match(await foreign.text(), /does not belong to a sign-in VS Code started/);
    // Without a state at all, likewise.
    assert.equal((await fetch(`${url}?code=stolen`)).status, 400);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(settled, [], 'both sign-ins still wait');

    const backA = await fetch(`${url}?code=code-a&state=state-a`);
    assert.equal(backA.status, 200);
    assert.equal((await a).get('code'), 'code-a');
    assert.equal((await fetch(`${url}?code=code-b&state=state-b`)).status, 200);
    assert.equal((await b).get('code'), 'code-b');
    // A response is taken once: the same state again belongs to no sign-in.
    assert.equal((await fetch(`${url}?code=code-a&state=state-a`)).status, 400);
    r.dispose();
  });

  void it('a sign-in still ends when its own signal aborts (timeout, cancel)', async () => {
    const r = new LoopbackRedirect();
    await r.url();
    const ac = new AbortController();
    const p = r.expect('s', ac.signal);
    ac.abort(new Error('the browser did not come back within 1 second'));
    await assert.rejects(p, /did not come back within 1 second/);
    r.dispose();
  });
});
