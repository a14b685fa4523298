/**
 * The HTTP transports (Streamable HTTP, and the legacy SSE transport a server may fall back to),
 * apart from transports.ts so that they load on first use: see `httpTransports()` there.
 */
import { StreamableHTTPClientTransport, SSEClientTransport, type Transport } from '@modelcontextprotocol/client';
import type { RemoteServerDefinition } from '../config/parse/definitions';
import { answeringFetch } from './answeringFetch';
import { loopbackFetch } from './loopbackFetch';
import type { StreamOrigins } from './questionLinks';

/**
 * An HTTP transport for `def`: the legacy SSE one when `kind` is `sse`, Streamable HTTP otherwise.
 * `origins` reports which of our requests' streams a question arrived on (Streamable HTTP only:
 * the legacy transport has one stream for everything).
 */
export function createHttpTransport(
  def: RemoteServerDefinition,
  kind: string,
): { transport: Transport; kind: 'http' | 'sse'; origins?: StreamOrigins } {
  const url = new URL(def.url);
  const requestInit: RequestInit = { headers: { ...def.headers } };
  // Malformed requests in the event stream are answered, not dropped (see answeringFetch.ts); a
  // server on this machine is reached through node:http, a cheaper round trip (see loopbackFetch.ts).
  let answerVia: Transport | undefined;
  const origins: StreamOrigins = { onArrived: undefined };
  const checkedFetch = answeringFetch(loopbackFetch(fetch), (reply) => void answerVia?.send(reply).catch(() => undefined), origins);
  if (kind === 'sse') {
    answerVia = new SSEClientTransport(url, {
      requestInit,
      fetch: checkedFetch,
      // EventSource ignores requestInit; pass headers to its fetch too.
      eventSourceInit: {
        fetch: (u, init) =>
          checkedFetch(u, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...def.headers } }),
      },
    });
    return { transport: answerVia, kind: 'sse' };
  }
  answerVia = new StreamableHTTPClientTransport(url, { requestInit, fetch: checkedFetch });
  return { transport: answerVia, kind: 'http', origins };
}
