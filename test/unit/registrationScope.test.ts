/**
 * The scope of a dynamic registration (src/servers/auth/registrationScope.ts): the SDK's request
 * keeps what it asks for and gains every scope the resource advertises, so an authorization server
 * that holds a client to its registered scope (oidc-provider; the e2e suite's oidcSignIn.test.ts)
 * lets a later step-up through. Other requests pass untouched.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { widenRegistrationScope, widenScope } from '../../src/servers/auth/registrationScope';

const ENDPOINT = 'https://as.example.com/reg';

/** A fetch that records the bodies it was sent. */
function recording(): { fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>; bodies: unknown[] } {
  const bodies: unknown[] = [];
  return {
    bodies,
    fetch: (_input, init) => {
      bodies.push(init?.body);
      return Promise.resolve(new Response('{}', { status: 201 }));
    },
  };
}

void describe('registration scope', () => {
  void it('adds the scopes the resource advertises and keeps the order of what was asked', () => {
    assert.equal(widenScope('mcp:read offline_access', ['mcp:read', 'mcp:write']), 'mcp:read offline_access mcp:write');
    assert.equal(widenScope('mcp:read', []), 'mcp:read');
    // A scope that is not a scope token (RFC 6749 §3.3) is not passed on.
    assert.equal(widenScope('a', ['b c', 'd"', '']), 'a');
  });

  void it('rewrites the registration request only: its JSON gets the wider scope, every other field as it was', async () => {
    const r = recording();
    const f = widenRegistrationScope(r.fetch, () => ({ endpoint: ENDPOINT, scopes: ['mcp:read', 'mcp:write'] }));
    const metadata = { client_name: 'x', redirect_uris: ['http://127.0.0.1:1/cb'], scope: 'mcp:read offline_access' };
    await f(ENDPOINT, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
    assert.deepEqual(JSON.parse(r.bodies[0] as string), { ...metadata, scope: 'mcp:read offline_access mcp:write' });

    // A token request, a registration elsewhere, one without `scope`, one that is not JSON: untouched.
    const untouched: [string, RequestInit][] = [
      ['https://as.example.com/token', { method: 'POST', body: 'grant_type=refresh_token' }],
      ['https://other.example.com/reg', { method: 'POST', body: JSON.stringify(metadata) }],
      [ENDPOINT, { method: 'POST', body: JSON.stringify({ client_name: 'x' }) }],
      [ENDPOINT, { method: 'POST', body: 'not json' }],
      [ENDPOINT, { method: 'GET' }],
    ];
    for (const [url, init] of untouched) await f(url, init);
    assert.deepEqual(
      r.bodies.slice(1),
      untouched.map(([, init]) => init.body),
    );
  });

  void it('before discovery (no registration endpoint known) nothing is rewritten', async () => {
    const r = recording();
    const f = widenRegistrationScope(r.fetch, () => ({ endpoint: undefined, scopes: ['mcp:write'] }));
    const body = JSON.stringify({ scope: 'mcp:read' });
    await f(ENDPOINT, { method: 'POST', body });
    assert.deepEqual(r.bodies, [body]);
  });
});
