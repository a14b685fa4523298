/**
 * Exactly one response to every pushed `elicitation/create` over HTTP: a hand-written 2025 Streamable
 * HTTP server pushes malformed requests in a tool call's event stream, and the test reads what the
 * client POSTed back. The real SDK client and our transport factory; nothing mocked.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { answeringEvents, answeringFetch } from '../../src/servers/answeringFetch';
import type { MalformedReply } from '../../src/servers/answeringReadBuffer';
import { HostClient } from '../../src/servers/hostClient';
import { createTransport } from '../../src/servers/transports';
import type { ServerDefinition } from '../../src/config/parse/definitions';

async function run(events: (string | Uint8Array)[]): Promise<{ out: string; replies: MalformedReply[] }> {
  const replies: MalformedReply[] = [];
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const e of events) c.enqueue(typeof e === 'string' ? encoder.encode(e) : e);
      c.close();
    },
  });
  const stream = answeringEvents(body, (r) => replies.push(r));
  const decoder = new TextDecoder();
  let out = '';
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) out += decoder.decode(chunk, { stream: true });
  return { out: out + decoder.decode(), replies };
}

void describe('answeringEvents (the event-stream check)', () => {
  void it('passes well-formed events through unchanged, across chunk boundaries and CRLF', async () => {
    const good =
      'id: 7\r\nevent: message\r\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\r\n\r\n';
    const { out, replies } = await run([good.slice(0, 13), good.slice(13, 14), good.slice(14)]);
    assert.equal(out.replace(/\r\n|\r/g, '\n'), good.replace(/\r\n/g, '\n'));
    assert.deepEqual(replies, []);
  });

  void it('keeps a character whose bytes arrive in two chunks', async () => {
    const event = 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"Grüße 🌍"}}\n\n';
    const bytes = new TextEncoder().encode(event);
    // Cut inside the four bytes of the emoji and inside the two of the ü.
    const emoji = bytes.indexOf(0xf0);
    const umlaut = bytes.indexOf(0xc3);
    const { out, replies } = await run([bytes.slice(0, umlaut + 1), bytes.slice(umlaut + 1, emoji + 2), bytes.slice(emoji + 2)]);
    assert.equal(out, event);
    assert.deepEqual(replies, []);
  });

  void it("ends with the server stream's own error, and a reader's cancel reaches the server stream", async () => {
    const broken = new Error('socket hang up');
    let sent = false;
    const event = 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n\n';
    const failing = answeringEvents(
      new ReadableStream<Uint8Array>(
        {
          pull(c) {
            if (sent) return c.error(broken);
            sent = true;
            c.enqueue(new TextEncoder().encode(event));
          },
        },
        { highWaterMark: 0 },
      ),
      () => undefined,
    ).getReader();
    assert.equal(new TextDecoder().decode((await failing.read()).value), event, 'what came before the error is handed on');
    await assert.rejects(failing.read(), (err) => err === broken);

    let cancelled: unknown = 'not cancelled';
    const open = answeringEvents(
      new ReadableStream<Uint8Array>({
        pull: () => new Promise(() => undefined),
        cancel: (reason) => {
          cancelled = reason;
        },
      }),
      () => undefined,
    );
    const reason = new Error('the call was cancelled');
    const reader = open.getReader();
    // A read waits on the server stream, as the SDK's does on a call's stream; the call is cancelled.
    const waiting = reader.read();
    await reader.cancel(reason);
    assert.equal(cancelled, reason);
    assert.deepEqual(await waiting, { done: true, value: undefined });
  });

  void it('answers a malformed request it can read the id of, and keeps only the event id', async () => {
    const { out, replies } = await run(['id: 9\ndata: {"jsonrpc":"2.0","id":"bad","method":"elicitation/create","params":[]}\n\n']);
    assert.equal(out, 'id: 9\n\n');
    assert.equal(replies.length, 1);
    assert.equal(replies[0]?.id, 'bad');
    assert.equal(replies[0]?.error.code, -32602);
  });

  void it('answers a malformed request whose member names are written as escapes', async () => {
    // JSON.parse reads "\u006dethod" as "method": the SDK would see a request and drop it.
    const { out, replies } = await run(['data: {"jsonrpc":"2.0","id":4,"\\u006dethod":"elicitation/create","params":[]}\n\n']);
    assert.equal(out, '\n');
    assert.deepEqual(
      replies.map((r) => [r.id, r.error.code]),
      [[4, -32602]],
    );
  });

  void it('leaves what it cannot answer alone (no id, not JSON, another event type)', async () => {
    const events = [
      'data: {"jsonrpc":"2.0","method":"x","params":[]}\n\n',
      'data: not json\n\n',
      'event: endpoint\ndata: /messages?s=1\n\n',
    ];
    const { out, replies } = await run(events);
    assert.equal(out, events.join(''));
    assert.deepEqual(replies, []);
  });
});

void describe('over Streamable HTTP, against a server that pushes malformed requests', () => {
  const posted: { id?: unknown; error?: { code: number }; result?: unknown }[] = [];
  let server: http.Server;
  let url = '';
  let release: (() => void) | undefined;

  before(async () => {
    server = http.createServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const msg = JSON.parse(body) as { id?: unknown; method?: string; error?: { code: number }; result?: unknown };
        if (msg.method === undefined) {
          // A response from the client to one of our pushed requests.
          posted.push(msg);
          res.writeHead(202).end();
          if (posted.length === 2) release?.();
          return;
        }
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
        if (msg.method === 'tools/call') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('id: 1\ndata: {"jsonrpc":"2.0","id":"bad-params","method":"elicitation/create","params":[]}\n\n');
          res.write('id: 2\ndata: {"jsonrpc":"2.0","id":2.5,"method":"elicitation/create","params":{"message":"x"}}\n\n');
          release = () =>
            res.end(
              `id: 3\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { content: [{ type: 'text', text: 'done' }] } })}\n\n`,
            );
          return;
        }
        // notifications, and anything else: accepted, nothing to say.
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  after(() => {
    server.close();
  });

  void it('each malformed request gets exactly one error response, and the call still completes', async () => {
    const def: ServerDefinition = { name: 'raw-http', source: { kind: 'setting', scope: 'user' }, type: 'http', url, headers: {} };
    const prepared = createTransport(def, { stderr: () => undefined, warn: () => undefined });
    const client = new HostClient(
      { name: 'unit', version: '0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'legacy' } },
    );
    client.setElicitationHandler(() => Promise.reject(new Error('no well-formed request was sent')));
    await client.connect(prepared.transport);
    try {
      const result = await client.callTool({ name: 'anything' });
      assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
      assert.deepEqual(
        posted.map((p) => [p.id, p.error?.code]),
        [
          ['bad-params', -32602],
          [2.5, -32600],
        ],
      );
    } finally {
      await client.close();
    }
  });
});

void describe('answeringFetch: which of our requests a question came in answer to (issue 24 item 6)', () => {
  const event = (message: object): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
  const streamOf = (events: string[]): Response =>
    new Response(events.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } });

  void it('a question on the event stream of our POSTed request is reported with that request’s id; other messages are not', async () => {
    const arrived: [unknown, unknown][] = [];
    const origins = { onArrived: (q: string | number, call: string | number) => void arrived.push([q, call]) };
    const events = [
      event({
        jsonrpc: '2.0',
        id: 0,
        method: 'elicitation/create',
        params: { message: 'x', requestedSchema: { type: 'object', properties: {} } },
      }),
      event({ jsonrpc: '2.0', id: 1, method: 'roots/list' }),
      event({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }),
      event({ jsonrpc: '2.0', id: 2, method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }),
    ];
    const fetchWith = answeringFetch(
      () => Promise.resolve(streamOf(events)),
      () => undefined,
      origins,
    );
    const res = await fetchWith('http://127.0.0.1/mcp', {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 't' } }),
    });
    await res.text();
    assert.deepEqual(arrived, [
      [0, 5],
      [2, 5],
    ]);
  });

  void it('a stream that answers no request of ours (the standalone GET, a notification POST) names no call', async () => {
    const arrived: unknown[] = [];
    const origins = { onArrived: (q: string | number) => void arrived.push(q) };
    const ask = event({
      jsonrpc: '2.0',
      id: 0,
      method: 'elicitation/create',
      params: { message: 'x', requestedSchema: { type: 'object', properties: {} } },
    });
    const fetchWith = answeringFetch(
      () => Promise.resolve(streamOf([ask])),
      () => undefined,
      origins,
    );
    await (await fetchWith('http://127.0.0.1/mcp', { method: 'GET' })).text();
    await (
      await fetchWith('http://127.0.0.1/mcp', {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    assert.deepEqual(arrived, []);
  });
});
