/**
 * A session's view of its transport's traffic (session.ts): every message to the trace log, our
 * requests and cancellations to the question links (questionLinks.ts), and each pushed question
 * run with the signal that ends it, so cancelling a call closes the questions it raised. Installed
 * by wrapping the transport's `send` and `onmessage`; no `vscode` import.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { QuestionLinks, RequestId } from './questionLinks';

/** The part of a session's log this writes to. */
export interface WireLog {
  readonly isTracing: boolean;
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
}

/** The one place a wire message is written to the log. */
function trace(log: WireLog, direction: '→' | '←', msg: JSONRPCMessage): void {
  log.trace(`${direction} ${JSON.stringify(msg)}`);
}

/**
 * Wraps the transport's send: every outgoing message reaches the trace (while tracing is on),
 * and our requests and cancellations reach `links`, so a call's cancellation closes its questions.
 */
export function watchOutgoing(transport: Transport, log: WireLog, links: QuestionLinks): void {
  const send = transport.send.bind(transport);
  transport.send = (msg, opts) => {
    if (log.isTracing) trace(log, '→', msg);
    const cancelled = links.outgoing(msg);
    if (cancelled && cancelled.closed > 0) {
      const what = `our ${cancelled.method ?? 'request'} ${JSON.stringify(cancelled.id)}`;
      log.info(`${what} was cancelled: closed ${cancelled.closed} question(s) it raised`);
    }
    return send(msg, opts);
  };
}

/** Wraps the handler the client installed at connect, so every incoming message reaches the trace. */
export function traceIncoming(transport: Transport, log: WireLog): void {
  if (!log.isTracing) return;
  const onmessage = transport.onmessage;
  transport.onmessage = (msg, extra) => {
    trace(log, '←', msg);
    onmessage?.(msg, extra);
  };
}

/**
 * Runs one pushed question with the signal that ends it: the server's cancellation of it, and
 * the cancellation of the call it belongs to, when that is known (questionLinks.ts).
 */
export async function askLinked<T>(
  links: QuestionLinks,
  log: WireLog,
  question: { readonly id: RequestId; readonly signal: AbortSignal },
  method: string,
  ask: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const link = links.question(question.id);
  const id = JSON.stringify(question.id);
  if (link.call === undefined) {
    if (link.inFlight > 1) {
      log.debug(`${method} ${id} may belong to any of ${link.inFlight} requests in flight: cancelling one of them leaves it open`);
    }
    return ask(question.signal);
  }
  const how = link.kind === 'stream' ? 'arrived on its stream' : 'the only request in flight';
  log.debug(`${method} ${id} belongs to our ${links.methodOf(link.call) ?? 'request'} ${JSON.stringify(link.call)} (${how})`);
  try {
    return await ask(AbortSignal.any([question.signal, link.signal]));
  } finally {
    link.dispose();
  }
}
