import type { SetTimer } from '../../src/servers/legDeadline';

/**
 * Simulated time for the timers given to it: nothing fires until a test calls `advance`, which
 * runs every timer that falls due on the way, in order. No `vscode` import: the unit tests use it
 * too, and the in-host tests reach it through TestHooks.
 */
export class ManualClock {
  private nowMs = 0;
  private timers: { at: number; fn: () => void }[] = [];

  readonly setTimer: SetTimer = (fn, ms) => {
    const t = { at: this.nowMs + ms, fn };
    this.timers.push(t);
    return { dispose: () => void (this.timers = this.timers.filter((x) => x !== t)) };
  };

  /** Simulated ms since the clock was made. */
  get now(): number {
    return this.nowMs;
  }

  /** How many timers wait to fire. */
  get waiting(): number {
    return this.timers.length;
  }

  /** Lets `ms` of simulated time pass: each timer due meanwhile fires, earliest first. */
  advance(ms: number): void {
    const until = this.nowMs + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.nowMs = due.at;
      due.fn();
    }
    this.nowMs = until;
  }
}
