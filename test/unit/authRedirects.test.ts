/**
 * Every hop of an OAuth request is checked (issue 41, item 3): src/servers/auth/authFetchGuard.ts
 * follows redirects by hand (checkedRedirects.ts). Real HTTP servers on 127.0.0.1 play a hostile
 * public authorization server (`auth.example.com`, `other.example.com`, reached through a fetch
 * that resolves those names to local ports, as DNS would) and an internal address it redirects
 * to (a cloud-metadata-like path on 127.0.0.1), which must receive nothing.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthRequestRefused, guardAuthFetch } from '../../src/servers/auth/authFetchGuard';
import type { Fetch } from '../../src/servers/loopbackFetch';

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
}

/** A server that records each request and answers by its path: `/r/<status>?to=<url>` redirects, anything else is `{}`. */
async function recordingServer(): Promise<{ server: http.Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
      });
      const url = new URL(req.url ?? '/', 'http://x');
      const redirect = /^\/r\/(\d{3})$/.exec(url.pathname);
      if (redirect) {
        res.writeHead(Number(redirect[1]), { location: url.searchParams.get('to') ?? '/' }).end('moved');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

const publicServer = new URL('https://mcp.example.com/mcp');

void describe('OAuth requests are checked at every redirect hop', () => {
  let auth: Awaited<ReturnType<typeof recordingServer>>;
  let other: Awaited<ReturnType<typeof recordingServer>>;
  let internal: Awaited<ReturnType<typeof recordingServer>>;
  /** `fetch` with the two public names resolved to the local servers (a redirect fetch follows itself is not rewritten). */
  let resolving: Fetch;

  before(async () => {
    auth = await recordingServer();
    other = await recordingServer();
    internal = await recordingServer();
    const ports: Record<string, number> = { 'auth.example.com': auth.port, 'other.example.com': other.port };
    resolving = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const port = ports[url.hostname];
      if (port === undefined) return fetch(input, init);
      return fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, init);
    };
  });
  beforeEach(() => {
    for (const s of [auth, other, internal]) s.seen.length = 0;
  });
  after(() => {
    for (const s of [auth, other, internal]) s.server.close();
  });

  const metadataUrl = (): string => `http://127.0.0.1:${internal.port}/latest/meta-data/iam/security-credentials/`;
  const redirectTo = (status: number, to: string, host = 'auth.example.com'): string =>
    `https://${host}/r/${status}?to=${encodeURIComponent(to)}`;

  void it('a metadata GET redirected (302) to an internal address is refused, and the internal address receives nothing', async () => {
    const guarded = guardAuthFetch(publicServer, resolving);
    await assert.rejects(
      guarded(redirectTo(302, metadataUrl()), { headers: { accept: 'application/json' } }),
      (e: unknown) =>
        e instanceof AuthRequestRefused &&
        /refused to follow a redirect to http:\/\/127\.0\.0\.1:\d+: .*(not https|internal)/.test(e.message),
    );
    assert.equal(auth.seen.length, 1, 'the authorization server was asked');
    assert.deepEqual(internal.seen, [], 'nothing reached the internal address');
  });

  void it('a registration POST redirected (307, 308) to an internal address is refused before its body goes anywhere', async () => {
    const guarded = guardAuthFetch(publicServer, resolving);
    const registration = JSON.stringify({ client_name: 'MCP Elicitation Host', redirect_uris: ['http://127.0.0.1:1/cb'] });
    for (const status of [307, 308, 302, 303]) {
      await assert.rejects(
        guarded(redirectTo(status, metadataUrl()), { method: 'POST', headers: { 'content-type': 'application/json' }, body: registration }),
        AuthRequestRefused,
        String(status),
      );
    }
    assert.deepEqual(internal.seen, [], 'nothing reached the internal address');
    // A relative Location is resolved against the URL it answered: a redirect to `//127.0.0.1:<port>/…` is the same address.
    await assert.rejects(guarded(redirectTo(307, `//127.0.0.1:${internal.port}/latest/meta-data/`)), AuthRequestRefused);
    assert.deepEqual(internal.seen, []);
  });

  void it('a chain of allowed hops ending at an internal address is refused at that hop', async () => {
    const guarded = guardAuthFetch(publicServer, resolving);
    const last = redirectTo(302, metadataUrl(), 'other.example.com');
    await assert.rejects(guarded(redirectTo(301, last)), AuthRequestRefused);
    assert.equal(auth.seen.length, 1);
    assert.equal(other.seen.length, 1, 'the allowed hop was followed');
    assert.deepEqual(internal.seen, []);
  });

  void it('allowed redirects are followed as a browser would: 302/303 on POST become a body-less GET, 307/308 keep method and body', async () => {
    const guarded = guardAuthFetch(publicServer, resolving);
    const body = '{"client_name":"x"}';
    const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body };
    for (const status of [301, 302, 303]) {
      other.seen.length = 0;
      const res = await guarded(redirectTo(status, 'https://other.example.com/landed'), post);
      assert.deepEqual(await res.json(), { ok: true }, String(status));
      assert.deepEqual(
        other.seen.map((s) => [s.method, s.path, s.body, s.contentType]),
        [['GET', '/landed', '', undefined]],
        `${status}: a GET without the body or its type`,
      );
    }
    for (const status of [307, 308]) {
      other.seen.length = 0;
      await guarded(redirectTo(status, 'https://other.example.com/landed'), post);
      assert.deepEqual(
        other.seen.map((s) => [s.method, s.path, s.body, s.contentType]),
        [['POST', '/landed', body, 'application/json']],
        `${status}: the same POST`,
      );
    }
  });

  void it('Authorization goes on within the origin and not across it; more than five redirects are refused', async () => {
    const guarded = guardAuthFetch(publicServer, resolving);
    const headers = { authorization: 'Basic Y2xpZW50OnNlY3JldA==' };
    await guarded(redirectTo(307, '/landed'), { method: 'POST', headers, body: 'grant_type=x' });
    assert.equal(auth.seen.at(-1)?.path, '/landed');
    assert.equal(auth.seen.at(-1)?.authorization, headers.authorization, 'same origin: kept');
    await guarded(redirectTo(307, 'https://other.example.com/landed'), { method: 'POST', headers, body: 'grant_type=x' });
    assert.equal(other.seen.at(-1)?.authorization, undefined, 'another origin: dropped');

    let chain = 'https://auth.example.com/done';
    for (let i = 0; i < 6; i++) chain = redirectTo(302, chain);
    auth.seen.length = 0;
    await assert.rejects(guarded(chain), (e: unknown) => e instanceof AuthRequestRefused && /more than 5 redirects/.test(e.message));
    assert.equal(auth.seen.length, 6, 'five followed after the first, none past that');
    assert.ok(!auth.seen.some((s) => s.path === '/done'));
  });

  void it("a caller that follows redirects itself (redirect: 'manual', as the SDK's transports do) gets the redirect unfollowed", async () => {
    const guarded = guardAuthFetch(publicServer, resolving);
    const res = await guarded(redirectTo(302, metadataUrl()), { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.deepEqual(internal.seen, []);
  });
});
