/**
 * A quicker POST for our requests to a Streamable HTTP server on this machine.
 *
 * Why: the SDK's transport turns every answer into a fetch `Response` and reads it through a web
 * stream, a `TextDecoderStream` and an event-source parser, each piped stage costing event-loop
 * turns per chunk. For a server on loopback that is most of a call's cost on our side, and the
 * agent gateway pays it on every call it relays (bench/README.md, "Issue 24"). Here the request
 * goes out through `node:http` on the shared keep-alive agent, and a `200` event stream or JSON
 * answer is read directly: each event's message is checked as answeringFetch.ts checks it (a
 * malformed server request is answered; a question is tied to the call whose stream it came on),
 * validated with the SDK's own JSON-RPC schema, and handed to the transport's `onmessage`, as the
 * SDK's transport hands it. The client (ids, progress, cancellation, result schemas, output
 * schemas) is the SDK's, unchanged.
 *
 * On the 2026-07-28 wire a request carries its revision in its `_meta` envelope, and the headers
 * the server cross-checks against the body (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) are
 * set by the SDK transport's own `_applyBodyDerivedHeaders`, as its send sets them; a request with
 * per-request headers (a tool's `x-mcp-header` parameters) goes to the SDK.
 *
 * What is not read here goes to the SDK: a batch, the handshake, a resumption, and any other
 * answer (a 401 or 403 that starts sign-in, a 404 for an expired session, a 2026 400 carrying a
 * JSON-RPC error, a redirect, an error, an odd content type). The answer the server already gave
 * is handed to the SDK's own send of the same body ({@link HandedOver}), so the request is never
 * sent twice. Reading the SDK transport's private members (`_commonHeaders`,
 * `_applyBodyDerivedHeaders`, `_abortController`, `_scheduleReconnection`) ties this to
 * @modelcontextprotocol/client 2.4; {@link installDirectPost} checks they exist and otherwise
 * leaves the transport (or its 2026 requests) as it is.
 */
import type * as http from 'node:http';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import {
  PROTOCOL_VERSION_META_KEY,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { answeredMalformed, type OnQuestion } from './answeringFetch';
import type { MalformedReply } from './answeringReadBuffer';
import { type HandedOver, isLoopback, loopbackAgent, responseOf, sendOnLoopback } from './loopbackFetch';
import type { StreamOrigins } from './questionLinks';
import { SseEvents, type SseEvent } from './sseEvents';

/** The members of the SDK's StreamableHTTPClientTransport this reads (2.4). */
interface SdkTransport {
  _commonHeaders(): Promise<Headers>;
  /** The 2026 headers a request's `_meta` envelope calls for; absent before the SDK had them. */
  _applyBodyDerivedHeaders?: (headers: Headers, message: JSONRPCMessage) => void;
  _abortController: AbortController | undefined;
  _serverRetryMs: number | undefined;
  _scheduleReconnection(options: Record<string, unknown>, attempt: number): void;
  onmessage?: ((message: JSONRPCMessage) => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  send(message: JSONRPCMessage | JSONRPCMessage[], options?: TransportSendOptions): Promise<void>;
}

export interface DirectPostDeps {
  readonly url: URL;
  readonly handedOver: HandedOver;
  /** Answers a malformed server request (answeringFetch.ts's `answer`). */
  readonly answer: (reply: MalformedReply) => void;
  readonly origins: StreamOrigins;
}

/** Media type without parameters, lower case (the SDK's `mediaTypeEssence`). */
function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * What {@link installDirectPost} did: `all` requests it reads go direct, `2025` only the 2025
 * wire's (this SDK sets the 2026 headers some other way), `none` because the SDK's transport lacks
 * what this file reads, or `notLoopback` (not plain HTTP on this machine: nothing to do).
 */
export type DirectPostInstall = 'all' | '2025' | 'none' | 'notLoopback';

/**
 * Has the transport send what this file reads through `node:http`, when `deps.url` is a
 * plain-HTTP loopback address and the SDK members it needs are there. The answer says which, so
 * that an SDK upgrade that moved them is logged, not silently slower.
 */
export function installDirectPost(transport: Transport, deps: DirectPostDeps): DirectPostInstall {
  const t = transport as unknown as SdkTransport;
  if (deps.url.protocol !== 'http:' || !isLoopback(deps.url)) return 'notLoopback';
  if (typeof t._commonHeaders !== 'function' || typeof t._scheduleReconnection !== 'function') return 'none';
  const sdkSend = t.send.bind(t);
  const mirrors = typeof t._applyBodyDerivedHeaders === 'function';
  const open = (): boolean => t._abortController !== undefined && !t._abortController.signal.aborted;
  t.send = (message, options) =>
    sentDirectly(message, options, mirrors) && open() ? post(t, message, options, sdkSend, deps) : sdkSend(message, options);
  return mirrors ? 'all' : '2025';
}

/**
 * Whether a message is one this file sends: a request of ours other than the handshake, with
 * nothing the SDK's own send must add to it (a resumption, per-request headers), on the 2025
 * wire, or on the 2026 wire when the SDK transport's header rule (`mirrors`) is there.
 */
export function sentDirectly(
  message: JSONRPCMessage | JSONRPCMessage[],
  options: TransportSendOptions | undefined,
  mirrors: boolean,
): message is JSONRPCRequest {
  if (Array.isArray(message) || !isJSONRPCRequest(message) || message.method === 'initialize') return false;
  if (options?.resumptionToken !== undefined || options?.headers !== undefined) return false;
  const meta = message.params?._meta;
  return mirrors || !(meta && PROTOCOL_VERSION_META_KEY in meta);
}

async function post(
  t: SdkTransport,
  message: JSONRPCRequest,
  options: TransportSendOptions | undefined,
  sdkSend: SdkTransport['send'],
  deps: DirectPostDeps,
): Promise<void> {
  const body = JSON.stringify(message);
  let res: http.IncomingMessage;
  try {
    const headers = await t._commonHeaders();
    t._applyBodyDerivedHeaders?.(headers, message);
    headers.set('content-type', 'application/json');
    const types = [
      ...(headers
        .get('accept')
        ?.split(',')
        .map((s) => s.trim().toLowerCase()) ?? []),
      'application/json',
      'text/event-stream',
    ];
    headers.set('accept', [...new Set(types)].join(', '));
    // The SDK gives each 2026 request a signal of its own: aborting it closes that request's stream.
    const transportSignal = t._abortController?.signal;
    const requestSignal = options?.requestSignal;
    const signal =
      requestSignal && transportSignal ? AbortSignal.any([transportSignal, requestSignal]) : (requestSignal ?? transportSignal);
    res = await request(deps.url, headers, body, signal);
  } catch (error) {
    if (options?.requestSignal?.aborted !== true) t.onerror?.(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  const type = mediaType(res.headers['content-type']);
  if (res.statusCode === 200 && type === 'text/event-stream') {
    readEvents(t, res, message.id, options, deps);
    return;
  }
  if (res.statusCode === 200 && type === 'application/json') {
    const messages = await readJson(res);
    for (const m of messages) t.onmessage?.(JSONRPCMessageSchema.parse(m));
    return;
  }
  deps.handedOver.set(body, responseOf(res, deps.url, 'POST'));
  return sdkSend(message, options);
}

function request(url: URL, headers: Headers, body: string, signal: AbortSignal | undefined): Promise<http.IncomingMessage> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => (out[name] = value));
  return sendOnLoopback(loopbackAgent(), { url, method: 'POST', headers: out, body }, signal);
}

function readJson(res: http.IncomingMessage): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.on('error', reject);
    res.on('end', () => {
      try {
        const data = JSON.parse(text) as unknown;
        resolve(Array.isArray(data) ? data : [data]);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  });
}

/** The SDK transport's `_handleSseStream` for a POST's answer (not reconnectable unless primed). */
function readEvents(
  t: SdkTransport,
  res: http.IncomingMessage,
  callId: string | number,
  options: TransportSendOptions | undefined,
  deps: DirectPostDeps,
): void {
  const onQuestion: OnQuestion | undefined = deps.origins.onArrived ? (q) => deps.origins.onArrived?.(q.id, callId) : undefined;
  const parser = new SseEvents((ms) => (t._serverRetryMs = ms));
  let lastEventId: string | undefined;
  let primed = false;
  let answered = false;
  const intentional = (): boolean => t._abortController?.signal.aborted === true || options?.requestSignal?.aborted === true;
  const handle = (event: SseEvent): void => {
    if (event.id) {
      lastEventId = event.id;
      primed = true;
      options?.onresumptiontoken?.(event.id);
    }
    if (!event.data || (event.event && event.event !== 'message')) return;
    try {
      const raw = JSON.parse(event.data) as unknown;
      if (answeredMalformed(raw, deps.answer, onQuestion)) return;
      const message = JSONRPCMessageSchema.parse(raw);
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) answered = true;
      t.onmessage?.(message);
    } catch (error) {
      t.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  };
  const ended = (): void => {
    if (primed && !answered && t._abortController && !intentional()) {
      t._scheduleReconnection(
        {
          resumptionToken: lastEventId,
          onresumptiontoken: options?.onresumptiontoken,
          requestSignal: options?.requestSignal,
          onRequestStreamEnd: options?.onRequestStreamEnd,
        },
        0,
      );
    } else if (!intentional()) {
      options?.onRequestStreamEnd?.();
    }
  };
  // One event per microtask, as the SDK's reader loop delivers them: the client handles a
  // notification (progress) a microtask after it arrives and a response at once, so a call's
  // progress and answer read from one chunk must not reach it in the same turn.
  let queue = Promise.resolve();
  const later = (fn: () => void): void => {
    queue = queue.then(fn);
  };
  let done = false;
  let failure: Error | undefined;
  res.setEncoding('utf8');
  res.on('error', (e) => (failure = e));
  res.on('data', (chunk: string) => {
    for (const event of parser.feed(chunk)) later(() => handle(event));
  });
  res.on('end', () => {
    done = true;
    later(ended);
  });
  res.on('close', () => {
    if (done || intentional()) return;
    done = true;
    later(() => {
      t.onerror?.(new Error(`SSE stream disconnected: ${failure ? String(failure) : 'the connection closed'}`));
      ended();
    });
  });
}
