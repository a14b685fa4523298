/**
 * A stdio server's stderr, cut into the lines its log shows. Every line reaches the log whole, so
 * the log's redaction sees a secret (or `KEY=value`) in one piece: a line cut into pieces would
 * let each piece through with half a secret in it. A server that writes more than
 * {@link MAX_STDERR_LINE} characters without a line break gets a note with the count instead of the
 * text. Pure: no `vscode`, no streams.
 */
import { StringDecoder } from 'node:string_decoder';

/** The longest stderr line kept for the log, in UTF-16 code units. */
export const MAX_STDERR_LINE = 256 * 1024;

export class StderrLines {
  // Bytes to text across chunks: a character split between two chunks stays one character.
  private readonly decoder = new StringDecoder('utf8');
  private buf = '';
  /** Characters dropped from the line being read (it went past the limit). */
  private dropped = 0;

  /** The complete lines in `chunk` (with what came before it), without their line breaks. */
  push(chunk: Buffer | string): string[] {
    this.buf += typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const lines: string[] = [];
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      lines.push(this.take(this.buf.slice(0, nl).replace(/\r$/, '')));
      this.buf = this.buf.slice(nl + 1);
    }
    if (this.buf.length > MAX_STDERR_LINE) {
      this.dropped += this.buf.length;
      this.buf = '';
    }
    return lines;
  }

  /** What is left when the stream ends, as a last line. */
  end(): string[] {
    this.buf += this.decoder.end();
    const rest = this.buf === '' && this.dropped === 0 ? [] : [this.take(this.buf)];
    this.buf = '';
    return rest;
  }

  private take(line: string): string {
    if (this.dropped === 0) return line;
    const n = this.dropped + line.length;
    this.dropped = 0;
    return `(a line of ${n} characters, too long to log whole, was not logged)`;
  }
}
