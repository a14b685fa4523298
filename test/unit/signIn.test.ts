/**
 * Sign-in (issue 25) in plain Node, end to end: the real Connection, transports, SDK OAuth client,
 * loopback redirect and SignInService against test/fixtures/oauthServer.mjs (support/signInHarness.ts).
 * Bad input is in signInBadInput.test.ts, pre-registered clients in signInClients.test.ts.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { MapSecrets, approvingUser, fixture, harness, killFixtures, stats, whoami, protectedAt } from './support/signInHarness';

after(killFixtures);

void describe('sign-in to a protected MCP server (plain Node, real fixture)', () => {
  void it('401 → consent → browser → redirect → tool call; then refresh without the user; then sign-out', async () => {
    const base = await fixture();
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running', JSON.stringify(h.conn.state));
    assert.equal(h.asked.length, 1, 'the user was asked once');
    assert.equal(h.asked[0]?.server, 'protected');
    const authUrl = new URL(h.asked[0]?.url ?? '');
    assert.equal(authUrl.origin + authUrl.pathname, `${base}/as/authorize`);
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authUrl.searchParams.get('resource'), `${base}/mcp`, 'RFC 8707 resource indicator');
    assert.equal(authUrl.searchParams.get('scope'), 'mcp:read', "the scope of the 401's WWW-Authenticate, not scopes_supported");
    const s = await stats(base);
    assert.equal(s.registrations.length, 1, 'dynamic registration');
    assert.equal(s.registrations[0]?.application_type, 'native', 'RFC 7591 application_type for a loopback redirect');
    assert.match(await whoami(h.conn), /^client \S+ scopes mcp:read$/);
    assert.equal(h.signIn.stateOf('protected'), 'signedIn');

    // Tokens only in the secret store, keyed by issuer and resource; registered with the log's redaction.
    const keys = [...h.secrets.map.keys()];
    assert.ok(keys.includes(`mcpElicitation.oauth/tokens/${base}/as ${base}/mcp`), keys.join('\n'));
    const tokens = await h.store.tokensOf(protectedAt(base));
    assert.ok(tokens?.access_token && h.secretsLogged.includes(tokens.access_token));
    assert.ok(!h.logs.for('protected').lines.some((l) => l.includes(tokens.access_token)), 'no token in the log');

    // The server stops taking the access token: the refresh token gets a new one, nobody is asked.
    await fetch(`${base}/fixture/expire`, { method: 'POST' });
    assert.match(await whoami(h.conn), /^client /);
    assert.equal((await stats(base)).refreshGrants, 1);
    assert.equal(h.asked.length, 1, 'a refresh asks nobody');

    // Sign out: the tokens are gone; starting again asks again.
    await h.conn.stop();
    assert.equal(await h.signIn.signOut(protectedAt(base)), true);
    assert.equal(await h.store.tokensOf(protectedAt(base)), undefined);
    assert.equal(h.signIn.stateOf('protected'), 'signedOut');
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running');
    assert.equal(h.asked.length, 2);
    assert.equal((await stats(base)).registrations.length, 1, 'the registered client is reused');
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('the loopback listener opens at the first sign-in, not when a remote server starts: a stored token opens none', async () => {
    const base = await fixture();
    const first = harness(base, approvingUser);
    await first.conn.start();
    assert.equal(first.asked.length, 1);
    assert.match(first.redirect.current() ?? '', /^http:\/\/127\.0\.0\.1:\d+\/mcp-elicitation\/oauth\/callback$/);
    await first.conn.shutdown();
    first.signIn.dispose();

    // The next window, with the token in its secret store: the server starts and answers, no listener opens.
    const next = harness(base, approvingUser, first.secrets);
    await next.conn.start();
    assert.equal(next.conn.state.kind, 'running', JSON.stringify(next.conn.state));
    assert.match(await whoami(next.conn), /^client /);
    assert.equal(next.asked.length, 0, 'nobody asked');
    assert.equal(next.redirect.current(), undefined, 'no loopback listener');
    await next.conn.shutdown();
    next.signIn.dispose();
  });

  void it('a token about to expire is refreshed before it is sent', async () => {
    // Tokens live 30 s, inside the refresh margin: each new connection refreshes first.
    const base = await fixture({ FIXTURE_TOKEN_SECONDS: '30' });
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running');
    const before = (await stats(base)).refreshGrants;
    assert.match(await whoami(h.conn), /^client /);
    assert.ok((await stats(base)).refreshGrants > before, 'refreshed before the call');
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('step-up: a tool that needs mcp:write gets 403 insufficient_scope, the user is asked for the wider scope, and the call then runs', async () => {
    const base = await fixture();
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.equal(h.asked.length, 1);
    const r = (await h.conn.sendLeg('tools/call', { name: 'write', arguments: {} }, {}, 'write')) as CallToolResult;
    assert.deepEqual(r.content, [{ type: 'text', text: 'written' }]);
    assert.equal(h.asked.length, 2, 'asked again, for the wider scope');
    const scope = new URL(h.asked[1]?.url ?? '').searchParams.get('scope') ?? '';
    assert.deepEqual(scope.split(' ').sort(), ['mcp:read', 'mcp:write']);
    assert.match(await whoami(h.conn), /scopes mcp:read mcp:write$/);
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('step-up with an authorization server that holds a client to its registered scope: the registration named every scope the resource advertises', async () => {
    // As oidc-provider does (test/e2e/oidcSignIn.test.ts): registered for the 401's mcp:read only,
    // the step-up's mcp:write would be refused with invalid_scope.
    const base = await fixture({ FIXTURE_STRICT_SCOPE: '1' });
    const h = harness(base, approvingUser);
    await h.conn.start();
    const s = await stats(base);
    assert.deepEqual(s.registrations[0]?.scope?.split(' ').sort(), ['mcp:read', 'mcp:write']);
    assert.equal(
      new URL(h.asked[0]?.url ?? '').searchParams.get('scope'),
      'mcp:read',
      'the request still asks only for what the 401 named',
    );
    const r = (await h.conn.sendLeg('tools/call', { name: 'write', arguments: {} }, {}, 'write')) as CallToolResult;
    assert.deepEqual(r.content, [{ type: 'text', text: 'written' }]);
    assert.deepEqual(h.failures, []);
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('a server that lets initialize through answers 401 to the first tools/list: that signs in, and the tools are listed', async () => {
    // As the conformance suite's 2025-11-25 auth scenarios do; the extension used to end up running
    // with no tools, and a liveness probe meeting the same 401 then dropped the session.
    const base = await fixture({ FIXTURE_AUTH_MODE: 'openInitialize' });
    const h = harness(base, approvingUser, new MapSecrets(), 30_000, '2025-11-25');
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running', JSON.stringify(h.conn.state));
    assert.equal(h.asked.length, 1, 'the user was asked once');
    assert.deepEqual(
      h.conn.tools.map((t) => t.name),
      ['whoami', 'write'],
      h.logs.for('protected').lines.join('\n'),
    );
    assert.match(await whoami(h.conn), /^client \S+ scopes mcp:read$/);
    assert.equal(h.conn.state.kind, 'running', 'still running: the challenge did not end the session');
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('declining the consent opens nothing, asks once, and leaves the server stopped with the reason', async () => {
    const base = await fixture();
    const h = harness(base, () => Promise.resolve('declined'));
    await h.conn.start();
    assert.ok(h.conn.state.kind === 'error' && h.conn.state.gaveUp);
    assert.match(h.conn.state.kind === 'error' ? h.conn.state.reason : '', /declined/);
    assert.equal((await stats(base)).authorizations.length, 0, 'the authorization URL was never opened');
    assert.deepEqual(h.failures, [], 'no error notice for a choice the user made');
    assert.deepEqual(h.gaveUp, [], 'nor a give-up notice: the user knows why the server stopped');
    h.signIn.dispose();
  });
});
