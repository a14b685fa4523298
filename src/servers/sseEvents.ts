/**
 * Server-sent events from text as it arrives, by the WHATWG event-stream rules the SDK's parser
 * (`eventsource-parser`) follows: lines end in CRLF, LF or CR; a blank line ends an event; `:`
 * starts a comment; a field's value loses one leading space; `data` lines join with LF; an event
 * with no data is still reported when it carries an `id` (resumption reads it). Pure, no `vscode`.
 */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
  readonly id: string | undefined;
}

export class SseEvents {
  private buf = '';
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;
  private started = false;

  /** `onRetry` hears a `retry:` field's reconnection time, as the SDK's parser reports it. */
  constructor(private readonly onRetry?: (ms: number) => void) {}

  /** The events `text` completes, in order. */
  feed(text: string): SseEvent[] {
    let s = this.buf + text;
    if (!this.started && s.length > 0) {
      this.started = true;
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    }
    const out: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (c === 13 && i === s.length - 1) break;
      this.line(s.slice(start, i), out);
      if (c === 13 && s.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    this.buf = s.slice(start);
    return out;
  }

  /** The stream ended: an unterminated last event is dropped, as the standard says. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.buf.endsWith('\r')) this.line(this.buf.slice(0, -1), out);
    this.buf = '';
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      if (this.data.length > 0 || this.id !== undefined) out.push({ event: this.event, data: this.data.join('\n'), id: this.id });
      this.data = [];
      this.event = undefined;
      this.id = undefined;
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ':' a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.onRetry?.(Number(value));
  }
}
