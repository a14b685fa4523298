/**
 * Requests whose event stream ended without their answer.
 *
 * Over Streamable HTTP a request's answer comes on the event stream of its POST. When that stream
 * ends without it (the server crashed or restarted mid-call, a proxy dropped the connection, a
 * server bug) and cannot be resumed, the answer will never come: the 2025 spec sends a response on
 * no other stream, and 2026-07-28 removed resumption altogether. The SDK's transport says so
 * through the send option `onRequestStreamEnd`, but its client passes that option only for
 * `subscriptions/listen`, so any other request waited for its deadline: a tool call fifteen
 * minutes, with the agent waiting behind it. Here every request we send gets that option, and an
 * unanswered one fails at once with {@link STREAM_ENDED}, an error the SDK delivers to its caller
 * like any other. sessionRequests.ts sends a 2026-07-28 request again once, as that revision
 * requires. No `vscode` import.
 */
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';

type RequestId = string | number;

/** The error a request gets when its stream ended unanswered (JSON-RPC's implementation-defined range). */
export const STREAM_ENDED = { code: -32000, reason: 'streamEnded' } as const;

/** Whether an error is the one {@link UnansweredStreams} gives a request whose stream ended unanswered. */
export function isStreamEnded(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, data } = err as { code?: unknown; data?: { reason?: unknown } };
  return code === STREAM_ENDED.code && data?.reason === STREAM_ENDED.reason;
}

export class UnansweredStreams {
  /** Our requests still waiting for their answer, with their method for the log. */
  private readonly open = new Map<RequestId, string>();

  constructor(
    private readonly transport: Transport,
    private readonly warn: (message: string) => void,
  ) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      if (Array.isArray(message)) return send(message, options);
      this.cancelled(message);
      // A caller that passed its own (`subscriptions/listen`) settles its request itself.
      if (!isJSONRPCRequest(message) || options?.onRequestStreamEnd !== undefined) return send(message, options);
      const { id, method } = message;
      this.open.set(id, method);
      // A 2026-07-28 request is cancelled by closing its stream (its own signal): no answer is due.
      options?.requestSignal?.addEventListener('abort', () => this.open.delete(id), { once: true });
      return send(message, { ...options, onRequestStreamEnd: () => this.ended(id) }).catch((err: unknown) => {
        // The SDK rejects the request with this error itself.
        this.open.delete(id);
        throw err;
      });
    };
  }

  /** The server answered `id` (HostClient's `onResponse`). */
  answered(id: RequestId): void {
    this.open.delete(id);
  }

  /** We cancelled a request: a server may end its stream without an answer then, as the spec asks. */
  private cancelled(message: JSONRPCMessage): void {
    if (!isJSONRPCNotification(message) || message.method !== 'notifications/cancelled') return;
    const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof id === 'string' || typeof id === 'number') this.open.delete(id);
  }

  private ended(id: RequestId): void {
    const method = this.open.get(id);
    if (method === undefined) return;
    this.open.delete(id);
    this.warn(`the server ended the event stream of our ${method} ${JSON.stringify(id)} without answering it`);
    const error: JSONRPCErrorResponse = {
      jsonrpc: '2.0',
      id,
      error: {
        code: STREAM_ENDED.code,
        message: `The server ended the stream of this ${method} without answering it (it may have stopped or restarted)`,
        data: { reason: STREAM_ENDED.reason },
      },
    };
    this.transport.onmessage?.(error);
  }
}
