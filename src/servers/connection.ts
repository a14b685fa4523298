import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Protocol, type ProgressCallback } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import {
  ElicitationCompleteNotificationSchema,
  ToolListChangedNotificationSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ErrorCode,
  type Tool,
  type Implementation,
  type CallToolResult,
  type ElicitResult,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerDefinition } from '../config/parse/definitions';
import type { ElicitationSink } from '../elicitation/broker';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { createTransport, shouldFallBackToSse, type PreparedTransport, type TransportKind } from './transports';

export type ServerState =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'starting'; readonly attempt: number }
  | { readonly kind: 'running'; readonly transport: TransportKind; readonly serverInfo: Implementation | undefined; readonly pid: number | undefined }
  | { readonly kind: 'error'; readonly reason: string; readonly gaveUp: boolean }
  | { readonly kind: 'untrusted' };

export interface ConnectionDeps {
  readonly log: Logger;
  readonly clientInfo: Implementation;
  readonly sink: ElicitationSink;
  /** Called when automatic restarts gave up, so the UI can offer "Show Log". */
  readonly onGaveUp: (name: string, reason: string) => void;
  /** Backoff before each automatic restart; its length is the number of tries before giving up. */
  readonly restartDelaysMs?: readonly number[];
  /** How long `initialize` may take (read per attempt; tests shorten it). */
  readonly connectTimeoutMs?: () => number;
}

/**
 * Accepts any `elicitation/create`. The broker checks the params itself so that every malformed
 * request gets -32602 with the property and the reason, not a zod dump under -32603.
 */
// `.optional()`: zod 4 treats a bare `unknown()` key as required, and a request without params
// would fail here with a zod dump under -32603 instead of reaching the broker's -32602.
const RawElicitRequest = z.object({ method: z.literal('elicitation/create'), params: z.unknown().optional() }).passthrough();

/** A relayed request's result: any object; the gateway's server validates what it returns. */
const AnyResult = z.object({}).passthrough();

/** A request or notification as the gateway relays it. */
export interface RelayedNotification {
  readonly method: string;
  readonly params?: Record<string, unknown> | undefined;
}

/** Backoff before restart attempt n (1-based): 1 s, 2 s, 4 s, 8 s, 16 s. */
export const RESTART_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];
/** A connection that stayed up this long resets the crash counter. */
const STABLE_AFTER_MS = 60_000;
export const CONNECT_TIMEOUT_MS = 30_000;
/**
 * An HTTP or SSE transport reports a broken stream through `onerror` and never closes itself, so
 * the connection pings to tell a dead server from a hiccup; no answer in this time means dead.
 */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * One MCP server: an SDK Client over one transport, with an honest state machine and crash
 * restarts. Its lifetime is the server definition's; a changed definition gets a new Connection.
 */
export class Connection extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<Connection>());
  readonly onDidChange = this._onDidChange.event;

  private readonly _onDidNotify = this._register(new vscode.EventEmitter<RelayedNotification>());
  /** Notifications from the server that the agent gateway passes on (list changes, log messages, resource updates). */
  readonly onDidNotify = this._onDidNotify.event;

  private _state: ServerState = { kind: 'stopped' };
  private _tools: readonly Tool[] = [];
  private client: Client | undefined;
  private prepared: PreparedTransport | undefined;
  private wanted = false;
  private crashes = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private stableTimer: NodeJS.Timeout | undefined;
  /** Bumped on every start/stop so late callbacks from an old client are ignored. */
  private generation = 0;
  /** The generation a liveness ping is running for, so a burst of errors sends one ping. */
  private probing: number | undefined;

  constructor(
    readonly definition: ServerDefinition,
    private readonly deps: ConnectionDeps,
  ) {
    super();
  }

  get name(): string {
    return this.definition.name;
  }
  get state(): ServerState {
    return this._state;
  }
  get tools(): readonly Tool[] {
    return this._tools;
  }
  get pid(): number | undefined {
    return this._state.kind === 'running' ? this._state.pid : this.prepared?.pid();
  }

  private setState(s: ServerState): void {
    this._state = s;
    this.deps.log.info(`[${this.name}] ${describeState(s)}`);
    this._onDidChange.fire(this);
  }

  markUntrusted(): void {
    this.wanted = false;
    this.setState({ kind: 'untrusted' });
  }

  async start(): Promise<void> {
    if (this.isDisposed) return;
    this.wanted = true;
    this.crashes = 0;
    clearTimeout(this.restartTimer);
    if (this._state.kind === 'running' || this._state.kind === 'starting') return;
    await this.connect(1);
  }

  async stop(): Promise<void> {
    this.wanted = false;
    clearTimeout(this.restartTimer);
    clearTimeout(this.stableTimer);
    await this.teardown();
    if (!this.isDisposed) this.setState({ kind: 'stopped' });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  private async connect(attempt: number): Promise<void> {
    const gen = ++this.generation;
    this.setState({ kind: 'starting', attempt });
    try {
      await this.connectOnce(gen, undefined).catch(async (err: unknown) => {
        if (gen !== this.generation || !shouldFallBackToSse(this.definition, err)) throw err;
        this.deps.log.info(`[${this.name}] Streamable HTTP initialize failed (${errorText(err)}); trying legacy SSE`);
        await this.teardown(false);
        await this.connectOnce(gen, 'sse');
      });
    } catch (err) {
      if (gen !== this.generation) return;
      await this.teardown(false);
      this.onFailure(`${errorText(err)}`);
    }
  }

  private async connectOnce(gen: number, kind: TransportKind | undefined): Promise<void> {
    const client = new Client(this.deps.clientInfo, {
      capabilities: { elicitation: { form: { applyDefaults: true }, url: {} } },
    });
    const prepared = createTransport(this.definition, (line) => this.deps.log.info(`[${this.name}] stderr: ${line}`), kind);
    this.client = client;
    this.prepared = prepared;
    this.installHandlers(client, gen);
    client.onclose = () => {
      if (gen === this.generation && this.client === client) this.onUnexpectedClose();
    };
    client.onerror = (e) => {
      this.deps.log.warn(`[${this.name}] transport error: ${errorText(e)}`);
      if (prepared.kind !== 'stdio') this.probe(client, gen);
    };
    if (this.deps.log.isTracing) {
      const t = prepared.transport;
      const orig = t.send.bind(t);
      t.send = (msg, opts) => {
        this.deps.log.trace(`[${this.name}] → ${JSON.stringify(msg)}`);
        return orig(msg, opts);
      };
    }
    await client.connect(prepared.transport, { timeout: this.deps.connectTimeoutMs?.() ?? CONNECT_TIMEOUT_MS });
    if (gen !== this.generation) return;
    if (this.deps.log.isTracing) {
      const t = prepared.transport;
      const onmessage = t.onmessage;
      t.onmessage = (msg, extra) => {
        this.deps.log.trace(`[${this.name}] ← ${JSON.stringify(msg)}`);
        onmessage?.(msg, extra);
      };
    }
    this.setState({ kind: 'running', transport: prepared.kind, serverInfo: client.getServerVersion(), pid: prepared.pid() });
    this.stableTimer = setTimeout(() => (this.crashes = 0), STABLE_AFTER_MS);
    await this.refreshTools(gen);
  }

  private installHandlers(client: Client, gen: number): void {
    // Protocol's registration, not Client's: Client wraps elicitation handlers in its own zod
    // validation, whose failures reach the server as unreadable (and sometimes -32603) errors.
    // eslint-disable-next-line @typescript-eslint/unbound-method -- called with .call(client) below
    const register = Protocol.prototype.setRequestHandler as (this: Client, schema: typeof RawElicitRequest, handler: (r: z.infer<typeof RawElicitRequest>, extra: Parameters<Parameters<Client['setRequestHandler']>[1]>[1]) => Promise<ElicitResult>) => void;
    register.call(client, RawElicitRequest, (request, extra) =>
      this.deps.sink.handle(
        { name: this.name, serverInfo: client.getServerVersion() },
        request.params,
        {
          signal: extra.signal,
          requestId: extra.requestId,
          sendProgress: async (progressToken, progress, message) => {
            await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, ...(message ? { message } : {}) } });
          },
        },
      ),
    );
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      this.deps.sink.complete(this.name, n.params.elicitationId);
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, async (n) => {
      this._onDidNotify.fire(n);
      await this.refreshTools(gen);
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      this.deps.log.debug(`[${this.name}] log ${n.params.level}: ${JSON.stringify(n.params.data)}`);
      this._onDidNotify.fire(n);
    });
    // The rest (prompt and resource list changes, resource updates) only matter to the gateway.
    client.fallbackNotificationHandler = (n) => {
      if (gen === this.generation) this._onDidNotify.fire(n);
      return Promise.resolve();
    };
  }

  private async refreshTools(gen: number): Promise<void> {
    const client = this.client;
    if (!client || gen !== this.generation || !client.getServerCapabilities()?.tools) return;
    try {
      const tools: Tool[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && tools.length < 10_000);
      if (gen !== this.generation) return;
      this._tools = tools;
      this._onDidChange.fire(this);
    } catch (err) {
      this.deps.log.warn(`[${this.name}] tools/list failed: ${errorText(err)}`);
    }
  }

  private onUnexpectedClose(): void {
    this.deps.sink.serverGone(this.name);
    this._tools = [];
    this.client = undefined;
    if (!this.wanted || this.isDisposed) {
      this.setState({ kind: 'stopped' });
      return;
    }
    this.onFailure('the server exited unexpectedly');
  }

  /**
   * After an HTTP/SSE transport error: is the server still there? A stream that dropped mid-way
   * leaves requests waiting that the SDK never fails, so a server that does not answer a ping is
   * treated like an exited process: prompts close, calls fail, the restart policy applies.
   */
  private probe(client: Client, gen: number): void {
    if (this.probing === gen || gen !== this.generation || this.client !== client || this._state.kind !== 'running') return;
    this.probing = gen;
    client.ping({ timeout: PROBE_TIMEOUT_MS }).then(
      () => {
        if (this.probing === gen) this.probing = undefined;
      },
      async (err: unknown) => {
        if (this.probing === gen) this.probing = undefined;
        if (gen !== this.generation || this.client !== client) return;
        // An error answer (say, a server without ping) still proves the server is there.
        if (err instanceof McpError && err.code !== (ErrorCode.RequestTimeout as number) && err.code !== (ErrorCode.ConnectionClosed as number)) return;
        this.deps.log.warn(`[${this.name}] the server stopped answering: ${errorText(err)}`);
        // teardown() closes the client, which fails every request still waiting on it.
        await this.teardown();
        this.onFailure(`the connection was lost (${errorText(err)})`);
      },
    );
  }

  private onFailure(reason: string): void {
    clearTimeout(this.stableTimer);
    this.deps.sink.serverGone(this.name);
    if (!this.wanted || this.isDisposed) return;
    this.crashes++;
    const delays = this.deps.restartDelaysMs ?? RESTART_DELAYS_MS;
    if (this.crashes > delays.length) {
      this.wanted = false;
      this.setState({ kind: 'error', reason, gaveUp: true });
      this.deps.onGaveUp(this.name, reason);
      return;
    }
    const delay = delays[this.crashes - 1] ?? 16000;
    this.setState({ kind: 'error', reason: `${reason}; restarting in ${(delay / 1000).toFixed(delay < 1000 ? 1 : 0)} s`, gaveUp: false });
    this.restartTimer = setTimeout(() => void this.connect(this.crashes + 1), delay);
  }

  /** Closes the client; stdio servers get the SDK's stdin-close, SIGTERM, SIGKILL sequence. */
  private async teardown(bumpGeneration = true): Promise<void> {
    if (bumpGeneration) this.generation++;
    const client = this.client;
    this.client = undefined;
    this._tools = [];
    if (client) {
      this.deps.sink.serverGone(this.name);
      await client.close().catch((e: unknown) => this.deps.log.warn(`[${this.name}] close failed: ${errorText(e)}`));
    }
  }

  async callTool(name: string, args: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<CallToolResult> {
    const client = this.client;
    if (!client || this._state.kind !== 'running') throw new Error(vscode.l10n.t('Server "{0}" is not running.', this.name));
    // Tool calls that wait on the user (elicitation inside) take long; progress keeps them alive.
    return (await client.callTool({ name, ...(args ? { arguments: args } : {}) }, undefined, {
      ...(signal ? { signal } : {}),
      timeout: 15 * 60_000,
      resetTimeoutOnProgress: true,
    })) as CallToolResult;
  }

  get isRunning(): boolean {
    return this._state.kind === 'running' && this.client !== undefined;
  }
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.client?.getServerCapabilities();
  }
  get serverInfo(): Implementation | undefined {
    return this.client?.getServerVersion();
  }
  get instructions(): string | undefined {
    return this.client?.getInstructions();
  }

  /**
   * Sends one request as given, for the agent gateway. The result is passed back unparsed (the
   * gateway's own server checks what it returns); errors keep the server's code and message.
   */
  async relay(request: RelayedNotification, options: { signal: AbortSignal; onprogress?: ProgressCallback | undefined; timeoutMs: number }): Promise<Record<string, unknown>> {
    const client = this.client;
    if (!client || this._state.kind !== 'running') throw new McpError(ErrorCode.ConnectionClosed, vscode.l10n.t('Server "{0}" is not running.', this.name));
    return client.request({ method: request.method, ...(request.params ? { params: request.params } : {}) }, AnyResult, {
      signal: options.signal,
      timeout: options.timeoutMs,
      resetTimeoutOnProgress: true,
      ...(options.onprogress ? { onprogress: options.onprogress } : {}),
    });
  }

  override dispose(): void {
    this.wanted = false;
    clearTimeout(this.restartTimer);
    clearTimeout(this.stableTimer);
    void this.teardown();
    super.dispose();
  }

  /** Async dispose for deactivate: waits until the child process is gone. */
  async shutdown(): Promise<void> {
    this.wanted = false;
    clearTimeout(this.restartTimer);
    clearTimeout(this.stableTimer);
    await this.teardown();
    super.dispose();
  }
}

export function describeState(s: ServerState): string {
  switch (s.kind) {
    case 'stopped':
      return 'stopped';
    case 'starting':
      return s.attempt > 1 ? `starting (attempt ${s.attempt})` : 'starting';
    case 'running':
      return `running over ${s.transport}${s.serverInfo ? ` (${s.serverInfo.name} ${s.serverInfo.version})` : ''}${s.pid ? ` pid ${s.pid}` : ''}`;
    case 'error':
      return `error: ${s.reason}`;
    case 'untrusted':
      return 'not started: workspace is not trusted';
  }
}

/**
 * A readable reason: the message, plus what Node and the SDK keep elsewhere (`fetch failed` says
 * nothing without its cause, such as `connect ECONNREFUSED 127.0.0.1:9`; an HTTP error's status).
 */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts = [err.message];
  const status = (err as { code?: unknown }).code;
  if (typeof status === 'number' && status >= 400 && status < 600 && !err.message.includes(String(status))) parts.push(`(HTTP ${status})`);
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message && !err.message.includes(cause.message)) parts.push(`(${cause.message})`);
  return parts.join(' ');
}
