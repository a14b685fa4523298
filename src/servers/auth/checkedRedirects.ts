/**
 * Redirects followed by hand, each hop checked before it is requested. `fetch` follows a redirect
 * wherever it points, so a check of the first URL alone lets an authorization server send the
 * OAuth client (and a registration's body) on to an internal address (issue 41, item 3). VS Code's
 * own MCP HTTP client follows redirects by hand for the same reason (`McpHTTPHandle._fetch`: five
 * at most, `redirect: 'manual'`). Pure, apart from `fetch` itself.
 */
import type { Fetch } from '../loopbackFetch';

/** As many as VS Code's MCP client follows; a real OAuth exchange needs one or two. */
export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The headers that describe a body: they go with it when a redirect turns a request into a GET (Fetch, "request-body-header name"). */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/** One request as it goes from hop to hop. */
export interface Hop {
  readonly url: URL;
  readonly init: RequestInit;
}

/**
 * The URL and options of `fetch(input, init)`, with a `Request`'s body read so that a 307 can
 * send it again, and the caller's redirect mode.
 */
async function firstHop(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<Hop & { readonly mode: NonNullable<RequestInit['redirect']> }> {
  if (!(input instanceof Request)) return { url: new URL(input), init: { ...init }, mode: init?.redirect ?? 'follow' };
  const request = new Request(input, init);
  const body = request.body ? await request.arrayBuffer() : undefined;
  return {
    url: new URL(request.url),
    init: { method: request.method, headers: request.headers, signal: request.signal, ...(body ? { body } : {}) },
    mode: request.redirect,
  };
}

/**
 * The request a browser makes for a redirect `status` to `to`: a 303, and a 301 or 302 answering
 * a POST, become a body-less GET (a HEAD stays a HEAD); a 307 or 308 keeps method and body. The
 * `Authorization` header does not go to another origin (Fetch, "HTTP-redirect fetch").
 */
export function redirectedRequest(from: Hop, status: number, to: URL): Hop {
  const method = (from.init.method ?? 'GET').toUpperCase();
  const headers = new Headers(from.init.headers);
  const init: RequestInit = { ...from.init };
  if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
    init.method = 'GET';
    delete init.body;
    for (const name of BODY_HEADERS) headers.delete(name);
  } else if (init.body instanceof ReadableStream) {
    // A stream is read once; fetch itself fails such a redirect.
    throw new TypeError(`cannot follow a ${status} redirect with a streamed body`);
  }
  if (to.origin !== from.url.origin) headers.delete('authorization');
  init.headers = headers;
  return { url: to, init };
}

/** Where a redirect answer points, resolved against the URL it answered; undefined for any other answer. */
function locationOf(res: Response, url: URL): URL | undefined {
  if (!REDIRECTS.has(res.status)) return undefined;
  const location = res.headers.get('location');
  if (!location) return undefined;
  try {
    return new URL(location, url);
  } catch {
    return undefined;
  }
}

export interface HopRules {
  /** Why `url` may not be requested (the first URL, or a redirect's target), or undefined when it may. */
  readonly refuse: (url: URL, redirected: boolean) => Error | undefined;
  /** The error for a chain longer than {@link MAX_REDIRECTS}. */
  readonly tooMany: (last: URL) => Error;
}

/**
 * `next(input, init)` with redirects followed here, at most {@link MAX_REDIRECTS}, each target
 * checked by `rules` before it is requested. A caller that asked for `redirect: 'manual'` or
 * `'error'` gets that: it sees a redirect itself, and its next request comes back through here.
 * Resolves with the last answer and the URL it answered.
 */
export async function fetchCheckingRedirects(
  next: Fetch,
  input: string | URL | Request,
  init: RequestInit | undefined,
  rules: HopRules,
): Promise<{ readonly res: Response; readonly url: URL }> {
  const first = await firstHop(input, init);
  const follow = first.mode === 'follow';
  let hop: Hop = first;
  for (let followed = 0; ; followed++) {
    const problem = rules.refuse(hop.url, followed > 0);
    if (problem) throw problem;
    const res = await next(hop.url, { ...hop.init, redirect: follow ? 'manual' : first.mode });
    const to = follow ? locationOf(res, hop.url) : undefined;
    if (!to) return { res, url: hop.url };
    await res.body?.cancel().catch(() => undefined);
    if (followed === MAX_REDIRECTS) throw rules.tooMany(hop.url);
    hop = redirectedRequest(hop, res.status, to);
  }
}
