/**
 * What the gateway needs from the connection to an upstream server, and nothing more: the gateway
 * relays requests and notifications without knowing which protocol revision the connection speaks
 * or how elicitations are answered. Its server side lives in a lazily loaded bundle and sees only this.
 */
import type { Implementation, ProgressCallback, ServerCapabilities } from '@modelcontextprotocol/client';
import type { RelayedMessage } from '../servers/connection';

export interface RelayOptions {
  /** Aborting sends `notifications/cancelled` upstream, closes any prompt of the call and rejects it. */
  readonly signal: AbortSignal;
  /** Called for each `notifications/progress` upstream sends about this request. */
  readonly onprogress?: ProgressCallback | undefined;
}

export interface GatewayUpstream {
  readonly name: string;
  /** True while a session with the server is up and requests can be relayed. */
  readonly isRunning: boolean;
  /** The connection's state, for error messages and for waiting out a start. */
  readonly state: { readonly kind: string; readonly reason?: string };
  /** Fires on any change of state or tools. */
  onDidChange(listener: () => void): { dispose(): void };
  /** What the server declared at `initialize`; undefined until it is running. */
  readonly serverCapabilities: ServerCapabilities | undefined;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  /**
   * Sends one request and returns its final result: a call that asks the user (pushed, or
   * `input_required` rounds) is answered by our broker on the way. Rejects with the server's error,
   * which keeps its code and message.
   */
  relay(request: RelayedMessage, options: RelayOptions): Promise<Record<string, unknown>>;
  /** Server-to-client notifications to pass on: list changes, log messages, resource updates. */
  onDidNotify(listener: (notification: RelayedMessage) => void): { dispose(): void };
  /** Starts the server if it is not running (a no-op if it is). */
  start(): Promise<void>;
}

/** Methods relayed from VS Code to the upstream server, by the capability that enables them. */
export const RELAYED_REQUESTS = {
  tools: ['tools/list', 'tools/call'],
  prompts: ['prompts/list', 'prompts/get'],
  resources: ['resources/list', 'resources/templates/list', 'resources/read', 'resources/subscribe', 'resources/unsubscribe'],
  completions: ['completion/complete'],
  logging: ['logging/setLevel'],
} as const;

/** Notifications relayed from the upstream server to VS Code. */
export const RELAYED_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
  'notifications/message',
]);

/**
 * Server extensions the gateway cannot pass on: the 2026-07-28 tasks extension would have VS Code
 * send task-augmented calls and `tasks/*` requests, which the gateway does not relay.
 */
export const UNRELAYED_SERVER_EXTENSIONS: ReadonlySet<string> = new Set(['io.modelcontextprotocol/tasks']);

/**
 * The capabilities the gateway declares to VS Code: the upstream server's, limited to what it
 * relays. Elicitation is a client capability and stays with our broker; tasks are not relayed.
 * `experimental` and `extensions` are passed on as the server declared them (minus
 * {@link UNRELAYED_SERVER_EXTENSIONS}): what they enable is requests the gateway relays, or
 * nothing VS Code acts on.
 */
export function relayedCapabilities(upstream: ServerCapabilities | undefined): ServerCapabilities {
  const out: ServerCapabilities = {};
  if (upstream?.tools) out.tools = { listChanged: true };
  if (upstream?.prompts) out.prompts = { listChanged: true };
  if (upstream?.resources) out.resources = { listChanged: true, ...(upstream.resources.subscribe ? { subscribe: true } : {}) };
  if (upstream?.completions) out.completions = {};
  if (upstream?.logging) out.logging = {};
  if (upstream?.experimental && Object.keys(upstream.experimental).length) out.experimental = upstream.experimental;
  const extensions = Object.entries(upstream?.extensions ?? {}).filter(([id]) => !UNRELAYED_SERVER_EXTENSIONS.has(id));
  if (extensions.length) out.extensions = Object.fromEntries(extensions);
  return out;
}

/**
 * The serverInfo the gateway gives VS Code: the upstream server's, all of it (VS Code shows its
 * title, description, icons and website), with our name and version only while it is not known.
 */
export function relayedServerInfo(upstream: Implementation | undefined, name: string, fallbackVersion: string): Implementation {
  if (!upstream) return { name, version: fallbackVersion };
  const { name: upName, version, title, description, websiteUrl, icons } = upstream;
  return {
    name: upName || name,
    version: version || fallbackVersion,
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    ...(websiteUrl ? { websiteUrl } : {}),
    ...(icons?.length ? { icons } : {}),
  };
}
