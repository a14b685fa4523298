/**
 * A stdio server's stderr reaches its log in whole lines, so the log's redaction sees every secret
 * in one piece (issue 22, item 3). Before, a line longer than 8 KB was cut into 8 KB pieces, and a
 * registered secret across a cut reached the log as two halves that neither matched.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_STDERR_LINE, StderrLines } from '../../src/servers/stderrLines';
import { redactSecrets } from '../../src/util/redact';

const SECRET = 'tok-7f3a9c2e81d44b06';

/** Every piece of the secret of 6 characters or more that a log text still holds. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 6 <= SECRET.length; i++) if (text.includes(SECRET.slice(i, i + 6))) out.push(SECRET.slice(i, i + 6));
  return out;
}

/** What the server's log gets for `chunks`: each line as the Logger writes it (redacted). */
function logged(chunks: readonly (Buffer | string)[]): string[] {
  const lines = new StderrLines();
  return [...chunks.flatMap((c) => lines.push(c)), ...lines.end()].map((l) => redactSecrets(`[server stderr] ${l}`, [SECRET]));
}

void describe('stderr lines for the log', () => {
  void it('a secret that a long line carries across where the old 8 KB cut fell is redacted whole', () => {
    // In 1000-byte chunks, as a pipe delivers them: the old cut fell after the ninth, at 9000, inside the secret.
    const line = `${'x'.repeat(8990)} ${SECRET} and more text`;
    const bytes = Buffer.from(`${line}\n`);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 1000) }, (_, i) => bytes.subarray(i * 1000, (i + 1) * 1000));
    const out = logged(chunks);
    assert.equal(out.length, 1);
    assert.deepEqual(pieces(out.join('\n')), []);
    assert.match(out[0] ?? '', /\[redacted\] and more text$/);
  });

  void it('so does a KEY=value whose name and value arrive in different chunks', () => {
    const out = logged(['starting… API_', `KEY=${SECRET.slice(0, 5)}`, `${SECRET.slice(5)} done\n`]);
    assert.deepEqual(out, ['[server stderr] starting… API_KEY=[redacted] done']);
  });

  void it('keeps a character split between two chunks, drops CR of CRLF, and logs a last line without a break', () => {
    const bytes = Buffer.from('grüße\r\nlast');
    const out = logged([bytes.subarray(0, 3), bytes.subarray(3)]);
    assert.deepEqual(out, ['[server stderr] grüße', '[server stderr] last']);
  });

  void it('a line past the limit is not logged in pieces: a note says how long it was, and the next line is whole', () => {
    const huge = `${SECRET}${'y'.repeat(MAX_STDERR_LINE)}${SECRET}`;
    const out = logged([huge.slice(0, 100_000), huge.slice(100_000), '\n', `next ${SECRET}\n`]);
    assert.equal(out.length, 2);
    assert.equal(out[0], `[server stderr] (a line of ${huge.length} characters, too long to log whole, was not logged)`);
    assert.equal(out[1], '[server stderr] next [redacted]');
    assert.deepEqual(pieces(out.join('\n')), []);
  });
});
