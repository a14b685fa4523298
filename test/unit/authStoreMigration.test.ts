/**
 * Sign-in entries of the old form, under the server's name alone (issue 41): they migrate once to
 * the name and destination they were made for, on the resource they record, and go nowhere else.
 * The client secret of a pre-registered client goes to the first authorization server that asks.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { AuthStore, resourceCovers } from '../../src/servers/auth/authStore';
import { approvingUser, fixture, harness, killFixtures, MapSecrets, whoami } from './support/signInHarness';

after(killFixtures);

const P = 'mcpElicitation.oauth';
const ISSUER = 'https://as.example';
const TOKENS = { access_token: 'old-access', refresh_token: 'old-refresh', token_type: 'Bearer', issuer: ISSUER };

/** A SecretStorage as the previous release left it: binding and client secret under the name alone. */
function legacy(resource: string, secret?: string): MapSecrets {
  const s = new MapSecrets();
  s.map.set(`${P}/server/linear`, JSON.stringify({ issuer: ISSUER, resource }));
  s.map.set(`${P}/tokens/${ISSUER} ${resource}`, JSON.stringify(TOKENS));
  if (secret !== undefined) s.map.set(`${P}/clientSecret/linear`, secret);
  return s;
}

void describe('old sign-in entries migrate once, on the resource they record (issue 41)', () => {
  void it('an old entry for this URL is used, moved under name and destination, and its client secret pinned to its issuer', async () => {
    const secrets = legacy('https://mcp.linear.example/mcp', 'client-secret');
    const store = new AuthStore(secrets);
    const at = { name: 'linear', url: 'https://mcp.linear.example/mcp' };
    assert.equal((await store.tokensOf(at))?.access_token, 'old-access');
    assert.ok(!secrets.map.has(`${P}/server/linear`), 'the old binding is gone');
    assert.ok(!secrets.map.has(`${P}/clientSecret/linear`), 'the old secret is gone');
    assert.ok(secrets.map.has(`${P}/binding/linear https://mcp.linear.example/mcp`));
    assert.equal(await store.clientSecret(at, 'https://other-as.example'), undefined, 'not to another authorization server');
    assert.equal(await store.clientSecret(at, ISSUER), 'client-secret');
    // Once: a second read finds the new entry.
    assert.equal((await new AuthStore(secrets).tokensOf(at))?.access_token, 'old-access');
  });

  void it('an old entry for another URL is not used by a same-named server, and stays for its own', async () => {
    const secrets = legacy('https://mcp.linear.example/mcp', 'client-secret');
    const store = new AuthStore(secrets);
    const elsewhere = { name: 'linear', url: 'https://proxy.attacker.example/mcp' };
    assert.equal(await store.binding(elsewhere), undefined);
    assert.equal(await store.tokensOf(elsewhere), undefined);
    assert.equal(await store.isSignedIn(elsewhere), false);
    assert.equal(await store.clientSecret(elsewhere, ISSUER), undefined, 'nor the secret, to any issuer');
    assert.equal(await store.clientSecret(elsewhere), undefined);
    assert.ok(secrets.map.has(`${P}/server/linear`), 'left for the definition it was made for');
    assert.ok(secrets.map.has(`${P}/clientSecret/linear`));
    // Same origin, a path the resource does not cover: not the resource either.
    assert.equal(await store.tokensOf({ name: 'linear', url: 'https://mcp.linear.example/mcp-other' }), undefined);
    assert.equal(await store.tokensOf({ name: 'linear', url: 'http://mcp.linear.example/mcp' }), undefined, 'another scheme');
  });

  void it('an old entry whose resource is the whole origin (protected resource metadata) covers that origin’s paths', async () => {
    const store = new AuthStore(legacy('https://mcp.linear.example/'));
    assert.equal((await store.tokensOf({ name: 'linear', url: 'https://mcp.linear.example/v2/mcp' }))?.access_token, 'old-access');
  });

  void it('an old client secret with no old sign-in to vouch for it is not used', async () => {
    const secrets = new MapSecrets();
    secrets.map.set(`${P}/clientSecret/linear`, 'orphan-secret');
    const store = new AuthStore(secrets);
    assert.equal(await store.clientSecret({ name: 'linear', url: 'https://mcp.linear.example/mcp' }, ISSUER), undefined);
  });

  void it('a new client secret goes to the first authorization server that asks, and to no other; setting it again frees it', async () => {
    const store = new AuthStore(new MapSecrets());
    const at = { name: 'linear', url: 'https://mcp.linear.example/mcp' };
    await store.setClientSecret(at, 's3cret');
    assert.equal(await store.clientSecret({ ...at, url: 'https://elsewhere.example/mcp' }, ISSUER), undefined, 'not at another URL');
    assert.equal(await store.clientSecret(at, ISSUER), 's3cret');
    assert.equal(await store.clientSecret(at, 'https://other-as.example'), undefined);
    assert.equal(await store.clientSecret(at, ISSUER), 's3cret');
    await store.setClientSecret(at, 's3cret-2');
    assert.equal(await store.clientSecret(at, 'https://other-as.example'), 's3cret-2');
  });

  void it('a binding whose resource does not cover the URL is not used', async () => {
    const secrets = new MapSecrets();
    const at = { name: 'linear', url: 'https://mcp.linear.example/mcp' };
    await new AuthStore(secrets).saveTokens(at, { issuer: ISSUER, resource: 'https://elsewhere.example/mcp' }, TOKENS);
    assert.equal(await new AuthStore(secrets).tokensOf(at), undefined);
  });

  void it('resourceCovers: origin and path prefix, by whole segments', () => {
    assert.equal(resourceCovers('https://a.example/mcp', 'https://a.example/mcp'), true);
    assert.equal(resourceCovers('https://a.example/mcp', 'https://a.example/mcp/sub?x=1'), true);
    assert.equal(resourceCovers('https://a.example', 'https://a.example/mcp'), true);
    assert.equal(resourceCovers('https://a.example/mcp', 'https://a.example/mcpx'), false);
    assert.equal(resourceCovers('https://a.example/mcp', 'https://a.example:8443/mcp'), false);
    assert.equal(resourceCovers('not a url', 'https://a.example/mcp'), false);
  });

  void it('a real sign-in left in the old form: the next window uses it without asking, once migrated', async () => {
    const base = await fixture();
    const first = harness(base, approvingUser);
    await first.conn.start();
    await first.conn.shutdown();
    first.signIn.dispose();
    // Rewritten as the previous release kept it.
    const key = `${P}/binding/protected ${base}/mcp`;
    const binding = first.secrets.map.get(key);
    assert.ok(binding, [...first.secrets.map.keys()].join('\n'));
    first.secrets.map.delete(key);
    first.secrets.map.set(`${P}/server/protected`, binding);

    const next = harness(base, approvingUser, first.secrets);
    await next.conn.start();
    assert.equal(next.conn.state.kind, 'running', JSON.stringify(next.conn.state));
    assert.equal(next.asked.length, 0, 'nobody asked');
    assert.match(await whoami(next.conn), /^client /);
    assert.ok(first.secrets.map.has(key) && !first.secrets.map.has(`${P}/server/protected`), 'migrated');
    await next.conn.shutdown();
    next.signIn.dispose();
  });
});
