/**
 * The HTTP transports (Streamable HTTP, and the legacy SSE transport a server may fall back to),
 * and the SDK's OAuth client they sign in with, apart from transports.ts so that they load on
 * first use: see `httpTransports()` there.
 */
import {
  OAuthClientFlowError,
  OAuthError,
  StreamableHTTPClientTransport,
  SSEClientTransport,
  type OAuthClientProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import type { RemoteServerDefinition } from '../config/parse/definitions';
import { answeringFetch } from './answeringFetch';
import { AuthRequestRefused, guardAuthFetch } from './auth/authFetchGuard';
import { ServerOAuthProvider, type OAuthProviderOptions } from './auth/oauthProvider';
import type { MalformedReply } from './answeringReadBuffer';
import { installDirectPost } from './directPost';
import { HandedOver, loopbackFetch, type Fetch } from './loopbackFetch';
import type { StreamOrigins } from './questionLinks';

export { ServerOAuthProvider } from './auth/oauthProvider';

/**
 * The fetch of `def`'s transport: OAuth requests checked (auth/authFetchGuard.ts), the rest as
 * before. `origins` hears which of our requests' event streams a question arrived on.
 */
function serverFetch(
  def: RemoteServerDefinition,
  onAnswer: (reply: MalformedReply) => void,
  origins: StreamOrigins,
  handedOver: HandedOver,
): Fetch {
  // Malformed requests in the event stream are answered, not dropped (see answeringFetch.ts); a
  // server on this machine is reached through node:http, a cheaper round trip (see loopbackFetch.ts).
  return guardAuthFetch(new URL(def.url), answeringFetch(loopbackFetch(fetch, handedOver), onAnswer, origins));
}

/**
 * Opens the sign-in redirect (`provider.ready()`) before the SDK sees an auth challenge: a 401, or
 * a 403 with `WWW-Authenticate` (step-up). The SDK's OAuth flow then starts at once and reads the
 * redirect URI synchronously, so the listener opens here rather than when the server starts. The
 * flow's own requests go through the provider's fetch rules (`wrapFetch`).
 */
function beforeChallenge(fetchFn: Fetch, provider: ServerOAuthProvider | undefined): Fetch {
  if (!provider) return fetchFn;
  return provider.wrapFetch(async (url, init) => {
    const res = await fetchFn(url, init);
    if (res.status === 401 || (res.status === 403 && res.headers.has('www-authenticate'))) await provider.ready();
    return res;
  });
}

/** An OAuth client for `def`, whose requests go through the same checks as its transport's. */
export function createOAuthProvider(
  def: RemoteServerDefinition,
  options: Omit<OAuthProviderOptions, 'fetch' | 'serverUrl'>,
): ServerOAuthProvider {
  return new ServerOAuthProvider({
    ...options,
    serverUrl: new URL(def.url),
    fetch: guardAuthFetch(new URL(def.url), loopbackFetch(fetch)),
  });
}

/**
 * Whether `err` ended the SDK's OAuth flow (discovery, registration, refresh: a request the guard
 * refused, an OAuth error answer, a changed authorization server) rather than the MCP exchange.
 */
export function isAuthFlowError(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 4; depth++) {
    if (e instanceof AuthRequestRefused || OAuthError.isInstance(e) || OAuthClientFlowError.isInstance(e)) return true;
    e = (e as Error).cause;
  }
  return false;
}

/**
 * An HTTP transport for `def`: the legacy SSE one when `kind` is `sse`, Streamable HTTP otherwise.
 * `origins` reports which of our requests' streams a question arrived on (questionLinks.ts;
 * Streamable HTTP only: the legacy transport has one stream for everything).
 */
export function createHttpTransport(
  def: RemoteServerDefinition,
  kind: string,
  authProvider?: OAuthClientProvider,
): { transport: Transport; kind: 'http' | 'sse'; origins?: StreamOrigins; warning?: string } {
  const url = new URL(def.url);
  const requestInit: RequestInit = { headers: { ...def.headers } };
  let answerVia: Transport | undefined;
  const origins: StreamOrigins = { onArrived: undefined };
  const handedOver = new HandedOver();
  const answer = (reply: MalformedReply): void => void answerVia?.send(reply).catch(() => undefined);
  const checkedFetch = beforeChallenge(
    serverFetch(def, answer, origins, handedOver),
    authProvider instanceof ServerOAuthProvider ? authProvider : undefined,
  );
  const auth = authProvider ? { authProvider } : {};
  if (kind === 'sse') {
    answerVia = new SSEClientTransport(url, {
      requestInit,
      fetch: checkedFetch,
      ...auth,
      // EventSource ignores requestInit; pass headers to its fetch too.
      eventSourceInit: {
        fetch: (u, init) =>
          checkedFetch(u, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...def.headers } }),
      },
    });
    return { transport: answerVia, kind: 'sse' };
  }
  answerVia = new StreamableHTTPClientTransport(url, { requestInit, fetch: checkedFetch, ...auth });
  // A loopback server's answers are read without the SDK's web streams (directPost.ts).
  const direct = installDirectPost(answerVia, { url, handedOver, answer, origins });
  const warning =
    direct === 'none' || direct === '2025'
      ? `this MCP SDK version changed its HTTP transport: ${direct === 'none' ? 'requests' : '2026-07-28 requests'} to this server on this machine take the SDK's slower path`
      : undefined;
  return { transport: answerVia, kind: 'http', origins, ...(warning ? { warning } : {}) };
}
