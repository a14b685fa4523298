/**
 * Reading one large message as it arrives, in plain Node: the event-stream parser our HTTP client
 * reads a loopback server's answers with (src/servers/sseEvents.ts) and the stdio line framing
 * (src/servers/answeringReadBuffer.ts), each fed one message of 1 and 10 MB in 64 KB chunks, as
 * a socket or a pipe delivers it. Both run on the extension host's thread, so their time is time
 * the editor's extensions wait. What matters is that the cost grows with the size, not with its
 * square: the rows compare the cost per MB at 10 MB with the cost per MB at 1 MB.
 */
import { performance } from 'node:perf_hooks';
import { AnsweringReadBuffer } from '../../src/servers/answeringReadBuffer';
import { SseEvents } from '../../src/servers/sseEvents';

const CHUNK = 64 * 1024;
const MB = 1024 * 1024;

export type Framing = 'sse' | 'stdio';

export interface FramingFigure {
  readonly framing: Framing;
  readonly mb: number;
  /** ms per message, each run. */
  readonly runsMs: number[];
}

/** A tool result whose text makes the message about `mb` MB. */
function message(mb: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(mb * MB) }] } });
}

function sseOnce(stream: string): number {
  const parser = new SseEvents();
  const t0 = performance.now();
  let events = 0;
  for (let i = 0; i < stream.length; i += CHUNK) events += parser.feed(stream.slice(i, i + CHUNK)).length;
  const ms = performance.now() - t0;
  if (events !== 1) throw new Error(`framing bench: the parser read ${events} events, not 1`);
  return ms;
}

function stdioOnce(bytes: Buffer): number {
  const buffer = new AnsweringReadBuffer(() => undefined, bytes.length + 1);
  const t0 = performance.now();
  let messages = 0;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    buffer.append(bytes.subarray(i, i + CHUNK));
    while (buffer.readMessage() !== null) messages++;
  }
  const ms = performance.now() - t0;
  if (messages !== 1) throw new Error(`framing bench: the buffer read ${messages} messages, not 1`);
  return ms;
}

/** Median-ready runs for each framing and size, after a warm-up run of each. */
export function measureFraming(sizesMb: readonly number[] = [1, 10], runs = 7): FramingFigure[] {
  const out: FramingFigure[] = [];
  for (const mb of sizesMb) {
    const text = message(mb);
    const stream = `event: message\ndata: ${text}\n\n`;
    const bytes = Buffer.from(`${text}\n`);
    sseOnce(stream);
    stdioOnce(bytes);
    const sse: number[] = [];
    const stdio: number[] = [];
    for (let i = 0; i < runs; i++) {
      sse.push(sseOnce(stream));
      stdio.push(stdioOnce(bytes));
    }
    out.push({ framing: 'sse', mb, runsMs: sse }, { framing: 'stdio', mb, runsMs: stdio });
  }
  return out;
}
