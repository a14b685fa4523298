/**
 * How long one request to a server may go unanswered, and why that clock stops while the user
 * thinks. A call can raise a question: a 2025 server pushes `elicitation/create` while our
 * `tools/call` (or a relayed `prompts/get`) still waits for its answer. The user may keep that
 * question on screen, set it aside, or leave it queued behind another for as long as they need;
 * a timeout that fired meanwhile would throw their answer away. So while any question from the
 * server is open, the deadline of each of its legs is suspended, and once none is open it starts
 * again in full, as if the request had just been sent. A leg with no open question times out as
 * before, and progress from the server extends it as before.
 *
 * A 2026-07-28 call's questions come between its legs (mrtr/inputRounds.ts): no leg is in flight
 * while the user answers, so nothing of that call waits on a timer then. Other calls to the same
 * server are suspended too while its question is open: we cannot tell which request a pushed
 * elicitation belongs to, and waiting longer is the side that loses nothing.
 *
 * The SDK's own request timer is pushed out of the way ({@link SDK_TIMEOUT_OFF_MS}) and this one
 * aborts the request instead, with the error the SDK's timer would have raised; its timer comes
 * from the caller, so tests advance simulated time. No `vscode` import.
 */
import { SdkError, SdkErrorCode, type ProgressCallback } from '@modelcontextprotocol/client';
import type { Event } from '../util/emitter';

/** A timer the caller can cancel; tests pass a scheduler they advance themselves. */
export type SetTimer = (fn: () => void, ms: number) => { dispose(): void };

/**
 * Whether a question a server raised is still open: on screen, set aside, queued, or waiting on
 * its browser step (the pending list, elicitationQueue.ts).
 */
export interface OpenQuestions {
  hasOpen(server: string): boolean;
  /** Fires whenever the pending list changes, for any server. */
  readonly onDidChange: Event<void>;
}

/** What the legs of every call time themselves with. */
export interface LegClock {
  readonly setTimer: SetTimer;
  readonly questions: OpenQuestions;
}

/** The longest delay `setTimeout` takes (about 24.8 days); the SDK's timer never decides. */
export const SDK_TIMEOUT_OFF_MS = 2_147_483_647;

export const realTimer: SetTimer = (fn, ms) => {
  const t = setTimeout(fn, ms);
  return { dispose: () => clearTimeout(t) };
};

/** For a session built without the broker (tests of the connection alone): no question is ever open. */
export const NO_QUESTIONS: OpenQuestions = { hasOpen: () => false, onDidChange: () => ({ dispose: () => undefined }) };

export const REAL_LEG_CLOCK: LegClock = { setTimer: realTimer, questions: NO_QUESTIONS };

/** One leg's deadline: `signal` aborts when it passes. Dispose when the leg settles. */
export class LegDeadline {
  private readonly controller = new AbortController();
  private timer: { dispose(): void } | undefined;
  private readonly watch: { dispose(): void };
  private done = false;

  constructor(
    private readonly server: string,
    readonly timeoutMs: number,
    private readonly clock: LegClock,
  ) {
    this.watch = clock.questions.onDidChange(() => this.update());
    this.update();
  }

  /** Aborts with the SDK's `RequestTimeout` error when the deadline passes. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True while a question from the server is open and the clock stands still. */
  get suspended(): boolean {
    return !this.done && this.timer === undefined;
  }

  /** Progress from the server about this request: the full timeout again (unless suspended). */
  extend(): void {
    if (this.done || !this.timer) return;
    this.timer.dispose();
    this.arm();
  }

  private update(): void {
    if (this.done) return;
    const open = this.clock.questions.hasOpen(this.server);
    if (open && this.timer) {
      this.timer.dispose();
      this.timer = undefined;
    } else if (!open && !this.timer) {
      this.arm();
    }
  }

  private arm(): void {
    this.timer = this.clock.setTimer(() => this.expire(), this.timeoutMs);
  }

  private expire(): void {
    if (this.done) return;
    this.dispose();
    this.controller.abort(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: this.timeoutMs }));
  }

  dispose(): void {
    this.done = true;
    this.watch.dispose();
    this.timer?.dispose();
    this.timer = undefined;
  }
}

/** How one relayed or tool-call leg is sent. */
export interface LegOptions {
  readonly signal?: AbortSignal | undefined;
  /** Each `notifications/progress` the server sends about this request. */
  readonly onprogress?: ProgressCallback | undefined;
  readonly timeoutMs?: number;
}

/** A leg's options as the SDK takes them: its own timeout off, ours in the signal. */
export interface SdkLegOptions {
  readonly signal: AbortSignal;
  readonly onprogress?: ProgressCallback;
  readonly timeout: number;
}

/** The caller's cancel and the deadline abort the request; progress extends the deadline. */
export function sdkLegOptions(leg: LegOptions, deadline: LegDeadline): SdkLegOptions {
  const onprogress = leg.onprogress;
  return {
    signal: leg.signal ? AbortSignal.any([leg.signal, deadline.signal]) : deadline.signal,
    // Without a callback the SDK sends no progress token, so the server cannot send progress:
    // as before, only callers that show progress ask for it.
    ...(onprogress
      ? {
          onprogress: (p) => {
            deadline.extend();
            onprogress(p);
          },
        }
      : {}),
    timeout: SDK_TIMEOUT_OFF_MS,
  };
}

/** Runs one request under its {@link LegDeadline}: the one place a leg's timeout is decided. */
export async function runLeg<T>(
  server: string,
  leg: LegOptions,
  timeoutMs: number,
  clock: LegClock,
  send: (options: SdkLegOptions) => Promise<T>,
): Promise<T> {
  const deadline = new LegDeadline(server, leg.timeoutMs ?? timeoutMs, clock);
  try {
    return await send(sdkLegOptions(leg, deadline));
  } finally {
    deadline.dispose();
  }
}
