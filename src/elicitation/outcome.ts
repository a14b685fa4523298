/**
 * How an elicitation ended: the one record that the queue's history, the pending view and the
 * audit log all read. Built once, by the broker, when a request is settled.
 */
import type { AnswerContent } from '../shared/fieldModel';
import type { Asker } from './asker';

/** How an elicitation ended, as sent to the server (`error` when no reply could be sent). */
export type ElicitationAction = 'accept' | 'decline' | 'cancel' | 'error';

/**
 * Who or what ended it: the user, a policy or the rate limit (declined unseen), the server
 * (cancelled its request), the cancellation of the call that raised it (callCancel.ts), a
 * timeout, the server disconnecting, or an answer the user asked to have remembered (`memory`).
 */
export type DecidedBy = 'user' | 'policy' | 'rateLimit' | 'serverCancel' | 'callCancel' | 'timeout' | 'disconnect' | 'memory';

/**
 * Where a request came from when a 2026-07-28 server asked inside a call (`input_required`): the
 * call, its round (1-based), the key of the input request, and its place among the round's requests.
 */
export interface CallRound {
  readonly call: string;
  /** Unique per call (set by the round loop): the history groups a call's rounds by it. */
  readonly callId?: string;
  readonly round: number;
  readonly key: string;
  readonly index: number;
  readonly total: number;
}

/**
 * What became of "Open in Browser": `opened`, or `notOpened` when `vscode.env.openExternal`
 * resolved false (the user turned down VS Code's own link prompt, or no browser could be opened).
 * Absent when the browser was never asked (Copy URL, Decline, Escape).
 */
export type BrowserStep = 'opened' | 'notOpened';

/** What a server asked for: a form, a url step, or a sample from a language model. */
export type RequestMode = 'form' | 'url' | 'sampling';

/** One finished elicitation (or sampling request: same list, history and audit). */
export interface FinishedElicitation {
  readonly id: string;
  readonly asker: Asker;
  readonly mode: RequestMode;
  /** The sanitised, length-capped text the user saw. */
  readonly message: string;
  /** Field names of the requested schema (form mode). */
  readonly fieldKeys: readonly string[];
  /** Fields whose values must never be written (declared or detected as secret). */
  readonly secretKeys: readonly string[];
  readonly action: ElicitationAction;
  readonly decidedBy: DecidedBy;
  readonly durationMs: number;
  readonly at: Date;
  /** The URL of a url-mode request. */
  readonly url?: string;
  /** url mode, when the user chose "Open in Browser": whether the browser really opened it. */
  readonly browser?: BrowserStep;
  /** The submitted answer, when accepted. */
  readonly content?: AnswerContent;
  /** Set when the request was one round of a 2026-07-28 call. */
  readonly round?: CallRound;
  /** sampling: the model that was (or would have been) asked. */
  readonly model?: string;
}
