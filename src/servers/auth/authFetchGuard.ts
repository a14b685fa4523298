/**
 * Where the SDK's OAuth client may be sent, and how much it may read back: the gaps between
 * `@modelcontextprotocol/client`'s auth support and the MCP authorization spec that this extension
 * closes itself (issue 25, item 2). The SDK follows whatever protected resource and authorization
 * server metadata say: it refuses only a non-TLS *token* endpoint (`assertSecureTokenEndpoint`),
 * so metadata, registration and discovery requests may go to `http://` or to an internal address,
 * and a metadata document is read whole, whatever its size. Pure, apart from `fetch` itself.
 */
import { classifyIpHost } from '../../elicitation/safety/urlIp';
import { isLoopback, type Fetch } from '../loopbackFetch';
import { fetchCheckingRedirects, MAX_REDIRECTS, type HopRules } from './checkedRedirects';

/** The most an OAuth document (metadata, registration, token response) may weigh: real ones are a few KB. */
export const MAX_AUTH_DOCUMENT_BYTES = 1_000_000;

/** An OAuth request this extension will not make; the message names the address and the reason. */
export class AuthRequestRefused extends Error {
  override readonly name = 'AuthRequestRefused';
}

/** Whether `url`'s host is this machine or a private network: an address only a local setup may use. */
function isInternal(url: URL): boolean {
  if (isLoopback(url)) return true;
  const ip = classifyIpHost(url.hostname);
  return ip !== undefined && ip.kind !== 'public';
}

/**
 * Why the OAuth client may not request `target` on behalf of the MCP server at `server`, or
 * undefined when it may. An MCP server on this machine or a private network may use an
 * authorization server there too (a local setup, a test); a public one may not send us inward.
 */
export function authUrlProblem(target: URL, server: URL): string | undefined {
  const local = isInternal(server);
  if (target.protocol !== 'https:' && !(target.protocol === 'http:' && local && isInternal(target))) {
    return `${target.origin} is not https`;
  }
  if (!local && isInternal(target)) return `${target.hostname} is an internal address`;
  return undefined;
}

/** Reads `res`'s body up to `max` bytes; a larger one is refused, not cut. */
async function capped(res: Response, url: URL, max: number): Promise<Response> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new AuthRequestRefused(
      `${url.origin}${url.pathname} declares ${declared} bytes, more than the ${max} bytes an OAuth document may have`,
    );
  }
  if (!res.body) return res;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new AuthRequestRefused(`${url.origin}${url.pathname} sent more than the ${max} bytes an OAuth document may have`);
    }
    chunks.push(value);
  }
  return new Response(Buffer.concat(chunks), { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * The fetch of an HTTP transport that may sign in. Requests to the server's own origin are the
 * user's choice and pass (the legacy SSE transport posts to a path the server names); only its
 * `/.well-known/` documents are capped in size. Every request elsewhere (an authorization server's
 * metadata, registration, token) is checked against {@link authUrlProblem} before it is sent, and
 * its answer capped. Redirects are followed here, by hand, and each `Location` is held to the same
 * rule before anything is sent to it (checkedRedirects.ts): `fetch`'s own following would take
 * the request, and a registration's body, wherever an authorization server points.
 */
export function guardAuthFetch(server: URL, next: Fetch, max = MAX_AUTH_DOCUMENT_BYTES): Fetch {
  const rules: HopRules = {
    refuse: (url, redirected) => {
      if (url.origin === server.origin) return undefined;
      const problem = authUrlProblem(url, server);
      if (!problem) return undefined;
      return new AuthRequestRefused(`refused to ${redirected ? 'follow a redirect to' : 'contact'} ${url.origin}: ${problem}`);
    },
    tooMany: (last) => new AuthRequestRefused(`refused to follow more than ${MAX_REDIRECTS} redirects (the last from ${last.origin})`),
  };
  return async (input, init) => {
    const first = new URL(input instanceof Request ? input.url : input);
    const { res, url } = await fetchCheckingRedirects(next, input, init, rules);
    const own = url.origin === server.origin && !url.pathname.startsWith('/.well-known/') && !first.pathname.startsWith('/.well-known/');
    return own ? res : capped(res, url, max);
  };
}
