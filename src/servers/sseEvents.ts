/**
 * Server-sent events from text as it arrives, by the WHATWG event-stream rules the SDK's parser
 * (`eventsource-parser`) follows: lines end in CRLF, LF or CR; a blank line ends an event; `:`
 * starts a comment; a field's value loses one leading space; `data` lines join with LF; an event
 * with no data is still reported when it carries an `id` (resumption reads it); an event the
 * stream ends before its blank line is never reported, as the standard says. Pure, no `vscode`.
 */
export interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
  readonly id: string | undefined;
}

export class SseEvents {
  /** The pieces of the line under way: text after the last line end, none of it a CR or LF. */
  private partial: string[] = [];
  /** The last chunk ended in CR: an LF that starts the next one is the same line end (CRLF). */
  private afterCR = false;
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;
  private started = false;

  /** `onRetry` hears a `retry:` field's reconnection time, as the SDK's parser reports it. */
  constructor(private readonly onRetry?: (ms: number) => void) {}

  /**
   * The events `text` completes, in order. Only `text` is scanned, and the line under way is
   * joined once, when it ends: a large event costs time in proportion to its size, however many
   * chunks it comes in (scanning the whole buffer again on each chunk took 6 s of the extension
   * host's thread for one 10 MB answer in 64 KB chunks).
   */
  feed(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    let start = 0;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (this.afterCR && start < text.length) {
      this.afterCR = false;
      if (text.charCodeAt(start) === 10) start++;
    }
    let lf = text.indexOf('\n', start);
    let cr = text.indexOf('\r', start);
    while (lf >= 0 || cr >= 0) {
      const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      const piece = text.slice(start, end);
      this.line(this.partial.length > 0 ? this.partial.join('') + piece : piece, out);
      this.partial = [];
      start = end + 1;
      if (end === cr) {
        if (start === text.length) this.afterCR = true;
        else if (text.charCodeAt(start) === 10) start++;
      }
      // Each search runs on from where it stopped: every character is looked at once.
      if (lf >= 0 && lf < start) lf = text.indexOf('\n', start);
      if (cr >= 0 && cr < start) cr = text.indexOf('\r', start);
    }
    if (start < text.length) this.partial.push(text.slice(start));
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
