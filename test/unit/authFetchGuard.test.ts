/**
 * The gaps between the SDK's OAuth client and the MCP authorization spec that
 * src/servers/auth/authFetchGuard.ts closes (issue 25, item 2). Each test names its gap.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discoverAuthorizationServerMetadata } from '@modelcontextprotocol/client';
import { AuthRequestRefused, authUrlProblem, guardAuthFetch } from '../../src/servers/auth/authFetchGuard';

const publicServer = new URL('https://mcp.example.com/mcp');
const localServer = new URL('http://127.0.0.1:8123/mcp');

/** A fetch that answers every request with `body` and records what was asked. */
function answering(
  body: string,
  headers: Record<string, string> = {},
): { fetch: (u: string | URL | Request) => Promise<Response>; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    fetch: (u) => {
      asked.push(u instanceof Request ? u.url : String(u));
      return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'application/json', ...headers } }));
    },
  };
}

void describe('OAuth request guard (gaps in the SDK)', () => {
  void it('gap: the SDK fetches http:// authorization server metadata; the guard refuses it for a public server before any request', async () => {
    const meta = JSON.stringify({
      issuer: 'http://auth.example.com',
      authorization_endpoint: 'http://auth.example.com/a',
      token_endpoint: 'http://auth.example.com/t',
      response_types_supported: ['code'],
    });
    // The SDK on its own: reads the http:// document and returns it.
    const plain = answering(meta);
    const found = await discoverAuthorizationServerMetadata('http://auth.example.com', { fetchFn: plain.fetch });
    assert.equal(found?.issuer, 'http://auth.example.com');
    assert.ok(plain.asked.length > 0);
    // Through the guard: refused, and nothing was requested.
    const guarded = answering(meta);
    await assert.rejects(
      discoverAuthorizationServerMetadata('http://auth.example.com', { fetchFn: guardAuthFetch(publicServer, guarded.fetch) }),
      (e: unknown) => e instanceof AuthRequestRefused && /http:\/\/auth\.example\.com is not https/.test(e.message),
    );
    assert.deepEqual(guarded.asked, []);
  });

  void it('gap: metadata may point a public server at an internal address (cloud metadata, private nets, loopback); refused', () => {
    for (const target of [
      'https://169.254.169.254/latest',
      'https://10.0.0.7/token',
      'https://192.168.1.2/as',
      'https://127.0.0.1/as',
      'https://localhost/as',
      'https://[::1]/as',
    ]) {
      assert.match(authUrlProblem(new URL(target), publicServer) ?? '', /internal address/, target);
    }
    assert.equal(authUrlProblem(new URL('https://auth.example.com/as'), publicServer), undefined);
  });

  void it('a server on this machine may use an authorization server on this machine over http (local setups, tests), not a public http one', () => {
    assert.equal(authUrlProblem(new URL('http://127.0.0.1:9000/as'), localServer), undefined);
    assert.equal(authUrlProblem(new URL('https://auth.example.com/as'), localServer), undefined);
    assert.match(authUrlProblem(new URL('http://auth.example.com/as'), localServer) ?? '', /not https/);
  });

  void it('gap: the SDK reads a metadata document whole, whatever its size; the guard stops past 1 MB, declared or streamed', async () => {
    const big = 'x'.repeat(2_000_000);
    const declared = guardAuthFetch(publicServer, () =>
      Promise.resolve(new Response(big, { headers: { 'content-length': String(big.length) } })),
    );
    await assert.rejects(declared('https://auth.example.com/.well-known/oauth-authorization-server'), /more than the 1000000 bytes/);
    const streamed = guardAuthFetch(publicServer, () => Promise.resolve(new Response(big)));
    await assert.rejects(streamed('https://auth.example.com/.well-known/oauth-authorization-server'), /more than the 1000000 bytes/);
    const small = guardAuthFetch(publicServer, () => Promise.resolve(new Response('{"ok":true}')));
    assert.deepEqual(await (await small('https://auth.example.com/x')).json(), { ok: true });
  });

  void it("the server's own origin passes untouched (the MCP endpoint, SSE posts), only its well-known documents are capped", async () => {
    const stream = new ReadableStream<Uint8Array>({ start: () => undefined });
    const endpoint = guardAuthFetch(localServer, () => Promise.resolve(new Response(stream)));
    const res = await endpoint('http://127.0.0.1:8123/messages?sessionId=1');
    assert.equal(res.body, stream, 'an event stream is passed on, not read');
  });
});
