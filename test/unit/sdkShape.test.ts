/**
 * What this extension relies on inside @modelcontextprotocol/sdk. Where the SDK offers no hook we
 * use private members; these tests fail loudly when an SDK upgrade changes them, instead of the
 * extension silently dropping malformed requests again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createTransport, installAnsweringReadBuffer } from '../../src/servers/transports';

describe('SDK internals the extension depends on', () => {
  it('the stdio transport still keeps its line framing in _readBuffer (append / readMessage / clear)', () => {
    const transport = new StdioClientTransport({ command: process.execPath });
    const buffer = (transport as unknown as { _readBuffer?: Record<string, unknown> })._readBuffer;
    assert.ok(buffer, 'StdioClientTransport has no _readBuffer: answeringReadBuffer.ts can no longer be installed');
    for (const m of ['append', 'readMessage', 'clear']) assert.equal(typeof buffer[m], 'function', `_readBuffer.${m}`);
    assert.equal(installAnsweringReadBuffer(transport), true);
  });

  it('a stdio server that sends a malformed elicitation/create gets -32602 back over its stdin', async () => {
    // The child sends a request whose params are an array, then reports the first line it reads.
    const child = [
      `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: [] }) + '\\n');`,
      `process.stdin.once('data', (d) => { process.stderr.write('GOT ' + d.toString().split('\\n')[0] + '\\n'); });`,
    ].join('\n');
    const { transport } = createTransport(
      { name: 't', type: 'stdio', command: process.execPath, args: ['-e', child], env: {}, source: { kind: 'setting', scope: 'user' } } as never,
      { stderr: (line) => lines.push(line), warn: (m) => warnings.push(m) },
    );
    const lines: string[] = [];
    const warnings: string[] = [];
    const got = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply; stderr: ${lines.join(' | ')}`)), 10_000);
      const poll = setInterval(() => {
        const line = lines.find((l) => l.startsWith('GOT '));
        if (line) {
          clearTimeout(timer);
          clearInterval(poll);
          resolve(line.slice(4));
        }
      }, 10);
    });
    transport.onerror = () => undefined;
    await transport.start();
    try {
      const reply = JSON.parse(await got) as { id: number; error: { code: number; message: string } };
      assert.equal(reply.id, 7);
      assert.equal(reply.error.code, -32602);
      assert.match(reply.error.message, /params must be an object/);
      assert.deepEqual(warnings, []);
    } finally {
      await transport.close();
    }
  });

  it('Client hands elicitation/create to fallbackRequestHandler with the raw params, and answers what it returns', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'c', version: '1' }, { capabilities: { elicitation: { form: {}, url: {} } } });
    const seen: unknown[] = [];
    client.fallbackRequestHandler = (request) => {
      seen.push(request.params);
      return Promise.resolve({ action: 'decline' });
    };
    const replies: JSONRPCMessage[] = [];
    // A bare server: answers initialize, records everything else.
    serverSide.onmessage = (m) => {
      if ('method' in m && m.method === 'initialize' && 'id' in m) {
        void serverSide.send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, serverInfo: { name: 's', version: '1' } } });
      } else if (!('method' in m)) {
        replies.push(m);
      }
    };
    await serverSide.start();
    await client.connect(clientSide);
    // A params object the SDK's own ElicitRequestSchema would reject (no message, no schema).
    await serverSide.send({ jsonrpc: '2.0', id: 1, method: 'elicitation/create', params: { mode: 'form', odd: true } });
    for (let i = 0; i < 100 && replies.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(seen, [{ mode: 'form', odd: true }], 'the handler saw the params unvalidated');
    assert.deepEqual(replies, [{ jsonrpc: '2.0', id: 1, result: { action: 'decline' } }]);
    await client.close();
  });
});
