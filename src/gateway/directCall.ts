/**
 * The endpoint's direct path for VS Code's tool calls. A `tools/call` is nearly all the agent
 * sends, and through the SDK's web-standard transport and a `Server` each one pays for a `Request`,
 * a `Response` and its web stream, a schema check of a request VS Code already built to the schema,
 * and the SDK's dispatch: about as much as the upstream call itself (bench/README.md, "Issue 24").
 * A well-formed call on the 2025 wire (VS Code 1.139 speaks 2025-11-25) is answered here instead,
 * through the same {@link relayRequest} the relay server's handler calls, as the SDK would answer
 * it: the same event stream, headers, events and error codes, progress under VS Code's token, and
 * no answer to a call VS Code cancelled. Anything else (a batch, a malformed or task-augmented
 * call, another revision, another method) goes to the SDK's transport, which answers or refuses
 * it as before.
 *
 * What the SDK path does not do, and this one does: a call whose event stream VS Code closes
 * before its answer is cancelled upstream, since nobody can hear that answer any more.
 */
import type * as http from 'node:http';
import { isJsonContentType, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { RelayedMessage } from '../servers/connection';

type RequestId = string | number;

/** The first revision of the 2026 wire (`_meta` envelopes, `input_required`): left to the SDK. */
const FIRST_MODERN_REVISION = '2026-07-28';
/** The SDK transport's keep-alive comment on an open event stream (its `DEFAULT_SSE_KEEP_ALIVE_MS`). */
const KEEP_ALIVE_MS = 15_000;
/** How long a call's headers wait for its first event before they are sent alone. */
const HEADERS_WAIT_MS = 20;
/** The SDK's event-stream headers for a request's answer. */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

export interface DirectCall {
  readonly id: RequestId;
  readonly params: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isRequestId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/**
 * The call this body is, when the direct path answers it exactly as the SDK would: one request,
 * params the SDK's schema accepts (a string name, object arguments and `_meta`, a string or number
 * progress token), no task, and the headers the SDK's transport requires, on a 2025 revision: the
 * `MCP-Protocol-Version` header's or, without one (VS Code 1.139 sends none after `initialize`,
 * and the SDK then keeps to the negotiated revision), the one the session's `initialize` asked for.
 */
export function directCall(body: unknown, headers: http.IncomingHttpHeaders, sessionRevision: string | undefined): DirectCall | undefined {
  if (!isObject(body) || body['jsonrpc'] !== '2.0' || body['method'] !== 'tools/call' || !isRequestId(body['id'])) return undefined;
  const params = body['params'];
  if (!isObject(params) || typeof params['name'] !== 'string' || 'task' in params) return undefined;
  if (params['arguments'] !== undefined && !isObject(params['arguments'])) return undefined;
  const meta = params['_meta'];
  if (meta !== undefined && !isObject(meta)) return undefined;
  const token = meta?.['progressToken'];
  if (token !== undefined && typeof token !== 'string' && typeof token !== 'number') return undefined;
  const accept = headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(headers['content-type'])) return undefined;
  const version = headers['mcp-protocol-version'] ?? sessionRevision;
  if (typeof version !== 'string' || version >= FIRST_MODERN_REVISION || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return undefined;
  return { id: body['id'], params };
}

/** The request ids the `notifications/cancelled` in this body name (one message or a batch). */
export function cancelledIds(body: unknown): RequestId[] {
  const out: RequestId[] = [];
  for (const m of Array.isArray(body) ? (body as unknown[]) : [body]) {
    if (!isObject(m) || m['method'] !== 'notifications/cancelled' || 'id' in m) continue;
    const params = m['params'];
    if (isObject(params) && isRequestId(params['requestId'])) out.push(params['requestId']);
  }
  return out;
}

/** A thrown error as the SDK's server puts it on the wire (its 2025 codec: -32002 goes out as -32602). */
export function wireError(err: unknown): { code: number; message: string; data?: unknown } {
  const e = (typeof err === 'object' && err !== null ? err : {}) as { code?: unknown; message?: unknown; data?: unknown };
  const thrown = typeof e.code === 'number' && Number.isSafeInteger(e.code) ? e.code : -32603;
  return {
    code: thrown === -32002 ? -32602 : thrown,
    message: typeof e.message === 'string' ? e.message : 'Internal error',
    ...(e.data !== undefined ? { data: e.data } : {}),
  };
}

export type Relay = (
  params: Record<string, unknown>,
  caller: { readonly signal: AbortSignal; notify(n: RelayedMessage): Promise<void> },
) => Promise<Record<string, unknown>>;

/** The direct calls in flight, by gateway session, so that a cancellation or a session's end reaches them. */
export class DirectCalls {
  private readonly open = new Map<string, Map<RequestId, AbortController>>();

  /**
   * Aborts the direct calls a `notifications/cancelled` in `body` names. True when the body was
   * only that: nothing is left for the SDK's transport, and the answer is a 202.
   */
  cancel(sessionId: string, body: unknown): boolean {
    const calls = this.open.get(sessionId);
    if (!calls) return false;
    const ids = cancelledIds(body).filter((id) => calls.has(id));
    for (const id of ids) calls.get(id)?.abort(new Error('VS Code cancelled the call'));
    return ids.length > 0 && !Array.isArray(body);
  }

  /** The session ended (closed by VS Code, evicted, or the endpoint closing): its calls are cancelled. */
  endSession(sessionId: string): void {
    const calls = this.open.get(sessionId);
    this.open.delete(sessionId);
    for (const c of calls?.values() ?? []) c.abort(new Error('the agent session ended'));
  }

  /**
   * Answers one call on its own event stream, as the SDK's transport would. The headers wait for
   * the first event, up to {@link HEADERS_WAIT_MS}: a quick call's headers, answer and end then leave
   * in one write, which VS Code's client reads in one turn; a slow one's headers still go at once.
   */
  async serve(sessionId: string, call: DirectCall, res: http.ServerResponse, relay: Relay): Promise<void> {
    const controller = new AbortController();
    let calls = this.open.get(sessionId);
    if (!calls) this.open.set(sessionId, (calls = new Map<RequestId, AbortController>()));
    calls.set(call.id, controller);
    const event = (message: Record<string, unknown>): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    const open = (): boolean => !res.writableEnded && !res.destroyed;
    res.writeHead(200, { ...STREAM_HEADERS, 'mcp-session-id': sessionId });
    const headersDue = setTimeout(() => {
      if (open()) res.flushHeaders();
    }, HEADERS_WAIT_MS);
    const keepAlive = setInterval(() => {
      if (open()) res.write(': keepalive\n\n');
    }, KEEP_ALIVE_MS);
    keepAlive.unref();
    const onClose = (): void => controller.abort(new Error('VS Code closed the call before its answer'));
    res.once('close', onClose);
    let last: string | undefined;
    try {
      const notify = (n: RelayedMessage): Promise<void> => {
        if (open()) res.write(event({ jsonrpc: '2.0', method: n.method, ...(n.params ? { params: n.params } : {}) }));
        return Promise.resolve();
      };
      const result = await relay(call.params, { signal: controller.signal, notify });
      // The SDK's key order, so that the bytes are the same as on its path.
      if (!controller.signal.aborted) last = event({ result, jsonrpc: '2.0', id: call.id });
    } catch (err) {
      if (!controller.signal.aborted) last = event({ jsonrpc: '2.0', id: call.id, error: wireError(err) });
    } finally {
      clearTimeout(headersDue);
      clearInterval(keepAlive);
      res.off('close', onClose);
      if (calls.get(call.id) === controller) calls.delete(call.id);
      if (calls.size === 0 && this.open.get(sessionId) === calls) this.open.delete(sessionId);
      if (open()) res.end(last);
    }
  }
}
