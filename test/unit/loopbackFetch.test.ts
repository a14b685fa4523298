/**
 * The loopback client (src/servers/loopbackFetch.ts): which requests it takes, and that a whole
 * MCP session with a server on this machine (initialize, calls, a pushed elicitation on the
 * call's event stream, cancelling a call) runs over it, with `fetch` out of the way. The SDK fixture
 * server over Streamable HTTP and our transport factory; nothing mocked but `fetch`, replaced by
 * one that fails so that a request which still went through it would show.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ElicitResult } from '@modelcontextprotocol/client';
import { startListening } from './support/listeningFixture';
import type { ServerDefinition } from '../../src/config/parse/definitions';
import { HostClient } from '../../src/servers/hostClient';
import { isLoopback, loopbackFetch, loopbackRequest } from '../../src/servers/loopbackFetch';
import { createTransport } from '../../src/servers/transports';

const FIXTURES = path.join(__dirname, '..', 'fixtures');

/** Stands in for the extension host's `fetch` while the transport is made: any use of it fails the request. */
const usedFetch: string[] = [];
const noFetch = (input: string | URL | Request): Promise<Response> => {
  usedFetch.push(String(input instanceof Request ? input.url : input));
  return Promise.reject(new Error('fetch was used for a loopback request'));
};

void describe('loopbackFetch: which requests it takes', () => {
  void it('knows loopback hosts from others', () => {
    for (const u of [
      'http://localhost:1/mcp',
      'http://LOCALHOST/',
      'http://127.0.0.1:9/',
      'http://127.10.0.3/',
      'http://[::1]:8080/',
      'http://a.localhost/',
    ]) {
      assert.equal(isLoopback(new URL(u)), true, u);
    }
    for (const u of [
      'http://10.0.0.1/',
      'http://example.com/',
      'http://128.0.0.1/',
      'http://127.0.0.1.nip.io/',
      'http://[::2]/',
      'http://localhost.example/',
    ]) {
      assert.equal(isLoopback(new URL(u)), false, u);
    }
  });

  void it("takes the SDK's requests to a plain-HTTP loopback server and leaves everything else to fetch", () => {
    const manual: RequestInit = { method: 'post', redirect: 'manual', body: '{}', headers: new Headers({ 'Mcp-Session-Id': 's1' }) };
    assert.deepEqual(loopbackRequest('http://127.0.0.1:5/mcp', manual)?.headers, { 'mcp-session-id': 's1' });
    assert.equal(loopbackRequest('http://127.0.0.1:5/mcp', manual)?.method, 'POST');
    // fetch's own behaviour is kept wherever it differs: TLS, remote hosts, redirects it follows, other bodies.
    assert.equal(loopbackRequest('https://127.0.0.1:5/mcp', manual), undefined);
    assert.equal(loopbackRequest('http://example.com/mcp', manual), undefined);
    assert.equal(loopbackRequest('http://127.0.0.1:5/mcp', { ...manual, redirect: 'follow' }), undefined);
    assert.equal(loopbackRequest('http://127.0.0.1:5/mcp', { method: 'GET' }), undefined);
    assert.equal(loopbackRequest('http://127.0.0.1:5/mcp', { ...manual, body: new Uint8Array(2) }), undefined);
    assert.equal(loopbackRequest(new Request('http://127.0.0.1:5/mcp'), manual), undefined);
  });
});

void describe('loopbackFetch against a raw HTTP server', () => {
  let server: http.Server;
  let base = '';
  let connections = 0;
  /** Resolves when the server sees the streaming response's connection close. */
  let streamClosed: Promise<void> = Promise.resolve();

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/stream') {
        streamClosed = new Promise((r) => res.on('close', r));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: first\n\n');
        return; // held open until the client goes away
      }
      if (req.url === '/redirect') return void res.writeHead(307, { location: '/elsewhere' }).end();
      if (req.url === '/empty') return void res.writeHead(204).end();
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'x-seen': req.headers['x-test'] ?? '' }).end(body));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  void it('sends body and headers, and keeps one connection alive for calls in a row', async () => {
    const f = loopbackFetch(noFetch);
    const before = connections;
    for (const n of [1, 2, 3]) {
      const res = await f(`${base}/echo`, { method: 'POST', redirect: 'manual', headers: { 'x-test': `t${n}` }, body: `{"n":${n},"é":1}` });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('x-seen'), `t${n}`);
      assert.equal(res.url, `${base}/echo`);
      assert.deepEqual(await res.json(), { n, é: 1 });
    }
    assert.equal(connections - before, 1);
    assert.deepEqual(usedFetch, []);
  });

  void it('hands a redirect back unfollowed, with its location, and a 204 without a body', async () => {
    const f = loopbackFetch(noFetch);
    const moved = await f(`${base}/redirect`, { method: 'POST', redirect: 'manual', body: '{}' });
    assert.equal(moved.status, 307);
    assert.equal(moved.headers.get('location'), '/elsewhere');
    const empty = await f(`${base}/empty`, { method: 'POST', redirect: 'manual', body: '{}' });
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
  });

  void it('resolves on the headers of a stream, and aborting ends the stream and its connection', async () => {
    const f = loopbackFetch(noFetch);
    const ac = new AbortController();
    const res = await f(`${base}/stream`, { method: 'GET', redirect: 'manual', signal: ac.signal });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value as Uint8Array), 'data: first\n\n');
    ac.abort();
    await assert.rejects(reader.read(), { name: 'AbortError' });
    await streamClosed;
  });

  void it("goes around a wrapped http.request, as the extension host's proxy patch wraps it", async () => {
    // VS Code replaces the http module's `request` (and `get`) with a proxy-resolving wrapper.
    const original = http.request;
    const wrapped: string[] = [];
    http.request = ((...args: Parameters<typeof http.request>) => {
      wrapped.push(String(args[0]));
      return original(...args);
    }) as typeof http.request;
    try {
      const res = await loopbackFetch(noFetch)(`${base}/echo`, { method: 'POST', redirect: 'manual', body: '{"via":"ClientRequest"}' });
      assert.deepEqual(await res.json(), { via: 'ClientRequest' });
    } finally {
      http.request = original;
    }
    assert.deepEqual(wrapped, []);
  });

  void it('rejects when nothing listens, as fetch does', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await assert.rejects(loopbackFetch(noFetch)(`http://127.0.0.1:${port}/mcp`, { method: 'POST', redirect: 'manual', body: '{}' }), {
      code: 'ECONNREFUSED',
    });
  });

  void it('rejects at once on a signal already aborted, without sending', async () => {
    const f = loopbackFetch(noFetch);
    const before = connections;
    await assert.rejects(f(`${base}/echo`, { method: 'POST', redirect: 'manual', body: '{}', signal: AbortSignal.abort() }), {
      name: 'AbortError',
    });
    assert.equal(connections, before);
  });
});

void describe('an MCP session with an SDK server on loopback, through our transport factory', () => {
  let child: ChildProcess;
  let url = '';

  before(async () => {
    ({ child, url } = await startListening(process.execPath, [path.join(FIXTURES, 'httpServer.mjs'), '0', 'loopback']));
  });
  after(() => {
    child.kill();
  });

  void it('initializes, calls, answers a pushed elicitation and cancels a call without fetch', async () => {
    const def: ServerDefinition = { name: 'loopback', source: { kind: 'setting', scope: 'user' }, type: 'http', url, headers: {} };
    const realFetch = globalThis.fetch;
    globalThis.fetch = noFetch;
    let prepared;
    try {
      prepared = createTransport(def, { stderr: () => undefined, warn: () => undefined });
    } finally {
      globalThis.fetch = realFetch;
    }
    const client = new HostClient(
      { name: 'unit', version: '0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'legacy' } },
    );
    let answer = (): ElicitResult => ({ action: 'accept', content: { name: 'Ada' } });
    client.setElicitationHandler(() => Promise.resolve(answer()));
    await client.connect(prepared.transport);
    try {
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'over node:http' } });
      assert.deepEqual(echoed.content, [{ type: 'text', text: 'over node:http' }]);
      // askName is registered after initialize: the listing follows list_changed.
      await client.listTools();
      const asked = await client.callTool({ name: 'askName' });
      assert.match(JSON.stringify(asked.content), /Ada/);
      // Cancelled while the server waits on the user: the call's event stream is open for sure.
      const ac = new AbortController();
      answer = () => {
        ac.abort();
        return { action: 'cancel' };
      };
      await assert.rejects(client.callTool({ name: 'askName' }, { signal: ac.signal }), /abort/i);
      const again = await client.callTool({ name: 'echo', arguments: { text: 'still there' } });
      assert.deepEqual(again.content, [{ type: 'text', text: 'still there' }]);
    } finally {
      await client.close();
    }
    assert.deepEqual(usedFetch, []);
  });
});
