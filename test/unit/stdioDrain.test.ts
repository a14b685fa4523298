/**
 * Answers to a stdio server that reads slower than we write (src/servers/stdioDrain.ts): a burst
 * of them against a real child process whose stdin is slow to read. Each arrives, in order, and
 * Node never warns of a listener leak on the child's stdin.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTransport } from '../../src/servers/transports';

/** As many answers as the roots flood's excess; each padded so that the burst overfills the pipe many times. */
const COUNT = 1000;
const PAD = 'x'.repeat(1000);

/**
 * The slow reader: takes one chunk of its stdin, then rests 20 ms before the next (the pipe stays
 * full meanwhile), and once it has read COUNT lines reports their ids, in the order read, on stdout.
 */
const SLOW_READER = `
const count = Number(process.argv[1]);
const ids = [];
let rest = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  process.stdin.pause();
  const lines = (rest + chunk).split('\\n');
  rest = lines.pop();
  for (const line of lines) ids.push(JSON.parse(line).id);
  if (ids.length >= count) {
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: ids } }) + '\\n');
  } else {
    setTimeout(() => process.stdin.resume(), 20);
  }
});
`;

interface Burst {
  /** The ids the child read, in order. */
  readonly read: unknown[];
  /** Sends still waiting for the pipe right after the burst. */
  readonly waiting: number;
  /** The MaxListenersExceededWarning texts Node emitted meanwhile. */
  readonly warnings: string[];
}

/** Sends COUNT answers at once, as the SDK answers a flood (nothing awaited in between). */
async function burst(transport: Transport): Promise<Burst> {
  const warnings: string[] = [];
  const onWarning = (w: Error): void => {
    if (w.name === 'MaxListenersExceededWarning') warnings.push(w.message);
  };
  process.on('warning', onWarning);
  const report = new Promise<unknown[]>((resolve) => {
    transport.onmessage = (m: JSONRPCMessage) => {
      if ('method' in m && m.method === 'notifications/message') resolve((m.params as { data: unknown[] }).data);
    };
  });
  transport.onerror = (e) => assert.fail(e);
  try {
    await transport.start();
    let settled = 0;
    const sends = Array.from({ length: COUNT }, (_, id) =>
      transport.send({ jsonrpc: '2.0', id, result: { roots: [], pad: PAD } }).then(() => void settled++),
    );
    await new Promise((r) => setImmediate(r));
    const waiting = COUNT - settled;
    const read = await report;
    await Promise.all(sends);
    return { read, waiting, warnings };
  } finally {
    process.off('warning', onWarning);
    await transport.close();
  }
}

const inOrder = Array.from({ length: COUNT }, (_, id) => id);

void describe('stdio answers to a server that reads slowly', () => {
  void it('share one drain wait: every answer arrives in order, and Node warns of no listener leak', { timeout: 60_000 }, async () => {
    const warned: string[] = [];
    const { transport } = createTransport(
      {
        name: 'slow-reader',
        type: 'stdio',
        command: process.execPath,
        args: ['-e', SLOW_READER, String(COUNT)],
        env: {},
        source: { kind: 'setting', scope: 'user' },
      } as never,
      { stderr: () => undefined, warn: (m) => warned.push(m) },
    );
    assert.deepEqual(warned, [], 'our send is installed on this SDK version');
    const r = await burst(transport);
    assert.ok(r.waiting > 10, `the pipe was full: ${r.waiting} sends waited for it (more than Node's 10 listeners)`);
    assert.deepEqual(r.read, inOrder);
    assert.deepEqual(r.warnings, []);
  });

  void it(
    "the SDK's own send warns under the same burst (why stdioDrain.ts exists; if this fails, the SDK shares its wait now)",
    { timeout: 60_000 },
    async () => {
      const transport = new StdioClientTransport({ command: process.execPath, args: ['-e', SLOW_READER, String(COUNT)] });
      const r = await burst(transport);
      assert.deepEqual(r.read, inOrder);
      assert.match(r.warnings.join('\n'), /\d+ drain listeners added/);
    },
  );
});
