/**
 * A request whose event stream ended without its answer fails at once (src/servers/unansweredStreams.ts):
 * the rules on a transport that stands in for the SDK's, then the SDK's own Streamable HTTP
 * transport (what a server that is not on this machine is reached with) against the Python server
 * written from the spec, whose `vanish` tool ends a call's stream unanswered. Before, such a call
 * waited for its deadline.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ProtocolError,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { startListening } from './support/listeningFixture';
import { HostClient } from '../../src/servers/hostClient';
import { QuestionLinks } from '../../src/servers/questionLinks';
import { watchOutgoing } from '../../src/servers/sessionWire';
import { failUnansweredStreams, isStreamEnded, STREAM_ENDED } from '../../src/servers/unansweredStreams';

const quietWire = { isTracing: false, trace: () => undefined, debug: () => undefined, info: () => undefined };

/**
 * Wired as a session wires it (session.ts): what waits is the question links', fed by the
 * outgoing watch and by every response the client hears (HostClient's `onResponse`).
 */
function wire(transport: Transport, warn: (m: string) => void = () => undefined): QuestionLinks {
  const links = new QuestionLinks();
  failUnansweredStreams(transport, (id) => links.methodOf(id), warn);
  watchOutgoing(transport, quietWire, links);
  const onmessage = transport.onmessage;
  transport.onmessage = (m, extra) => {
    if ('id' in m && !('method' in m)) links.answered(m.id as string | number);
    onmessage?.(m, extra);
  };
  return links;
}

/** Keeps what was sent with its options; `onmessage` hears what the client would. */
function fakeTransport(): {
  transport: Transport;
  sent: { message: JSONRPCMessage; options?: TransportSendOptions }[];
  heard: JSONRPCMessage[];
} {
  const sent: { message: JSONRPCMessage; options?: TransportSendOptions }[] = [];
  const heard: JSONRPCMessage[] = [];
  const transport: Transport = {
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
    send: (message, options) => {
      if (!Array.isArray(message)) sent.push({ message, ...(options ? { options } : {}) });
      return Promise.resolve();
    },
    onmessage: (m) => heard.push(m),
  };
  return { transport, sent, heard };
}

const request = (id: number, method = 'tools/call'): JSONRPCMessage => ({ jsonrpc: '2.0', id, method, params: { name: 'x' } });

void describe('failUnansweredStreams', () => {
  void it('fails a request whose stream ended unanswered, with an error that says so', async () => {
    const { transport, sent, heard } = fakeTransport();
    const warnings: string[] = [];
    wire(transport, (m) => warnings.push(m));
    await transport.send(request(7));
    sent[0]?.options?.onRequestStreamEnd?.();
    assert.equal(heard.length, 1);
    const [error] = heard as { id: number; error: { code: number; message: string; data: unknown } }[];
    assert.equal(error?.id, 7);
    assert.equal(error?.error.code, STREAM_ENDED.code);
    assert.match(error?.error.message ?? '', /ended the stream of this tools\/call without answering it/);
    assert.deepEqual(warnings, ['the server ended the event stream of our tools/call 7 without answering it']);
    // The SDK turns that answer into a ProtocolError, which is what the caller sees.
    assert.equal(isStreamEnded(new ProtocolError(error?.error.code ?? 0, error?.error.message ?? '', error?.error.data)), true);
    assert.equal(isStreamEnded(new ProtocolError(-32000, 'a server error of its own')), false);
    sent[0]?.options?.onRequestStreamEnd?.();
    assert.equal(heard.length, 1, 'once');
  });

  void it('leaves alone a request that was answered, one we cancelled (2025) or aborted (2026), and one whose caller settles it itself', async () => {
    const { transport, sent, heard } = fakeTransport();
    const links = wire(transport);
    await transport.send(request(1));
    links.answered(1);
    await transport.send(request(2));
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    const aborted = new AbortController();
    await transport.send(request(5), { requestSignal: aborted.signal });
    aborted.abort();
    let listenEnded = 0;
    await transport.send(request(3, 'subscriptions/listen'), { onRequestStreamEnd: () => listenEnded++ });
    for (const s of sent) s.options?.onRequestStreamEnd?.();
    assert.deepEqual(heard, []);
    assert.equal(listenEnded, 1);
    // A notification goes through untouched; the listen request keeps its own callback.
    assert.deepEqual(
      sent.map((s) => s.options?.onRequestStreamEnd !== undefined),
      [true, true, false, true, true],
    );
  });

  void it('forgets a request whose send failed (the SDK fails it with that error)', async () => {
    const { transport, heard } = fakeTransport();
    let end: (() => void) | undefined;
    transport.send = (_message, options) => {
      end = options?.onRequestStreamEnd;
      return Promise.reject(new Error('connection refused'));
    };
    wire(transport);
    await assert.rejects(transport.send(request(4)), /connection refused/);
    end?.();
    assert.deepEqual(heard, []);
  });
});

void describe("the SDK's Streamable HTTP transport, against the Python server", () => {
  let child: ChildProcess;
  let url = '';

  before(async () => {
    ({ child, url } = await startListening('python3', [path.join(__dirname, '..', 'fixtures', 'pyServer.py'), 'vanisher', '--http', '0']));
  });
  after(() => {
    child.kill();
  });

  for (const mode of ['legacy', 'auto'] as const) {
    void it(`a call whose stream ends unanswered fails with that error, not at its deadline (${mode === 'legacy' ? '2025-11-25' : '2026-07-28'})`, async () => {
      const transport = new StreamableHTTPClientTransport(new URL(url), {
        // The resumption a 2025 stream with event ids gets is tried at once (405 here).
        reconnectionOptions: { initialReconnectionDelay: 1, maxReconnectionDelay: 1, reconnectionDelayGrowFactor: 1, maxRetries: 1 },
      });
      const links = new QuestionLinks();
      failUnansweredStreams(
        transport,
        (id) => links.methodOf(id),
        () => undefined,
      );
      watchOutgoing(transport, quietWire, links);
      const client = new HostClient({ name: 'unit', version: '0' }, { capabilities: {}, versionNegotiation: { mode } });
      client.onResponse = (id) => links.answered(id);
      await client.connect(transport);
      try {
        const key = `${mode}-${Date.now()}`;
        await assert.rejects(client.callTool({ name: 'vanish', arguments: { key, times: 1 } }, { timeout: 600_000 }), (err: unknown) =>
          isStreamEnded(err),
        );
        const r = await client.callTool({ name: 'vanish', arguments: { key, times: 0 } });
        const [first] = r.content as { text: string }[];
        assert.deepEqual(JSON.parse(first?.text ?? 'null'), { key, calls: 2 });
      } finally {
        await client.close();
      }
    });
  }
});
