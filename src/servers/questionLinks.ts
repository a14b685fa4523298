/**
 * Which of our calls a question pushed by a 2025 server belongs to, so that cancelling the call
 * closes the question too. A well-behaved server withdraws its `elicitation/create` when its
 * `tools/call` is cancelled; some do not (`server-everything`'s `trigger-elicitation-request`
 * sends it with no signal), and their form would stay open for a call nobody waits for.
 *
 * The link, strongest first:
 * - Streamable HTTP: a request the server sends in answer to our request N arrives on the event
 *   stream of the POST that carried N (the server SDK's `relatedRequestId`); answeringFetch.ts
 *   reads the streams and notes it here ({@link QuestionLinks.arrivedOn}).
 * - Otherwise (stdio, the legacy SSE transport, the standalone GET stream) nothing on the wire
 *   says, so it is inferred only when it is unambiguous: exactly one request of ours was waiting
 *   for the server when the question came. Two or more, or none, and the question is linked to
 *   nothing: it stays open until the server or the user ends it, as before.
 * Every request of ours counts (a lookup in flight makes it ambiguous too): any request the
 * server has not answered may be the one it asks for.
 *
 * 2026-07-28 questions need none of this: a round belongs to its call (mrtr/inputRounds.ts).
 *
 * Fed from the wire by the session (session.ts): each request we send, each response we get,
 * each `notifications/cancelled` we send. Pure: no `vscode` import, no timers.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { CallCancelled } from '../elicitation/callCancel';

export type RequestId = string | number;

/**
 * Where an HTTP transport reports that the server's request `serverId` (a question) arrived on
 * the event stream of our request `callId`. The session sets `onArrived` (answeringFetch.ts calls it).
 */
export interface StreamOrigins {
  onArrived: ((serverId: RequestId, callId: RequestId) => void) | undefined;
}

/** The server requests that are questions: the ones a call's cancellation closes. */
export const QUESTION_METHODS: ReadonlySet<string> = new Set(['elicitation/create', 'sampling/createMessage']);

/** How a question was tied to a call, for the log. */
export type LinkKind = 'stream' | 'inferred';

/** A question's link to a call: `signal` aborts with {@link CallCancelled} when that call is cancelled. */
export interface QuestionLink {
  readonly call: RequestId;
  readonly kind: LinkKind;
  readonly signal: AbortSignal;
  /** The question is over (answered, withdrawn or closed): forget it. */
  dispose(): void;
}

/** Why a question was not linked, for the log. */
export interface Unlinked {
  readonly call: undefined;
  /** How many of our requests were waiting when it came. */
  readonly inFlight: number;
}

/**
 * More arrivals than a session has questions waiting to be read at once: a question is read back
 * in the turn after it arrives, and a server has at most a few hundred open (clientTasks.ts caps tasks at 200).
 */
export const MAX_STREAM_LINKS = 1024;

export class QuestionLinks {
  /** Our requests the server has not answered (nor we cancelled), by id, with their method. */
  private readonly waiting = new Map<RequestId, string>();
  /** Server request id → our request id, from the HTTP event stream it arrived on. */
  private readonly streams = new Map<RequestId, RequestId>();
  /** Our request id → the questions linked to it that are still open. */
  private readonly open = new Map<RequestId, Set<AbortController>>();

  /** We sent request `id`. */
  sent(id: RequestId, method: string): void {
    this.waiting.set(id, method);
  }

  /** The server answered our request `id` (result or error). */
  answered(id: RequestId): void {
    this.waiting.delete(id);
  }

  /**
   * The server's request `serverId` arrived on the event stream of our request `callId` (HTTP).
   * Most are read back at once by {@link question}; one that never is (a task-augmented question,
   * one refused before it is asked, one the SDK drops) would stay for the session, so only the
   * newest {@link MAX_STREAM_LINKS} are kept, and a server sending questions without end cannot
   * grow this without end.
   */
  arrivedOn(serverId: RequestId, callId: RequestId): void {
    this.streams.delete(serverId);
    this.streams.set(serverId, callId);
    if (this.streams.size > MAX_STREAM_LINKS) this.streams.delete(this.streams.keys().next().value as RequestId);
  }

  /** How many of our requests wait for the server now. */
  get inFlight(): number {
    return this.waiting.size;
  }

  /** The method of our request `id`, while it waits. */
  methodOf(id: RequestId): string | undefined {
    return this.waiting.get(id);
  }

  /**
   * The server's request `serverId` (a question) arrived: linked to the call it came on (HTTP),
   * or to the one call in flight, or to nothing. Dispose the link when the question is over.
   */
  question(serverId: RequestId): QuestionLink | Unlinked {
    const onStream = this.streams.get(serverId);
    this.streams.delete(serverId);
    const only = this.waiting.size === 1 ? [...this.waiting.keys()][0] : undefined;
    const call = onStream ?? only;
    if (call === undefined) return { call: undefined, inFlight: this.waiting.size };
    const controller = new AbortController();
    let set = this.open.get(call);
    if (!set) this.open.set(call, (set = new Set()));
    set.add(controller);
    return {
      call,
      kind: onStream !== undefined ? 'stream' : 'inferred',
      signal: controller.signal,
      dispose: () => {
        const s = this.open.get(call);
        s?.delete(controller);
        if (s?.size === 0) this.open.delete(call);
      },
    };
  }

  /**
   * A message we send: a request now waits; a `notifications/cancelled` ends its request and
   * closes the questions linked to it (then says which, and how many closed).
   */
  outgoing(msg: JSONRPCMessage): { readonly id: RequestId; readonly method: string | undefined; readonly closed: number } | undefined {
    if (!('method' in msg)) return undefined;
    if ('id' in msg) {
      this.sent(msg.id, msg.method);
      return undefined;
    }
    if (msg.method !== 'notifications/cancelled') return undefined;
    const id = (msg.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return undefined;
    const method = this.waiting.get(id);
    return { id, method, closed: this.cancelled(id, method) };
  }

  /**
   * We cancelled our request `id` (`notifications/cancelled`): it no longer waits, and every
   * question linked to it closes. Returns how many closed.
   */
  cancelled(id: RequestId, label?: string): number {
    this.waiting.delete(id);
    const set = this.open.get(id);
    this.open.delete(id);
    if (!set) return 0;
    for (const c of set) c.abort(new CallCancelled(label));
    return set.size;
  }
}
