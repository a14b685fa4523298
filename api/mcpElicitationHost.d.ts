/**
 * Public API of the "MCP Elicitation Host" extension (`mcp-elicitation.mcp-elicitation-host`).
 *
 * ```ts
 * const ext = vscode.extensions.getExtension<McpElicitationHostApi>('mcp-elicitation.mcp-elicitation-host');
 * const api = await ext?.activate();
 * if (api?.version === 1) {
 *   const result = await api.elicit({ mode: 'form', message: 'Deploy to which region?', requestedSchema: { ... } }, { source: 'My Extension' });
 * }
 * ```
 * Requests through `elicit` obey the same per-server policy, rate limit, queue and audit as
 * requests from MCP servers. They are attributed to the calling extension, which is read from the
 * call stack, so call `elicit` directly from your extension's code: its name, policy key and
 * rate-limit bucket are `extension:<publisher.name>`; `source` is only a label shown beside it.
 *
 * The attribution is best effort, and the prompt says "told from its call stack". Extensions share
 * one extension host and one JavaScript realm, and VS Code gives no caller identity that another
 * extension could not fake: it can load your files and call your functions, or replace the globals
 * the stack is read with. What is not accepted is a frame whose code is not the file it names (a
 * `vm` script, `eval` or `new Function` given another extension's file name or `sourceURL`).
 */
import type { Event } from 'vscode';

/** Params of `elicitation/create`, exactly as on the wire (MCP 2025-11-25). */
export type ElicitParams =
  | { mode?: 'form'; message: string; requestedSchema: Record<string, unknown>; _meta?: Record<string, unknown> }
  | { mode: 'url'; message: string; url: string; elicitationId: string; _meta?: Record<string, unknown> };

/** The result sent back for `elicitation/create`. */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

export type ServerStateKind = 'stopped' | 'starting' | 'running' | 'error' | 'untrusted';

export interface ServerInfo {
  readonly name: string;
  readonly state: ServerStateKind;
  /** Transport and `serverInfo`, or the error, as the Servers view shows it. */
  readonly detail: string;
  readonly tools: readonly string[];
}

export interface PendingElicitation {
  readonly id: string;
  readonly server: string;
  readonly mode: 'form' | 'url' | 'sampling';
  readonly message: string;
  /**
   * `asking`: waiting on the `ask` policy's notification. `aside`: its prompt was hidden without an
   * answer (Escape, or another quick input opened) and is offered again.
   */
  readonly state: 'asking' | 'queued' | 'onScreen' | 'aside' | 'awaitingCompletion';
  readonly createdAt: number;
}

export interface McpElicitationHostApi {
  /** Bumped on breaking changes. */
  readonly version: 1;
  /**
   * Rejects when the calling extension cannot be told from the call stack (for example when
   * `elicit` is handed to a timer or another extension as a bound function, or called only from
   * code that is not an extension's file as loaded: a `vm` script, `eval`).
   */
  elicit(params: ElicitParams, options: { source?: string; signal?: AbortSignal }): Promise<ElicitResult>;
  servers(): readonly ServerInfo[];
  readonly onDidChangeServers: Event<void>;
  pending(): readonly PendingElicitation[];
  readonly onDidChangePending: Event<void>;
}
