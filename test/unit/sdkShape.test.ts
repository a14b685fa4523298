/**
 * What this extension relies on inside the MCP SDK (@modelcontextprotocol/client). Where the SDK offers no hook we
 * use private members; these tests fail loudly when an SDK upgrade changes them, instead of the
 * extension silently dropping malformed requests again.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { PassThrough } from 'node:stream';
import { Client, InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { HostClient } from '../../src/servers/hostClient';
import { createTransport, installAnsweringReadBuffer } from '../../src/servers/transports';
import { shareDrainWait } from '../../src/servers/stdioDrain';

void describe('SDK internals the extension depends on', () => {
  void it('the stdio transport still keeps its line framing in _readBuffer (append / readMessage / clear)', () => {
    const transport = new StdioClientTransport({ command: process.execPath });
    const buffer = (transport as unknown as { _readBuffer?: Record<string, unknown> })._readBuffer;
    assert.ok(buffer, 'StdioClientTransport has no _readBuffer: answeringReadBuffer.ts can no longer be installed');
    for (const m of ['append', 'readMessage', 'clear']) assert.equal(typeof buffer[m], 'function', `_readBuffer.${m}`);
    assert.equal(installAnsweringReadBuffer(transport), true);
  });

  void it("the server's stdio transport (the gateway's socket door) keeps its line framing in _readBuffer too", () => {
    const transport = new StdioServerTransport(new PassThrough(), new PassThrough());
    assert.equal(
      installAnsweringReadBuffer(transport),
      true,
      'StdioServerTransport has no _readBuffer: the gateway would drop malformed requests',
    );
  });

  void it("the stdio transport still keeps its child in _process, with the child's stdin (stdioDrain.ts writes to it)", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', 'process.stdin.resume()'] });
    assert.equal(shareDrainWait(transport), true, 'StdioClientTransport has no _process field: stdioDrain.ts can no longer be installed');
    await transport.start();
    try {
      const child = (transport as unknown as { _process?: { stdin?: { write?: unknown; once?: unknown } } })._process;
      assert.equal(typeof child?.stdin?.write, 'function', '_process.stdin.write');
      assert.equal(typeof child?.stdin?.once, 'function', '_process.stdin.once');
    } finally {
      await transport.close();
    }
  });

  void it('a stdio server that sends a malformed elicitation/create gets -32602 back over its stdin', async () => {
    // The child sends a request whose params are an array, then reports the first line it reads.
    const child = [
      `process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: [] }) + '\\n');`,
      `process.stdin.once('data', (d) => { process.stderr.write('GOT ' + d.toString().split('\\n')[0] + '\\n'); });`,
    ].join('\n');
    const { transport } = createTransport(
      {
        name: 't',
        type: 'stdio',
        command: process.execPath,
        args: ['-e', child],
        env: {},
        source: { kind: 'setting', scope: 'user' },
      } as never,
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

  void it('Client still routes every request handler through the protected _wrapHandler hook that HostClient overrides', () => {
    // HostClient (src/servers/hostClient.ts) hands pushed elicitation/create to the broker raw
    // through this hook; answeringFetch.test.ts and mrtrRounds.test.ts exercise it end to end.
    const hook = (Client.prototype as unknown as { _wrapHandler?: unknown })._wrapHandler;
    assert.equal(typeof hook, 'function', 'Client has no _wrapHandler: hostClient.ts no longer receives raw elicitation requests');
  });

  void it('Client still has the protected _resolveNonCompleteResult and _onresponse hooks HostClient overrides', () => {
    // HostClient.callTool hands input_required rounds back past the output-schema check through the
    // first; the second turns answers that mix round and result into one error (mrtr/answerShape.ts).
    // outputSchemaRounds.test.ts exercises both against real servers.
    const proto = Client.prototype as unknown as Record<string, unknown>;
    assert.equal(
      typeof proto['_resolveNonCompleteResult'],
      'function',
      'Client has no _resolveNonCompleteResult: a tool with an outputSchema can no longer ask',
    );
    assert.equal(typeof proto['_onresponse'], 'function', 'Client has no _onresponse: mixed answers are no longer caught');
  });
  void it("HostClient's tools/call result check, built once per era, fails and passes exactly as the SDK's own", async () => {
    // resultChecks.ts rebuilds the SDK's `codecResultValidator` once per codec; it reaches the codec
    // through the private `_resolveOutboundCodec`. A raw 2025 server answers the same calls to both
    // clients: a well-formed result, and one whose `content` is not a list, which both must refuse
    // with the same error.
    const proto = Client.prototype as unknown as Record<string, unknown>;
    assert.equal(
      typeof proto['_resolveOutboundCodec'],
      'function',
      'Client has no _resolveOutboundCodec: resultChecks.ts cannot find the codec',
    );
    const serve = async (client: Client): Promise<string[]> => {
      const [ours, theirs] = InMemoryTransport.createLinkedPair();
      theirs.onmessage = (m: JSONRPCMessage) => {
        if (!('id' in m) || !('method' in m)) return;
        const args = (m.params as { arguments?: { shape?: string } } | undefined)?.arguments;
        const result =
          m.method === 'initialize'
            ? { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '0' } }
            : args?.shape === 'bad'
              ? { content: 'not a list' }
              : { content: [{ type: 'text', text: 'ok' }] };
        void theirs.send({ jsonrpc: '2.0', id: m.id, result });
      };
      await theirs.start();
      await client.connect(ours);
      const seen: string[] = [];
      for (const shape of ['good', 'bad', 'good', 'bad']) {
        seen.push(
          await client.callTool({ name: 't', arguments: { shape } }).then(
            (r) => JSON.stringify(r.content),
            (err: unknown) => `${(err as Error).constructor.name}: ${(err as Error).message}`,
          ),
        );
      }
      await client.close();
      return seen;
    };
    const options = { capabilities: {}, versionNegotiation: { mode: 'legacy' as const } };
    const sdk = await serve(new Client({ name: 'unit', version: '0' }, options));
    const host = await serve(new HostClient({ name: 'unit', version: '0' }, options));
    assert.match(sdk[1] ?? '', /content/, 'the SDK refuses a content that is not a list');
    assert.deepEqual(host, sdk);
  });
});
