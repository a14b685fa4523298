/**
 * Over Streamable HTTP and legacy SSE, the SDK's transports drop a message that fails the JSON-RPC
 * schema. These run the SDK's real transports against a bare HTTP server that sends malformed
 * `elicitation/create` requests and record what the client posts back.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { replyFor } from '../../src/servers/answeringFetch';
import { createTransport } from '../../src/servers/transports';

const MALFORMED = { jsonrpc: '2.0', id: 9, method: 'elicitation/create', params: [] };

function body(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => resolve(text ? JSON.parse(text) : undefined));
  });
}

describe('answeringFetch: malformed requests over HTTP get an answer', () => {
  let server: Server;
  let base: string;
  const posted: unknown[] = [];
  let sseStream: ServerResponse | undefined;

  before(async () => {
    server = createServer((req, res) => {
      void (async () => {
        if (req.method === 'GET' && req.url === '/sse') {
          // Legacy SSE: the endpoint first, then a malformed request on the same stream.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('event: endpoint\ndata: /messages\n\n');
          res.write(`event: message\ndata: ${JSON.stringify(MALFORMED)}\n\n`);
          sseStream = res;
          return;
        }
        const msg = (await body(req)) as { id?: unknown; method?: string } | undefined;
        if (req.method === 'POST' && req.url === '/mcp' && msg?.method === 'ping') {
          // Streamable HTTP: the answer to the client's request comes on an event stream that
          // carries a malformed server request before it.
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write(`data: ${JSON.stringify(MALFORMED)}\r\n\r\n`);
          res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: {} })}\n\n`);
          return;
        }
        if (req.method === 'GET') {
          res.writeHead(405).end();
          return;
        }
        posted.push(msg);
        res.writeHead(202).end();
      })();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    sseStream?.end();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  async function replies(n: number): Promise<unknown[]> {
    for (let i = 0; i < 500 && posted.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    return posted.splice(0);
  }

  const expected = [{ jsonrpc: '2.0', id: 9, error: { code: -32602, message: 'Invalid params: params must be an object' } }];
  const log = { stderr: () => undefined, warn: () => undefined };

  it('Streamable HTTP: the malformed request on a POST response stream gets -32602', async () => {
    const { transport } = createTransport({ name: 'h', type: 'http', url: `${base}/mcp`, headers: {}, source: { kind: 'setting', scope: 'user' } } as never, log);
    transport.onerror = () => undefined;
    const messages: unknown[] = [];
    transport.onmessage = (m) => messages.push(m);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    assert.deepEqual(await replies(1), expected);
    assert.deepEqual(messages, [{ jsonrpc: '2.0', id: 1, result: {} }], 'the SDK still gets the well-formed messages');
    await transport.close();
  });

  it('legacy SSE: the malformed request on the event stream gets -32602 at the endpoint', async () => {
    const { transport } = createTransport({ name: 's', type: 'sse', url: `${base}/sse`, headers: {}, source: { kind: 'setting', scope: 'user' } } as never, log);
    transport.onerror = () => undefined;
    await transport.start();
    assert.deepEqual(await replies(1), expected);
    await transport.close();
  });

  it('answers only malformed requests in message events', () => {
    assert.equal(replyFor(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'elicitation/create', params: {} })}`), undefined, 'well-formed');
    assert.equal(replyFor(`event: endpoint\ndata: ${JSON.stringify(MALFORMED)}`), undefined, 'not a message event');
    assert.equal(replyFor('data: {not json'), undefined);
    assert.equal(replyFor(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'x', params: [] })}`), undefined, 'a notification has no id to answer');
    assert.deepEqual(replyFor(`id: 4\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'a', method: 'elicitation/create', params: {}, extra: 1 })}`)?.error.code, -32600);
  });
});
