/**
 * Credentials follow the destination (issue 41, item 1), in plain Node: the real Connection,
 * transports, SDK OAuth client and SignInService sign in to test/fixtures/oauthServer.mjs; then a
 * definition of the same name at another URL starts, in the next window (the same SecretStorage).
 * No token may reach it: a local HTTP server records every header it is sent.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { approvingUser, connect, fixture, harness, killFixtures, signInService, stats, whoami } from './support/signInHarness';

after(killFixtures);

interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
}

/** A server that asks for sign-in and never grants it, recording what every request carried. */
async function recorder(): Promise<{ base: string; seen: Recorded[]; close(): Promise<void> }> {
  const seen: Recorded[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    if ((req.url ?? '').startsWith('/mcp')) res.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

void describe('credentials follow the destination (issue 41)', () => {
  void it('a same-named server at another URL gets no Authorization header, on its first request or any other', async () => {
    const base = await fixture();
    const first = harness(base, approvingUser);
    await first.conn.start();
    assert.equal(first.conn.state.kind, 'running', JSON.stringify(first.conn.state));
    await first.conn.shutdown();
    first.signIn.dispose();

    // The next window: another definition named "protected", at another URL.
    const other = await recorder();
    const next = signInService(() => Promise.resolve('declined'), first.secrets);
    const conn = connect(next, other.base);
    await conn.start();
    assert.ok(other.seen.length > 0, 'the other server was contacted');
    assert.equal(other.seen[0]?.path, '/mcp');
    assert.deepEqual(
      other.seen.filter((r) => r.authorization !== undefined),
      [],
      'no request to the other URL carried credentials',
    );
    await conn.shutdown();
    next.signIn.dispose();
    await other.close();
  });

  void it('a same-named server at another URL signs in anew, and the first keeps its own sign-in', async () => {
    const a = await fixture();
    const b = await fixture();
    const windowA = harness(a, approvingUser);
    await windowA.conn.start();
    assert.equal(windowA.asked.length, 1);
    await windowA.conn.shutdown();
    windowA.signIn.dispose();

    // Another window, "protected" at b: asked to sign in there, its own registration and token.
    const windowB = signInService(approvingUser, windowA.secrets);
    const atB = connect(windowB, b);
    await atB.start();
    assert.equal(atB.state.kind, 'running', JSON.stringify(atB.state));
    assert.equal(windowB.asked.length, 1, 'signed in anew at the other URL');
    assert.equal(windowB.asked[0]?.serverUrl, `${b}/mcp`);
    assert.equal((await stats(b)).registrations.length, 1);
    await atB.shutdown();
    windowB.signIn.dispose();

    // Back in a window with "protected" at a: its token still works, nobody is asked.
    const again = harness(a, approvingUser, windowA.secrets);
    await again.conn.start();
    assert.equal(again.conn.state.kind, 'running', JSON.stringify(again.conn.state));
    assert.equal(again.asked.length, 0, 'the sign-in at the other URL did not replace this one');
    assert.match(await whoami(again.conn), /^client /);
    await again.conn.shutdown();
    again.signIn.dispose();
  });
});
