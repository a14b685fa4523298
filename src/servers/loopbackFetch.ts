/**
 * A `fetch` for MCP servers on this machine: requests the SDK sends to a plain-HTTP loopback
 * server go out through `node:http` with a keep-alive agent; everything else goes to `inner`.
 *
 * Why: in the extension host `fetch` is VS Code's wrapped one (proxy and certificate support),
 * and on loopback its round trip costs about twice `node:http`'s (bench/README.md, "Extension host
 * → the HTTP copy"). The agent gateway in front of a local HTTP server pays that once more than
 * VS Code calling the server itself, on every call. What the wrapping adds (a proxy lookup, the
 * system's certificates) does not concern a plain-HTTP server on this machine. The extension host
 * wraps `http.request` too, so requests are made with `new http.ClientRequest`, which it leaves alone.
 *
 * Only what the SDK's Streamable HTTP and SSE transports send is taken: a string (or absent) body
 * and `redirect: 'manual'` (the SDK's default redirect policy follows redirects itself, within the
 * origin, and asks fetch for them unfollowed). Anything else (a `Request` object, another body
 * type, fetch's own redirect following for OAuth discovery) keeps `inner`'s behaviour exactly.
 */
import * as http from 'node:http';
import { Readable } from 'node:stream';

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** `localhost`, 127.0.0.0/8 or ::1: an address that cannot leave this machine. */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Statuses whose response has no body (the Response constructor refuses one for them). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/** The request `fetch(input, init)` would send, when it is one this client takes over. */
export function loopbackRequest(
  input: string | URL | Request,
  init: RequestInit | undefined,
): { url: URL; method: string; headers: Record<string, string>; body: string | undefined } | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  if (init?.redirect !== 'manual') return undefined;
  if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || !isLoopback(url)) return undefined;
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  return { url, method: (init.method ?? 'GET').toUpperCase(), headers, body: init.body ?? undefined };
}

/**
 * Kept-alive sockets to loopback servers, shared by every connection as fetch's own pool is. An
 * idle socket does not keep the process alive, and the agent drops it when the server's
 * `Keep-Alive: timeout` hint says the server will.
 */
let sharedAgent: http.Agent | undefined;

/** The shared keep-alive agent for loopback servers (directPost.ts sends through it too). */
export function loopbackAgent(): http.Agent {
  sharedAgent ??= new http.Agent({ keepAlive: true });
  return sharedAgent;
}

/**
 * Answers handed over in advance: directPost.ts sends a request itself and, for an answer it
 * leaves to the SDK, sets it here under the request's body before the SDK sends that body, so the
 * SDK reads the answer the server already gave instead of sending the request a second time.
 */
export class HandedOver {
  private readonly byBody = new Map<string, Response>();
  set(body: string, response: Response): void {
    this.byBody.set(body, response);
  }
  take(init: RequestInit | undefined): Response | undefined {
    const body = init?.body;
    if (typeof body !== 'string' || this.byBody.size === 0) return undefined;
    const res = this.byBody.get(body);
    if (res) this.byBody.delete(body);
    return res;
  }
}

/** `inner` with the loopback requests it would send taken over by `node:http`. */
export function loopbackFetch(inner: Fetch, handedOver?: HandedOver): Fetch {
  return (input, init) => {
    const ready = handedOver?.take(init);
    if (ready) return Promise.resolve(ready);
    const request = loopbackRequest(input, init);
    if (!request) return inner(input, init);
    return viaNodeHttp(loopbackAgent(), request, init?.signal ?? undefined);
  };
}

/** A fetch `Response` for a `node:http` response (its body streamed as it comes). */
export function responseOf(incoming: http.IncomingMessage, url: URL, method: string): Response {
  const out = new Headers();
  for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
    out.append(incoming.rawHeaders[i] as string, incoming.rawHeaders[i + 1] as string);
  }
  const status = incoming.statusCode ?? 0;
  const empty = NULL_BODY.has(status) || method === 'HEAD';
  if (empty) incoming.resume();
  const stream = empty ? null : (Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>);
  const response = new Response(stream, { status, statusText: incoming.statusMessage ?? '', headers: out });
  // The SDK names the endpoint from it in redirect errors; fetch sets it, a constructed Response has ''.
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}

function viaNodeHttp(
  agent: http.Agent,
  request: NonNullable<ReturnType<typeof loopbackRequest>>,
  signal: AbortSignal | undefined,
): Promise<Response> {
  return sendOnLoopback(agent, request, signal).then((incoming) => responseOf(incoming, request.url, request.method));
}

/**
 * One request to a loopback server through `node:http`, resolving with the response as it starts
 * (its body streams): this file's fetch, and directPost.ts, which reads the answer itself.
 * Aborting ends the request, or the response body while it streams, as with fetch.
 *
 * A kept-alive socket can be one the server has already closed: a server that drops idle
 * connections without a `Keep-Alive: timeout` hint (uvicorn after 5 s, say) closes it, and when
 * this host's event loop was busy at that moment, the pool still holds the socket when the next
 * request takes it. That request fails with ECONNRESET before any answer, although the server
 * never read it; `fetch` fails the same way. Such a request is sent again on another socket, as
 * Node's documentation advises (`request.reusedSocket`); a request on a new socket, or one that
 * got any answer, is not.
 */
export async function sendOnLoopback(
  agent: http.Agent,
  request: { url: URL; method: string; headers: Record<string, string>; body: string | undefined },
  signal: AbortSignal | undefined,
): Promise<http.IncomingMessage> {
  // Each stale socket is destroyed as it fails, so this ends on a new socket at the latest.
  for (let stale = 0; ; stale++) {
    try {
      return await sendOnce(agent, request, signal);
    } catch (error) {
      if (!(error instanceof StaleSocket) || stale >= MAX_STALE) throw error instanceof StaleSocket ? error.cause : error;
    }
  }
}

/** More than the free sockets a pool keeps for one server in practice. */
const MAX_STALE = 16;

/** A request that failed on a kept-alive socket the server had closed, before any answer. */
class StaleSocket extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
  }
}

function sendOnce(
  agent: http.Agent,
  { url, method, headers, body }: { url: URL; method: string; headers: Record<string, string>; body: string | undefined },
  signal: AbortSignal | undefined,
): Promise<http.IncomingMessage> {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8');
    // `new ClientRequest`, not `http.request`: the extension host replaces `http.request` with a
    // proxy-resolving wrapper that puts a new proxy agent and an asynchronous proxy lookup in front of
    // every request, even to 127.0.0.1, where it then answers DIRECT (@vscode/proxy-agent).
    const req = new http.ClientRequest({
      protocol: 'http:',
      // URL keeps the brackets of an IPv6 literal; a socket address has none.
      hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
      port: url.port || 80,
      path: url.pathname + url.search,
      method,
      agent,
      headers: payload ? { ...headers, 'content-length': String(payload.length) } : headers,
    });
    let res: http.IncomingMessage | undefined;
    const onAbort = (): void => {
      const reason = abortReason(signal);
      req.destroy(reason);
      res?.destroy(reason);
    };
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => {
      done();
      const stale = req.reusedSocket && res === undefined && !signal?.aborted && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      reject(stale ? new StaleSocket(err) : err);
    });
    req.on('response', (incoming) => {
      res = incoming;
      incoming.on('close', done);
      resolve(incoming);
    });
    req.end(payload);
  });
}

/** What fetch rejects with on abort: the signal's reason, or an AbortError when it has none. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}
