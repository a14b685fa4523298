/**
 * Where sign-in writes (plain Node, real fixture): into the server's own log, beside its
 * connection's lines, so a user who opens **Show Log** after a failed sign-in reads why there;
 * and never a token or an authorization code, even when the authorization server quotes the code
 * back in its error. The logs redact as util/log.ts does (support/signInHarness.ts).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { AuthStore } from '../../src/servers/auth/authStore';
import { LazySignIn } from '../../src/servers/auth/lazySignIn';
import * as signInModule from '../../src/servers/auth/signIn';
import * as engine from '../../src/servers/httpTransports';
import { redactSecrets } from '../../src/util/redact';
import {
  approvingUser,
  connect,
  fixture,
  killFixtures,
  MapSecrets,
  ServerLogsFake,
  signInService,
  stats,
  type User,
  protectedAt,
} from './support/signInHarness';

after(killFixtures);

void describe('sign-in lines go to the server’s own log (plain Node, real fixture)', () => {
  void it('one server signs in, another is declined: each log tells its own, after its connection’s lines', async () => {
    // Two authorization servers: tokens are kept per issuer and resource, so one would sign both in.
    const [base, otherBase] = await Promise.all([fixture(), fixture()]);
    const h = signInService((request, signal) =>
      request.server === 'beta' ? Promise.resolve('declined') : approvingUser(request, signal),
    );
    const alpha = connect(h, base, { name: 'alpha' });
    await alpha.start();
    assert.equal(alpha.state.kind, 'running', JSON.stringify(alpha.state));
    const beta = connect(h, otherBase, { name: 'beta' });
    await beta.start();
    assert.equal(beta.state.kind, 'error');

    const a = h.logs.for('alpha').lines;
    const b = h.logs.for('beta').lines;
    const requires = a.findIndex((l) => l.startsWith('the server requires sign-in ('));
    assert.ok(requires >= 0 && a.indexOf('signed in') > requires, `alpha's log: the 401, then signed in:\n${a.join('\n')}`);
    assert.ok(b.includes('warn: sign-in ended: sign-in was declined'), `beta's log says why:\n${b.join('\n')}`);
    assert.ok(!a.some((l) => l.includes('sign-in ended')), 'alpha’s log holds nothing of beta’s sign-in');
    assert.ok(!b.includes('signed in'), 'beta’s log holds nothing of alpha’s');
    assert.deepEqual(h.logs.servers().sort(), ['alpha', 'beta'], 'no other log was written');

    // The tokens as stored (not as registered for redaction): in no line of any log.
    const tokens = await h.store.tokensOf({ name: 'alpha', url: `${base}/mcp` });
    assert.ok(tokens?.access_token && tokens.refresh_token);
    for (const server of h.logs.servers()) {
      for (const l of h.logs.for(server).lines) {
        assert.ok(!l.includes(tokens.access_token) && !l.includes(tokens.refresh_token), `${server}: ${l}`);
      }
    }
    await alpha.shutdown();
    h.signIn.dispose();
  });

  void it('an authorization server that quotes the code in invalid_grant: the server’s log and the failure notice say why, with the code redacted', async () => {
    const base = await fixture({ FIXTURE_AUTH_MODE: 'echoCode' });
    // The browser, reading the code off the redirect itself: what the test looks for does not come from the redaction's list.
    const codes: string[] = [];
    const user: User = (request) => {
      void (async () => {
        const back = (await fetch(request.url, { redirect: 'manual' })).headers.get('location') ?? '';
        const code = new URL(back).searchParams.get('code');
        if (code) codes.push(code);
        await fetch(back);
      })().catch(() => undefined);
      return Promise.resolve('opened');
    };
    const h = signInService(user);
    const conn = connect(h, base);
    await conn.start();
    assert.ok(conn.state.kind === 'error' && conn.state.gaveUp, JSON.stringify(conn.state));
    const code = codes[0];
    assert.ok(code, 'the browser brought a code back');
    // The notice the user sees says why, with the code the authorization server quoted redacted
    // (the sentence is the server's own, so the quoting is real, not assumed).
    assert.ok(
      h.failures.some((f) => f.includes('authorization code [redacted] is not valid')),
      `the notice says why, redacted: ${h.failures.join(' | ')}`,
    );
    assert.ok(!h.failures.some((f) => f.includes(code)), `a notice holds the code: ${h.failures.join(' | ')}`);

    const lines = h.logs.for('protected').lines;
    assert.ok(
      lines.includes('warn: sign-in ended: authorization code [redacted] is not valid'),
      `the server's log says why, redacted:\n${lines.join('\n')}`,
    );
    for (const server of h.logs.servers()) {
      for (const l of h.logs.for(server).lines) assert.ok(!l.includes(code), `${server}'s log holds the code: ${l}`);
    }
    h.signIn.dispose();
  });

  void it('Sign Out says in the server’s own log that the stored sign-in was forgotten (or that there was none), after "signed in" and without a secret', async () => {
    const base = await fixture();
    const h = signInService(approvingUser);
    const conn = connect(h, base);
    await conn.start();
    assert.equal(conn.state.kind, 'running', JSON.stringify(conn.state));
    const tokens = await h.store.tokensOf(protectedAt(base));
    assert.ok(tokens?.access_token && tokens.refresh_token);
    // A pre-registered client's secret is forgotten with the tokens: it must not be quoted either.
    const clientSecret = 'client-secret-of-protected';
    await h.store.setClientSecret(protectedAt(base), clientSecret);
    // As the command does: the server stops first, then its sign-in is forgotten.
    await conn.shutdown();

    assert.equal(await h.signIn.signOut(protectedAt(base)), true);
    const lines = h.logs.for('protected').lines;
    assert.ok(lines.indexOf('signed in') >= 0, `signed in first:\n${lines.join('\n')}`);
    assert.equal(lines.at(-1), 'signed out: the stored sign-in was forgotten', `the last line a user reads:\n${lines.join('\n')}`);
    assert.equal(await h.store.isSignedIn(protectedAt(base)), false);
    assert.equal(await h.store.clientSecret(protectedAt(base)), undefined);

    // Again, with nothing left: the log says so, as the notice does ("had no sign-in to forget").
    assert.equal(await h.signIn.signOut(protectedAt(base)), false);
    assert.equal(lines.at(-1), 'sign out: there was no stored sign-in to forget');
    assert.deepEqual(h.logs.servers(), ['protected'], 'no other server’s log was written');
    for (const l of lines) {
      for (const secret of [tokens.access_token, tokens.refresh_token, clientSecret]) assert.ok(!l.includes(secret), `a secret in: ${l}`);
    }
    h.signIn.dispose();
  });

  void it('Sign Out while a sign-in waits for the user: one line says the sign-in ended and why, the next that the stored sign-in was forgotten', async () => {
    const base = await fixture();
    let waiting!: () => void;
    const asked = new Promise<void>((resolve) => (waiting = resolve));
    // The consent dialog stays open until the sign-in is called off, as the real one does.
    const h = signInService((_request, signal) => {
      waiting();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve('cancelled')));
    });
    // Something to forget: a pre-registered client's secret, kept from an earlier Set Client Secret.
    await h.store.setClientSecret(protectedAt(base), 'client-secret-of-protected');
    const conn = connect(h, base);
    const started = conn.start();
    await asked;
    assert.equal(h.signIn.stateOf('protected'), 'signingIn');

    // As the command does: the server stops first, then its sign-in is forgotten.
    await conn.stop();
    assert.equal(await h.signIn.signOut(protectedAt(base)), true);
    await started;

    const lines = h.logs.for('protected').lines;
    const fromSignIn = lines.filter((l) => /sign(ed)?[- ](in|out)/.test(l) && !l.startsWith('the server requires'));
    assert.deepEqual(
      fromSignIn,
      ['warn: sign-in ended: the server was stopped', 'signed out: the stored sign-in was forgotten'],
      `the server's log:\n${lines.join('\n')}`,
    );
    assert.deepEqual(h.failures, [], 'no failure notice: the user called it off');
    assert.equal(h.signIn.stateOf('protected'), 'signedOut');
    assert.equal(await h.store.clientSecret(protectedAt(base)), undefined);
    await conn.shutdown();
    h.signIn.dispose();
  });

  void it('Sign Out while the code is being exchanged: the tokens that come back after it are not kept', async () => {
    const base = await fixture({ FIXTURE_TOKEN_DELAY_MS: '800' });
    const h = signInService(approvingUser);
    const conn = connect(h, base);
    const started = conn.start();
    // The browser came back; the authorization server has the code and answers in 800 ms.
    for (let i = 0; i < 200 && (await stats(base)).codeExchanges === 0; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal((await stats(base)).codeExchanges, 1);
    await conn.stop();
    await h.signIn.signOut(protectedAt(base));
    await started.catch(() => undefined);
    // The token endpoint answered after Sign Out: what it issued must not be signed in now.
    for (let i = 0; i < 100 && (await stats(base)).codeGrants === 0; i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal((await stats(base)).codeGrants, 1, 'the authorization server did issue the tokens');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await h.store.isSignedIn(protectedAt(base)), false, 'no tokens kept after Sign Out');
    assert.equal(h.signIn.stateOf('protected') === 'signedIn', false);
    const lines = h.logs.for('protected').lines;
    assert.ok(!lines.includes('signed in'), lines.join('\n'));
    assert.ok(lines.includes('warn: sign-in ended: the server was stopped'), lines.join('\n'));
    h.signIn.dispose();
  });

  void it('Sign Out before the sign-in service is loaded (tokens from an earlier window) writes the same line, once', async () => {
    const secrets = new MapSecrets();
    // An earlier window signed in: the tokens are in SecretStorage, this window's store has not seen them change.
    const remote = { name: 'remote', url: 'http://127.0.0.1:9/mcp' };
    await new AuthStore(secrets).saveTokens(
      remote,
      { issuer: 'http://127.0.0.1:9', resource: 'http://127.0.0.1:9/mcp' },
      { access_token: 'access-from-earlier-window', refresh_token: 'refresh-from-earlier-window', token_type: 'Bearer' },
    );
    const store = new AuthStore(secrets);
    const logs = new ServerLogsFake();
    let loads = 0;
    // Whether the service was loaded when a line was asked for: the stand-in's own branch must write it.
    const loadedWhenLogged: number[] = [];
    const signIn = new LazySignIn(
      {
        store,
        engine: () => engine,
        consent: () => Promise.resolve('declined'),
        failed: () => undefined,
        logFor: (server) => {
          loadedWhenLogged.push(loads);
          return logs.for(server);
        },
        addSecret: (v) => logs.addSecret(v),
        redact: (text) => redactSecrets(text, logs.secrets),
      },
      () => {
        loads++;
        return signInModule;
      },
    );
    assert.equal(await signIn.signOut(remote), true);
    assert.deepEqual(logs.for('remote').lines, ['signed out: the stored sign-in was forgotten']);
    assert.deepEqual(loadedWhenLogged, [0], 'written by the stand-in, before the service was loaded');
    for (const l of logs.for('remote').lines) assert.ok(!l.includes('from-earlier-window'), l);
    assert.equal(await store.isSignedIn(remote), false);
    signIn.dispose();
    store.dispose();
  });
});
