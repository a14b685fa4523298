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
  protectedAt,
} from './support/signInHarness';

after(killFixtures);

/** What the forged redirect got back: status and page. */
const forged: { status: number; text: string }[] = [];

/**
 * The browser of a forged redirect, then the real one: the authorization server's answer is first
 * delivered with another `state` (as a page that sends the browser to the loopback address would),
 * then as it was sent.
 */
async function foreignStateBrowser(request: SignInRequest): Promise<void> {
  const res = await fetch(request.url, { redirect: 'manual' });
  const back = new URL(res.headers.get('location') ?? '');
  const forgery = new URL(back);
  forgery.searchParams.set('state', 'not-the-state-this-window-sent');
  const answer = await fetch(forgery);
  forged.push({ status: answer.status, text: await answer.text() });
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
      assert.deepEqual(h.gaveUp, [], `${label}: the sign-in notice says why; no second one`);
      assert.match(
        h.failures[0] ?? '',
        new RegExp(`^protected: .*${reason.source}`),
        `${label}: the notice names the server and the reason`,
      );
      assert.equal(await h.store.tokensOf(protectedAt(base)), undefined, `${label}: no token stored`);
      h.signIn.dispose();
    }
  });

  void it('a redirect with a foreign state ends no sign-in: it gets an error page, its code is not redeemed, and the real redirect then signs in', async () => {
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
    assert.deepEqual(forged, [
      { status: 400, text: 'This sign-in response does not belong to a sign-in VS Code started. Nothing was signed in.' },
    ]);
    assert.equal(victim.state.kind, 'running', `the forgery did not end the sign-in waiting: ${JSON.stringify(victim.state)}`);
    assert.deepEqual(h.failures, [], 'no notice: nothing ended');
    assert.equal((await stats(badBase)).codeGrants, 1, 'one code redeemed: the one that came back under its own state');
    assert.match(await whoami(victim), /^client /);
    assert.match(await whoami(other), /^client /, 'the server signed in before still answers');
    await Promise.all([victim.shutdown(), other.shutdown()]);
    h.signIn.dispose();
  });

  void it('an authorization server that changes between runs: the old credentials are not sent to it, the client registers again, tokens are keyed by the new issuer', async () => {
    const base = await fixture();
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running');
    assert.equal((await h.store.binding(protectedAt(base)))?.issuer, `${base}/as`);
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
    assert.equal((await h.store.binding(protectedAt(base)))?.issuer, `${base}/as2`, 'tokens keyed by the new issuer');
    assert.match(await whoami(h.conn), /^client /);
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('an authorization server that changes while the server runs (SEP-2352): the refused token makes the client discover again and register with the new one; the call then goes through', async () => {
    // The conformance suite's auth/authorization-server-migration, in plain Node: without fresh
    // discovery the SDK kept the old authorization server and sent the refresh token to its
    // token endpoint, which no longer exists (`not_found`), and the sign-in ended there.
    const base = await fixture();
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.match(await whoami(h.conn), /^client /);
    await fetch(`${base}/fixture/newIssuer`, { method: 'POST' });

    assert.match(await whoami(h.conn), /^client /, 'the call after the move succeeds');
    const s = await stats(base);
    assert.equal(s.registrations.length, 2, 'registered again, with the new authorization server');
    assert.deepEqual(s.issuers, [`${base}/as`, `${base}/as2`]);
    assert.equal(s.refreshGrants, 0, 'the old refresh token went nowhere');
    assert.equal(h.asked.length, 2);
    assert.equal(new URL(h.asked[1]?.url ?? '').pathname, '/as2/authorize', 'the user signs in at the new one');
    assert.equal((await h.store.binding(protectedAt(base)))?.issuer, `${base}/as2`);
    assert.deepEqual(h.failures, []);
    assert.equal(h.conn.state.kind, 'running', 'the session went on');
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
    assert.deepEqual(h.gaveUp, [], 'one notice, not a give-up notice besides');
    h.signIn.dispose();
  });
});
