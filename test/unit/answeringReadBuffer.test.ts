/**
 * The stdio line framing (src/servers/answeringReadBuffer.ts): whatever chunks the lines arrive
 * in, the same messages come out in the same order, a malformed request is answered, and the size
 * cap holds. The SDK's own ReadBuffer is the reference for what a line is (LF, an optional CR before
 * it, UTF-8 that a chunk may cut mid-character).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AnsweringReadBuffer, type MalformedReply } from '../../src/servers/answeringReadBuffer';

const LINES = [
  JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'grüße ✓' }] } }) + '\n',
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'crlf' } }) + '\r\n',
  JSON.stringify({ jsonrpc: '2.0', id: 'q', method: 'elicitation/create', params: [] }) + '\n',
  'not json at all\n',
  JSON.stringify({ jsonrpc: '2.0', id: 2, result: {} }) + '\n',
];
const BYTES = Buffer.from(LINES.join(''));

/** Feeds the chunks, reading after each as the transport does; what came out, in order. */
function read(chunks: Buffer[]): { out: unknown[]; answered: MalformedReply[] } {
  const answered: MalformedReply[] = [];
  const buffer = new AnsweringReadBuffer((r) => answered.push(r));
  const out: unknown[] = [];
  for (const chunk of chunks) {
    buffer.append(chunk);
    for (;;) {
      try {
        const message = buffer.readMessage();
        if (message === null) break;
        out.push(message);
      } catch (e) {
        out.push(`error: ${(e as Error).message.slice(0, 40)}`);
      }
    }
  }
  return { out, answered };
}

void describe('AnsweringReadBuffer framing', () => {
  const whole = read([BYTES]);

  void it('reads each line once, answers the malformed request, and reports the line that is not JSON', () => {
    assert.equal(whole.out.length, 5);
    assert.deepEqual(whole.out[0], JSON.parse(LINES[0] as string));
    assert.deepEqual(whole.out[1], JSON.parse(LINES[1] as string));
    assert.equal(whole.out[2], 'error: malformed request answered with -32602 I');
    assert.match(String(whole.out[3]), /^error: Unexpected token/);
    assert.deepEqual(whole.out[4], { jsonrpc: '2.0', id: 2, result: {} });
    assert.deepEqual(
      whole.answered.map((r) => [r.id, r.error.code]),
      [['q', -32602]],
    );
  });

  void it('gives the same in any chunks: cut in two anywhere (inside a character or a CRLF), or a byte at a time', () => {
    for (let cut = 0; cut <= BYTES.length; cut++) {
      assert.deepEqual(read([BYTES.subarray(0, cut), BYTES.subarray(cut)]), whole, `cut at ${cut}`);
    }
    assert.deepEqual(read([...BYTES].map((b) => Buffer.from([b]))), whole);
  });

  void it('refuses more than its cap of unread bytes, and reads on after it', () => {
    const buffer = new AnsweringReadBuffer(() => undefined, 64);
    buffer.append(Buffer.alloc(40, 0x61));
    assert.throws(() => buffer.append(Buffer.alloc(40, 0x61)), /exceeded maximum size of 64 bytes/);
    assert.equal(buffer.readMessage(), null);
    buffer.append(Buffer.from('{"jsonrpc":"2.0","id":3,"result":{}}\n'));
    assert.deepEqual(buffer.readMessage(), { jsonrpc: '2.0', id: 3, result: {} });
    assert.equal(buffer.readMessage(), null);
  });
});
