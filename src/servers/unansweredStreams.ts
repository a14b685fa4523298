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
 * like any other ({@link failUnansweredStreams}). sessionRequests.ts sends a 2026-07-28 request again once, as that revision
 * requires. No `vscode` import.
 */
import { isJSONRPCRequest, type JSONRPCErrorResponse, type Transport } from '@modelcontextprotocol/client';

type RequestId = string | number;

/** The error a request gets when its stream ended unanswered (JSON-RPC's implementation-defined range). */
export const STREAM_ENDED = { code: -32000, reason: 'streamEnded' } as const;

/** Whether an error is the one {@link failUnansweredStreams} gives a request whose stream ended unanswered. */
export function isStreamEnded(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, data } = err as { code?: unknown; data?: { reason?: unknown } };
  return code === STREAM_ENDED.code && data?.reason === STREAM_ENDED.reason;
}

/**
 * Has every request sent on `transport` fail at once when its stream ends unanswered. Whether it
 * still waits, and for what method, is `waiting`'s to say (the session's questionLinks.ts, which
 * sees each request, response and cancellation): a request answered or cancelled is left alone.
 */
export function failUnansweredStreams(
  transport: Transport,
  waiting: (id: RequestId) => string | undefined,
  warn: (message: string) => void,
): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    // A caller that passed its own (`subscriptions/listen`) settles its request itself.
    if (Array.isArray(message) || !isJSONRPCRequest(message) || options?.onRequestStreamEnd !== undefined) {
      return send(message, options);
    }
    const { id } = message;
    // A request whose send failed is failed with that error by the SDK; a 2026-07-28 request
    // aborted by its own signal (a cancellation) is owed no answer.
    let failed = false;
    const ended = (): void => {
      const method = waiting(id);
      if (failed || options?.requestSignal?.aborted === true || method === undefined) return;
      warn(`the server ended the event stream of our ${method} ${JSON.stringify(id)} without answering it`);
      transport.onmessage?.(streamEnded(id, method));
    };
    return send(message, { ...options, onRequestStreamEnd: ended }).catch((err: unknown) => {
      failed = true;
      throw err;
    });
  };
}

function streamEnded(id: RequestId, method: string): JSONRPCErrorResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: STREAM_ENDED.code,
      message: `The server ended the stream of this ${method} without answering it (it may have stopped or restarted)`,
      data: { reason: STREAM_ENDED.reason },
    },
  };
}
