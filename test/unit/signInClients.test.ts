/**
 * Client registration other than dynamic (issue 25, item 5) in plain Node against
 * test/fixtures/oauthServer.mjs: a client registered in advance (`clientId` in the configuration,
 * its secret in SecretStorage) and a client ID metadata document (`clientMetadataUrl`).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { approvingUser, connect, fixture, killFixtures, signInService, stats, whoami, protectedAt } from './support/signInHarness';

after(killFixtures);

void describe('sign-in with a pre-registered client or a client ID metadata document (plain Node, real fixture)', () => {
  void it('a pre-registered confidential client: no registration, the secret from the secret store authenticates the token request, never a log line', async () => {
    const base = await fixture({ FIXTURE_CLIENT: 'pre-id:s3cret-value' });
    const h = signInService(approvingUser);
    await h.store.setClientSecret(protectedAt(base), 's3cret-value');
    const conn = connect(h, base, { clientId: 'pre-id' });
    await conn.start();
    assert.equal(conn.state.kind, 'running', JSON.stringify(conn.state));
    const s = await stats(base);
    assert.equal(s.registrations.length, 0, 'nothing registered');
    assert.equal(s.authorizations[0]?.['client_id'], 'pre-id');
    assert.deepEqual(s.clientAuth, ['client_secret_basic']);
    assert.match(await whoami(conn), /^client pre-id /);
    assert.ok(h.secretsLogged.includes('s3cret-value'), 'registered with the log redaction');
    assert.ok(!h.logs.for('protected').lines.some((l) => l.includes('s3cret-value')));
    await conn.shutdown();

    // Sign Out forgets the secret with the tokens.
    assert.equal(await h.signIn.signOut(protectedAt(base)), true);
    assert.equal(await h.store.clientSecret(protectedAt(base)), undefined);
    h.signIn.dispose();
  });

  void it('a pre-registered client without its secret: the sign-in ends naming the server, the client and what to do', async () => {
    const base = await fixture({ FIXTURE_CLIENT: 'pre-id:s3cret-value' });
    const h = signInService(approvingUser);
    const conn = connect(h, base, { clientId: 'pre-id' });
    await conn.start();
    assert.ok(conn.state.kind === 'error' && conn.state.gaveUp, JSON.stringify(conn.state));
    assert.equal(h.failures.length, 1);
    assert.match(
      h.failures[0] ?? '',
      /^protected: the authorization server did not accept client "pre-id" \(invalid_client: .*Set Client Secret for Server…/,
    );
    assert.equal((await stats(base)).codeGrants, 0);
    h.signIn.dispose();
  });

  void it('a client ID metadata document: where the authorization server takes them, its URL is the client id and nothing is registered', async () => {
    const base = await fixture({ FIXTURE_CIMD: '1' });
    const h = signInService(approvingUser);
    const doc = 'https://client.example.com/mcp-elicitation-host.json';
    const conn = connect(h, base, { clientMetadataUrl: doc });
    await conn.start();
    assert.equal(conn.state.kind, 'running', JSON.stringify(conn.state));
    const s = await stats(base);
    assert.equal(s.registrations.length, 0);
    assert.equal(s.authorizations[0]?.['client_id'], doc);
    assert.deepEqual(s.clientAuth, ['none'], 'a public client');
    assert.equal(await whoami(conn), `client ${doc} scopes mcp:read`);
    await conn.shutdown();
    h.signIn.dispose();
  });
});
