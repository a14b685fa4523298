/**
 * A question closed because the call that raised it was cancelled (by Run Tool's Cancel, the API
 * caller's token, or the agent through the gateway), as opposed to the server withdrawing it.
 * The abort reason carries the difference from the place that knows it to the queue and the
 * brokers, so the history and the audit say who ended the question, and the user is told why it
 * closed. Pure: no `vscode` import.
 */
import type { DecidedBy } from './outcome';

/**
 * Marks the reason, through the global symbol registry: a test build bundles its own copy of this
 * module, so `instanceof` would not recognise a reason made by the other copy.
 */
const BRAND = Symbol.for('mcpElicitation.callCancelled');

/** The abort reason of a question whose call was cancelled. */
export class CallCancelled extends Error {
  readonly [BRAND] = true;
  constructor(readonly call?: string) {
    super(call ? `the call ${call} was cancelled` : 'the call was cancelled');
    this.name = 'CallCancelled';
  }
}

/** True for a {@link CallCancelled} reason, whichever copy of this module made it. */
export function isCallCancelled(reason: unknown): reason is CallCancelled {
  return typeof reason === 'object' && reason !== null && (reason as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * A signal that aborts with {@link CallCancelled} when `call` aborts (or at once, if it has),
 * for the questions of that call; `dispose` drops the listener when the question is over.
 */
export function callScoped(call: AbortSignal, label?: string): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const abort = (): void => controller.abort(new CallCancelled(label));
  if (call.aborted) abort();
  else call.addEventListener('abort', abort, { once: true });
  return { signal: controller.signal, dispose: () => call.removeEventListener('abort', abort) };
}

/** Who ended a question whose signal aborted: its call's cancellation, or else the server. */
export function abortedBy(signal: AbortSignal): Extract<DecidedBy, 'callCancel' | 'serverCancel'> {
  return isCallCancelled(signal.reason) ? 'callCancel' : 'serverCancel';
}
