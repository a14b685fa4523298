/**
 * Sign-in's bad input (issue 25) in plain Node against test/fixtures/oauthServer.mjs: each case
 * ends the sign-in with a notice that names the server and the reason, stores no token, and leaves
 * other servers working. The harness is support/signInHarness.ts.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { SignInRequest } from '../../src/servers/auth/signIn';
import {
  MapSecrets,
  approvingUser,
  connect,
  fixture,
  harness,
  killFixtures,
  signInService,
  stats,
  whoami,
  type User,
} from './support/signInHarness';

after(killFixtures);

/** The browser of a forged redirect: the authorization server's answer, delivered with another `state`. */
async function foreignStateBrowser(request: SignInRequest): Promise<void> {
  const res = await fetch(request.url, { redirect: 'manual' });
  const back = new URL(res.headers.get('location') ?? '');
  back.searchParams.set('state', 'not-the-state-this-window-sent');
  await fetch(back);
}

void describe('sign-in bad input (plain Node, real fixture)', () => {
  void it('a foreign iss, a non-JSON token answer, 10 MB of metadata, a browser that never comes back: each ends with the server and the reason', async () => {
    const cases: [string, Record<string, string>, RegExp, User?, number?][] = [
      ['badIss', { FIXTURE_AUTH_MODE: 'badIss' }, /Issuer mismatch in authorization response \(RFC 9207\)/],
      ['notJson', { FIXTURE_AUTH_MODE: 'notJson' }, /the authorization server sent an answer that is not JSON/],
      ['hugeMetadata', { FIXTURE_AUTH_MODE: 'hugeMetadata' }, /more than the 1000000 bytes/],
      ['browser never comes back', {}, /did not come back within 1 second/, () => Promise.resolve('opened'), 300],
    ];
    for (const [label, env, reason, user, timeout] of cases) {
      const base = await fixture(env);
      const h = harness(base, user ?? approvingUser, new MapSecrets(), timeout);
      await h.conn.start();
      assert.ok(h.conn.state.kind === 'error' && h.conn.state.gaveUp, `${label}: ${JSON.stringify(h.conn.state)}`);
      assert.match(h.conn.state.kind === 'error' ? h.conn.state.reason : '', reason, label);
      assert.equal(h.failures.length, 1, `${label}: one notice`);
      assert.match(
        h.failures[0] ?? '',
        new RegExp(`^protected: .*${reason.source}`),
        `${label}: the notice names the server and the reason`,
      );
      assert.equal(await h.store.tokensOf('protected'), undefined, `${label}: no token stored`);
      h.signIn.dispose();
    }
  });

  void it('a redirect with a foreign state ends that sign-in, redeems no code, and a server signed in before keeps working', async () => {
    const [okBase, badBase] = await Promise.all([fixture(), fixture()]);
    const h = signInService((request) => {
      if (request.server === 'victim') void foreignStateBrowser(request).catch(() => undefined);
      else void fetch(request.url, { redirect: 'follow' }).catch(() => undefined);
      return Promise.resolve('opened');
    });
    const other = connect(h, okBase, { name: 'other' });
    await other.start();
    assert.equal(other.state.kind, 'running');

    const victim = connect(h, badBase, { name: 'victim' });
    await victim.start();
    assert.ok(victim.state.kind === 'error' && victim.state.gaveUp, JSON.stringify(victim.state));
    assert.match(victim.state.reason, /sign-in response this window did not start \(its state does not match\)/);
    assert.deepEqual(
      h.failures.map((f) => f.split(':')[0]),
      ['victim'],
      'one notice, naming the server whose sign-in ended',
    );
    const s = await stats(badBase);
    assert.equal(s.authorizations.length, 1, 'the authorization server was visited');
    assert.equal(s.codeGrants, 0, 'the code that came back under a foreign state was never redeemed');
    assert.equal(await h.store.tokensOf('victim'), undefined);
    assert.match(await whoami(other), /^client /, 'the server signed in before still answers');
    await other.shutdown();
    h.signIn.dispose();
  });

  void it('an authorization server that changes between runs: the old credentials are not sent to it, the client registers again, tokens are keyed by the new issuer', async () => {
    const base = await fixture();
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running');
    assert.equal((await h.store.binding('protected'))?.issuer, `${base}/as`);
    await h.conn.stop();

    // The resource now trusts another authorization server, which knows none of the old clients or tokens.
    await fetch(`${base}/fixture/newIssuer`, { method: 'POST' });
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running', JSON.stringify(h.conn.state));
    const s = await stats(base);
    assert.equal(s.registrations.length, 2, 'registered again with the new authorization server');
    assert.deepEqual(s.issuers, [`${base}/as`, `${base}/as2`]);
    assert.equal(h.asked.length, 2, 'the user was asked again, for the new authorization server');
    assert.equal(new URL(h.asked[1]?.url ?? '').pathname, '/as2/authorize');
    assert.equal((await h.store.binding('protected'))?.issuer, `${base}/as2`, 'tokens keyed by the new issuer');
    assert.match(await whoami(h.conn), /^client /);
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('a 401 loop (the server refuses even a fresh token) ends after one sign-in with a notice naming the server', async () => {
    const base = await fixture({ FIXTURE_AUTH_MODE: 'loop401' });
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.ok(h.conn.state.kind === 'error' && h.conn.state.gaveUp, JSON.stringify(h.conn.state));
    assert.match(h.conn.state.reason, /still answers 401 after sign-in/);
    assert.equal(h.asked.length, 1, 'asked once, not again and again');
    assert.equal((await stats(base)).codeGrants, 1);
    assert.equal(h.failures.length, 1);
    assert.match(h.failures[0] ?? '', /^protected: the server still answers 401 after sign-in/);
    h.signIn.dispose();
  });
});
