import { Server, type Implementation } from '@modelcontextprotocol/server';
import type { RelayedMessage } from '../servers/connection';
import { RELAYED_REQUESTS, relayedCapabilities, relayedServerInfo, type GatewayUpstream } from './upstream';
import { notRunningError } from './upstreamErrors';

type ProgressToken = string | number;
type RelayedMethod = (typeof RELAYED_REQUESTS)[keyof typeof RELAYED_REQUESTS][number];

/**
 * Takes VS Code's progress token out of the params: the upstream request gets the client's own
 * token, and progress coming back is re-addressed to VS Code's.
 */
export function splitProgressToken(params: Record<string, unknown> | undefined): {
  params: Record<string, unknown> | undefined;
  token: ProgressToken | undefined;
} {
  const meta = params?.['_meta'];
  if (!params || typeof meta !== 'object' || meta === null) return { params, token: undefined };
  const { progressToken, ...restMeta } = meta as Record<string, unknown>;
  const token = typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined;
  const { _meta: _dropped, ...rest } = params;
  return { params: Object.keys(restMeta).length ? { ...rest, _meta: restMeta } : rest, token };
}

/**
 * The MCP server VS Code talks to in one gateway session: it declares what the upstream server
 * declared (minus elicitation, which our broker answers, and tasks) and relays every request to
 * the upstream connection of the moment, with VS Code's cancellation and the upstream's progress.
 */
export function createRelayServer(name: string, upstream: () => GatewayUpstream | undefined, self: Implementation): Server {
  const current = upstream();
  const capabilities = relayedCapabilities(current?.serverCapabilities);
  const instructions = current?.instructions;
  const server = new Server(relayedServerInfo(current?.serverInfo, name, self.version), {
    capabilities,
    ...(instructions ? { instructions } : {}),
  });
  for (const [capability, methods] of Object.entries(RELAYED_REQUESTS) as [keyof typeof RELAYED_REQUESTS, readonly RelayedMethod[]][]) {
    if (!capabilities[capability]) continue;
    for (const method of methods) {
      // One handler serves eleven methods whose SDK types differ per method; it passes params and
      // results through untouched, so it is typed by what it reads (hence the cast).
      server.setRequestHandler(method, ((
        request: { params?: Record<string, unknown> },
        ctx: { mcpReq: { signal: AbortSignal; notify(n: RelayedMessage): Promise<void> } },
      ) => relayRequest(name, upstream, method, request.params, ctx.mcpReq)) as never);
    }
  }
  return server;
}

/**
 * One request of VS Code's, relayed to the upstream connection of the moment: the relay server's
 * handler, and the endpoint's direct path for calls (directCall.ts). Progress comes back under
 * VS Code's own token; aborting `signal` cancels the call upstream.
 */
export async function relayRequest(
  name: string,
  upstream: () => GatewayUpstream | undefined,
  method: string,
  requestParams: Record<string, unknown> | undefined,
  caller: { readonly signal: AbortSignal; notify(n: RelayedMessage): Promise<void> },
): Promise<Record<string, unknown>> {
  const up = upstream();
  if (!up?.isRunning) throw notRunningError(name, up?.state);
  const { params, token } = splitProgressToken(requestParams);
  const onprogress =
    token === undefined
      ? undefined
      : (p: { progress: number; total?: number | undefined; message?: string | undefined }): void => {
          void caller.notify({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => undefined);
        };
  return up.relay({ method, params }, { signal: caller.signal, onprogress });
}

/** Passes one upstream notification on; one the session did not declare is dropped. */
export async function relayNotification(server: Server, notification: RelayedMessage): Promise<void> {
  await server.notification({ method: notification.method, ...(notification.params ? { params: notification.params } : {}) });
}
