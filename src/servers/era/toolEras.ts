/**
 * What one connection has learned of its tools' revisions (eraMismatch.ts), for the definition's
 * lifetime, and how many of its tool calls are under way: a revision switch restarts the server,
 * and must not end a call that did not ask for it. No `vscode` import.
 */
import type { Era } from './eraChoice';

export class ToolEras {
  private readonly learned = new Map<string, Era>();
  private inFlight = 0;
  /** The revision the next launch speaks for a learned tool; cleared when the server refuses it. */
  next: { readonly era: Era; readonly tool: string } | undefined;

  of(tool: string): Era | undefined {
    return this.learned.get(tool);
  }

  learn(tool: string, era: Era): void {
    this.learned.set(tool, era);
    this.next = { era, tool };
  }

  /** The server refused what was learned (it changed between restarts): nothing is kept. */
  forget(): void {
    this.next = undefined;
    this.learned.clear();
  }

  /** Counts a call under way until the returned function is called (once). */
  track(): () => void {
    this.inFlight++;
    let done = false;
    return () => {
      if (!done) this.inFlight--;
      done = true;
    };
  }

  /** Calls under way other than the caller's own. */
  get others(): number {
    return Math.max(0, this.inFlight - 1);
  }
}
