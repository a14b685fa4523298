/**
 * Our requests to a loopback Streamable HTTP server, read without the SDK's web streams
 * (src/servers/directPost.ts), and the event-stream parser it reads with (src/servers/sseEvents.ts).
 * Hand-written 2025 and 2026-07-28 servers count every POST, so a request handed back to the SDK
 * is seen to go out once; the real SDK client and our transport factory, nothing mocked.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ServerDefinition } from '../../src/config/parse/definitions';
import { PROTOCOL_VERSION_META_KEY, ProtocolError, type JSONRPCMessage, type TransportSendOptions } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { installDirectPost, sentDirectly } from '../../src/servers/directPost';
import { HandedOver } from '../../src/servers/loopbackFetch';
import { HostClient } from '../../src/servers/hostClient';
import { SseEvents } from '../../src/servers/sseEvents';
import { createTransport } from '../../src/servers/transports';

void describe('SseEvents (the event-stream parser)', () => {
  const all = (chunks: string[]): { events: unknown[]; retry: number[] } => {
    const retry: number[] = [];
    const p = new SseEvents((ms) => retry.push(ms));
    const events = chunks.flatMap((c) => p.feed(c));
    return { events, retry };
  };

  void it('reads events across chunk boundaries, with CRLF, LF and CR line ends', () => {
    const text =
      '\ufeffid: 1\r\nevent: message\r\ndata: {"a":\r\ndata:1}\r\n\r\ndata: two\rdata:  three\r\r: keep-alive\n\nretry: 250\nid: 9\n\n';
    const expected = [
      { event: 'message', data: '{"a":\n1}', id: '1' },
      { event: undefined, data: 'two\n three', id: undefined },
      { event: undefined, data: '', id: '9' },
    ];
    // Cut anywhere, in two or three, or one character at a time (inside a CRLF too): the same events.
    const cuts: string[][] = [[...text]];
    for (let a = 0; a <= text.length; a++) {
      cuts.push([text.slice(0, a), text.slice(a)]);
      for (let b = a; b <= text.length; b += 7) cuts.push([text.slice(0, a), text.slice(a, b), text.slice(b)]);
    }
    for (const chunks of cuts) {
      const { events, retry } = all(chunks);
      assert.deepEqual(events, expected, `chunks ${JSON.stringify(chunks)}`);
      assert.deepEqual(retry, [250]);
    }
  });

  void it('reports an event with an id and empty data (the SDK server’s priming event), drops an unterminated one', () => {
    assert.deepEqual(all(['id: p1\ndata: \n\n', 'data: {"half"']).events, [{ event: undefined, data: '', id: 'p1' }]);
  });
});

void describe('direct POST to a loopback server', () => {
  const posts = new Map<string, number>();
  const gets: (string | undefined)[] = [];
  let server: http.Server;
  let url = '';
  const result = (id: unknown, text: string): string =>
    JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.method === 'GET') {
        const last = req.headers['last-event-id'];
        gets.push(typeof last === 'string' ? last : undefined);
        if (last !== 'r1') return void res.writeHead(405).end();
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end(`id: r2\ndata: ${result(resumeId, 'resumed')}\n\n`);
      }
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const msg = JSON.parse(body) as { id?: unknown; method?: string; params?: { arguments?: { mode?: string } } };
        if (msg.method === 'initialize') {
          res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
          return void res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: msg.id,
              result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw-http', version: '1' } },
            }),
          );
        }
        if (msg.method !== 'tools/call') return void res.writeHead(202).end();
        const mode = msg.params?.arguments?.mode ?? 'sse';
        posts.set(mode, (posts.get(mode) ?? 0) + 1);
        if (mode === 'json') {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
          return void res.end(result(msg.id, 'as json'));
        }
        if (mode === 'expired') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('session s1 is gone');
        if (mode === 'resume') {
          resumeId = msg.id;
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return void res.end('id: r1\ndata: \n\n');
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': keep-alive\n\n');
        res.write(
          `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: (msg.params as { _meta?: { progressToken?: unknown } })?._meta?.progressToken, progress: 1, total: 2 } })}\n\n`,
        );
        res.end(`event: message\ndata: ${result(msg.id, 'as events')}\n\n`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(() => {
    server.close();
  });
  let resumeId: unknown;

  async function client(): Promise<HostClient> {
    const def: ServerDefinition = { name: 'raw-http', source: { kind: 'setting', scope: 'user' }, type: 'http', url, headers: {} };
    const prepared = createTransport(def, { stderr: () => undefined, warn: () => undefined });
    const c = new HostClient({ name: 'unit', version: '0' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } });
    await c.connect(prepared.transport);
    return c;
  }

  void it('reads an event-stream answer with its progress, and a JSON answer', async () => {
    const c = await client();
    try {
      const progress: unknown[] = [];
      const viaEvents = await c.callTool({ name: 't', arguments: { mode: 'sse' } }, { onprogress: (p) => progress.push(p) });
      assert.deepEqual(viaEvents.content, [{ type: 'text', text: 'as events' }]);
      assert.deepEqual(progress, [{ progress: 1, total: 2 }]);
      const viaJson = await c.callTool({ name: 't', arguments: { mode: 'json' } });
      assert.deepEqual(viaJson.content, [{ type: 'text', text: 'as json' }]);
      assert.deepEqual([posts.get('sse'), posts.get('json')], [1, 1]);
    } finally {
      await c.close();
    }
  });

  void it('an answer it does not read (a 404 for an expired session) reaches the SDK, and the request went out once', async () => {
    const c = await client();
    try {
      await assert.rejects(c.callTool({ name: 't', arguments: { mode: 'expired' } }), /404|session s1 is gone|Session/i);
      assert.equal(posts.get('expired'), 1, 'the SDK read the answer already given instead of POSTing again');
    } finally {
      await c.close();
    }
  });

  void it('a primed stream that ends before the answer is resumed by the SDK from its last event id', async () => {
    const c = await client();
    try {
      const resumed = await c.callTool({ name: 't', arguments: { mode: 'resume' } });
      assert.deepEqual(resumed.content, [{ type: 'text', text: 'resumed' }]);
      assert.ok(gets.includes('r1'), `the SDK asked to resume after r1 (GETs: ${JSON.stringify(gets)})`);
      assert.equal(posts.get('resume'), 1);
    } finally {
      await c.close();
    }
  });
});

void describe('installing the direct POST', () => {
  const deps = (url: string): Parameters<typeof installDirectPost>[1] => ({
    url: new URL(url),
    handedOver: new HandedOver(),
    answer: () => undefined,
    origins: { onArrived: undefined },
  });
  const sdkTransport = (url: string): StreamableHTTPClientTransport => new StreamableHTTPClientTransport(new URL(url));

  void it("takes over this SDK's transport for a loopback server, on both wires (an SDK upgrade that moves its members fails here)", () => {
    const loopback = sdkTransport('http://127.0.0.1:9/mcp');
    assert.equal(installDirectPost(loopback, deps('http://127.0.0.1:9/mcp')), 'all');
    assert.equal(Object.hasOwn(loopback, 'send'), true, 'its send is ours');
    assert.equal(installDirectPost(sdkTransport('http://localhost:9/mcp'), deps('http://localhost:9/mcp')), 'all');
    for (const url of ['https://127.0.0.1:9/mcp', 'http://example.com/mcp']) {
      const t = sdkTransport(url);
      assert.equal(installDirectPost(t, deps(url)), 'notLoopback', url);
      assert.equal(Object.hasOwn(t, 'send'), false, `${url}: the SDK's own send is left`);
    }
  });

  void it('says what it could not take over, for the log, and then leaves the rest to the SDK', () => {
    const send = (): Promise<void> => Promise.resolve();
    const bare = { send, _commonHeaders: undefined, _scheduleReconnection: undefined };
    assert.equal(installDirectPost(bare as never, deps('http://127.0.0.1:9/mcp')), 'none');
    assert.equal(bare.send, send);
    const older = { send, _commonHeaders: () => Promise.resolve(new Headers()), _scheduleReconnection: () => undefined };
    assert.equal(installDirectPost(older as never, deps('http://127.0.0.1:9/mcp')), '2025');
  });

  void it('a loopback server gets no warning in its log with this SDK', () => {
    const warnings: string[] = [];
    const def: ServerDefinition = {
      name: 'quiet',
      source: { kind: 'setting', scope: 'user' },
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: {},
    };
    createTransport(def, { stderr: () => undefined, warn: (m) => warnings.push(m) });
    assert.deepEqual(warnings, []);
  });
});

void describe('which requests the direct POST sends', () => {
  const request = (meta?: Record<string, unknown>): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id: 3,
    method: 'tools/call',
    params: { name: 't', ...(meta ? { _meta: meta } : {}) },
  });
  const modern = request({ [PROTOCOL_VERSION_META_KEY]: '2026-07-28' });

  void it('sends a 2025 request, and a 2026 one only where the SDK transport can set its headers', () => {
    assert.equal(sentDirectly(request(), undefined, false), true);
    assert.equal(sentDirectly(request({ progressToken: 1 }), undefined, false), true);
    assert.equal(sentDirectly(modern, undefined, true), true);
    assert.equal(sentDirectly(modern, { requestSignal: new AbortController().signal }, true), true, "a 2026 request's own signal");
    assert.equal(sentDirectly(modern, undefined, false), false, 'an SDK without _applyBodyDerivedHeaders keeps its 2026 requests');
  });

  void it('leaves to the SDK what its own send must handle', () => {
    const leftAlone: [string, JSONRPCMessage | JSONRPCMessage[], TransportSendOptions | undefined][] = [
      ['a batch', [request()], undefined],
      ['the handshake', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }, undefined],
      ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }, undefined],
      ['a response', { jsonrpc: '2.0', id: 5, result: {} }, undefined],
      ['a resumption', request(), { resumptionToken: 'e1' }],
      ["a tool's x-mcp-header parameters", modern, { headers: { 'mcp-param-region': 'eu' } }],
    ];
    for (const [what, message, options] of leftAlone) assert.equal(sentDirectly(message, options, true), false, what);
  });
});

void describe('direct POST on the 2026-07-28 wire', () => {
  const seen: { mode: string; method: string | undefined; version: string | undefined; name: string | undefined }[] = [];
  const listeners: (() => void)[] = [];
  let changed = false;
  let server: http.Server;
  let url = '';
  const result = (id: unknown, text: string): string =>
    JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ type: 'text', text }] } });

  before(async () => {
    // A stateless 2026-07-28 server that checks, as the SDK's does, that each request's headers
    // name what its body says, and counts the POSTs of each call.
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const msg = JSON.parse(body) as { id?: unknown; method?: string; params?: Record<string, unknown> };
        const header = (h: string): string | undefined => (typeof req.headers[h] === 'string' ? req.headers[h] : undefined);
        if (msg.id === undefined) return void res.writeHead(202).end();
        if (header('mcp-method') !== msg.method || header('mcp-protocol-version') !== '2026-07-28') {
          res.writeHead(400, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32001, message: 'header mismatch' } }));
        }
        if (msg.method === 'server/discover') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: msg.id,
              result: {
                supportedVersions: ['2026-07-28'],
                capabilities: { tools: { listChanged: true } },
                _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'raw-modern', version: '1' } },
              },
            }),
          );
        }
        if (msg.method === 'subscriptions/listen') {
          // The stream stays open: the acknowledgement now, a list change when a call asks for one.
          const sub = { _meta: { 'io.modelcontextprotocol/subscriptionId': msg.id } };
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(
            `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: msg.params?.['notifications'], ...sub } })}\n\n`,
          );
          listeners.push(() =>
            res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: sub })}\n\n`),
          );
          return;
        }
        if (msg.method === 'tools/list') {
          res.writeHead(200, { 'content-type': 'application/json' });
          const tools = [
            { name: 'echo', inputSchema: { type: 'object' } },
            ...(changed ? [{ name: 'late', inputSchema: { type: 'object' } }] : []),
          ];
          return void res.end(
            JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { resultType: 'complete', tools, ttlMs: 0, cacheScope: 'private' } }),
          );
        }
        const mode = (msg.params?.['arguments'] as { mode?: string } | undefined)?.mode ?? 'json';
        if (mode === 'change') {
          changed = true;
          for (const announce of listeners) announce();
        }
        seen.push({ mode, method: header('mcp-method'), version: header('mcp-protocol-version'), name: header('mcp-name') });
        if (mode === 'invalid') {
          res.writeHead(400, { 'content-type': 'application/json' });
          return void res.end(
            JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32602, message: 'mode "invalid" is not a mode' } }),
          );
        }
        if (mode === 'sse') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return void res.end(`event: message\ndata: ${result(msg.id, 'as events')}\n\n`);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(result(msg.id, 'as json'));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  async function modernClient(onToolsChanged?: (names: string[]) => void): Promise<HostClient> {
    const def: ServerDefinition = { name: 'raw-modern', source: { kind: 'setting', scope: 'user' }, type: 'http', url, headers: {} };
    const prepared = createTransport(def, { stderr: () => undefined, warn: () => undefined });
    const c = new HostClient(
      { name: 'unit', version: '0' },
      {
        capabilities: {},
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        ...(onToolsChanged
          ? { listChanged: { tools: { onChanged: (_e, tools) => onToolsChanged((tools ?? []).map((t) => t.name)) } } }
          : {}),
      },
    );
    await c.connect(prepared.transport);
    return c;
  }

  void it('a list change reaches the client on its subscriptions/listen stream, which stays open', async () => {
    const lists: string[][] = [];
    const c = await modernClient((names) => lists.push(names));
    try {
      assert.equal(listeners.length, 1, 'the client opened one listen stream');
      await c.callTool({ name: 'echo', arguments: { mode: 'change' } });
      const t0 = Date.now();
      while (lists.length === 0 && Date.now() - t0 < 5000) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(lists, [['echo', 'late']]);
    } finally {
      await c.close();
    }
  });

  void it('sends the headers the server checks against the body, and reads a JSON or an event-stream answer', async () => {
    const c = await modernClient();
    try {
      assert.deepEqual((await c.callTool({ name: 'echo', arguments: { mode: 'json' } })).content, [{ type: 'text', text: 'as json' }]);
      assert.deepEqual((await c.callTool({ name: 'echo', arguments: { mode: 'sse' } })).content, [{ type: 'text', text: 'as events' }]);
      assert.deepEqual(
        seen.filter((s) => s.mode === 'json' || s.mode === 'sse'),
        [
          { mode: 'json', method: 'tools/call', version: '2026-07-28', name: 'echo' },
          { mode: 'sse', method: 'tools/call', version: '2026-07-28', name: 'echo' },
        ],
      );
    } finally {
      await c.close();
    }
  });

  void it("a 400 carrying the call's JSON-RPC error reaches the SDK as that error, and the request went out once", async () => {
    const c = await modernClient();
    try {
      await assert.rejects(c.callTool({ name: 'echo', arguments: { mode: 'invalid' } }), (e: unknown) => {
        assert.ok(e instanceof ProtocolError, String(e));
        assert.equal(e.code, -32602);
        assert.match(e.message, /mode "invalid" is not a mode/);
        return true;
      });
      assert.equal(seen.filter((s) => s.mode === 'invalid').length, 1, 'the SDK read the answer already given instead of POSTing again');
    } finally {
      await c.close();
    }
  });
});
