/**
 * Logs refused gateway requests at a bounded rate. Anything on this machine can send requests to
 * the gateway's port; refusing them is cheap, but a line for each would let a flood fill the log
 * and bury what matters. The first few in a window are logged; the rest are counted and the count
 * is logged with the next line that gets through. No `vscode` import.
 */
export class RefusalLog {
  private windowStart: number | undefined;
  private inWindow = 0;
  private suppressed = 0;

  constructor(
    private readonly warn: (line: string) => void,
    private readonly limit = 5,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records one refusal; logs `line` unless this window already logged `limit` of them. */
  note(line: string): void {
    const t = this.now();
    if (this.windowStart === undefined || t - this.windowStart >= this.windowMs || t < this.windowStart) {
      this.windowStart = t;
      this.inWindow = 0;
    }
    if (this.inWindow >= this.limit) {
      this.suppressed++;
      return;
    }
    this.inWindow++;
    const skipped = this.suppressed;
    this.suppressed = 0;
    const notes = [
      ...(skipped > 0 ? [`${skipped} earlier refusals were not logged`] : []),
      ...(this.inWindow === this.limit
        ? [`further refusals in the next ${Math.round(this.windowMs / 1000)} s are counted, not logged`]
        : []),
    ];
    this.warn(notes.length ? `${line} (${notes.join('; ')})` : line);
  }
}
