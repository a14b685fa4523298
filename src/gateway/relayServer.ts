import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type Implementation,
} from '@modelcontextprotocol/sdk/types.js';
import { RELAYED_REQUESTS, relayedCapabilities, type GatewayUpstream, type RelayedMessage } from './upstream';
import { notRunningError } from './upstreamErrors';

/** A tool call may wait on the user (an elicitation inside it); progress from upstream extends it. */
export const TOOL_CALL_TIMEOUT_MS = 15 * 60_000;
/** Anything else is a lookup the server should answer quickly. */
export const REQUEST_TIMEOUT_MS = 60_000;

const SCHEMAS = {
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
  'prompts/list': ListPromptsRequestSchema,
  'prompts/get': GetPromptRequestSchema,
  'resources/list': ListResourcesRequestSchema,
  'resources/templates/list': ListResourceTemplatesRequestSchema,
  'resources/read': ReadResourceRequestSchema,
  'resources/subscribe': SubscribeRequestSchema,
  'resources/unsubscribe': UnsubscribeRequestSchema,
  'completion/complete': CompleteRequestSchema,
  'logging/setLevel': SetLevelRequestSchema,
} as const;

type ProgressToken = string | number;

/**
 * Takes VS Code's progress token out of the params: the upstream request gets the SDK client's
 * own token, and progress coming back is re-addressed to VS Code's.
 */
function splitProgressToken(params: Record<string, unknown> | undefined): { params: Record<string, unknown> | undefined; token: ProgressToken | undefined } {
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
  const info = current?.serverInfo;
  const instructions = current?.instructions;
  const server = new Server(
    { name: info?.name ?? name, version: info?.version ?? self.version, ...(info?.title ? { title: info.title } : {}) },
    { capabilities, ...(instructions ? { instructions } : {}) },
  );
  for (const [capability, methods] of Object.entries(RELAYED_REQUESTS) as [keyof typeof RELAYED_REQUESTS, readonly (keyof typeof SCHEMAS)[]][]) {
    if (!capabilities[capability]) continue;
    for (const method of methods) {
      server.setRequestHandler(SCHEMAS[method], async (request, extra) => {
        const up = upstream();
        if (!up?.isRunning) throw notRunningError(name, up?.state);
        const { params, token } = splitProgressToken(request.params);
        const onprogress =
          token === undefined
            ? undefined
            : (p: { progress: number; total?: number | undefined; message?: string | undefined }): void => {
                void extra.sendNotification({ method: 'notifications/progress', params: { ...p, progressToken: token } }).catch(() => undefined);
              };
        // Passed as is; the SDK checks a tools/call result against CallToolResultSchema.
        return (await up.relay({ method, params }, { signal: extra.signal, onprogress, timeoutMs: method === 'tools/call' ? TOOL_CALL_TIMEOUT_MS : REQUEST_TIMEOUT_MS }));
      });
    }
  }
  return server;
}

/** Passes one upstream notification on; one the session did not declare is dropped. */
export async function relayNotification(server: Server, notification: RelayedMessage): Promise<void> {
  await server.notification({ method: notification.method, ...(notification.params ? { params: notification.params } : {}) });
}
