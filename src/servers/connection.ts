import * as vscode from 'vscode';
import { ProtocolError, type ProgressCallback, type ServerCapabilities, type Tool, type Implementation, type VersionNegotiationOptions } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/parse/definitions';
import type { ElicitationSink } from '../elicitation/broker';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { createTransport, shouldFallBackToSse, type PreparedTransport, type TransportKind } from './transports';
import { HostClient } from './hostClient';
import { MissingCapabilityError, VersionGoneError } from './mrtr/errors';
import type { MrtrMethod } from './mrtr/inputRounds';
import { describeState, errorText, type ServerState } from './serverState';


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

/** A request or notification as the agent gateway relays it, params untouched. */
export interface RelayedMessage {
  readonly method: string;
  readonly params?: Record<string, unknown> | undefined;
}

/** How one relayed or tool-call leg is sent. */
export interface LegOptions {
  readonly signal?: AbortSignal | undefined;
  /** Each `notifications/progress` the server sends about this request. */
  readonly onprogress?: ProgressCallback | undefined;
  readonly timeoutMs?: number;
}

/** Backoff before restart attempt n (1-based): 1 s, 2 s, 4 s, 8 s, 16 s. */
export const RESTART_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];
/** A connection that stayed up this long resets the crash counter. */
const STABLE_AFTER_MS = 60_000;
export const CONNECT_TIMEOUT_MS = 30_000;
/** A call may wait on the user (an elicitation inside it); progress from the server extends it. */
const CALL_TIMEOUT_MS = 15 * 60_000;
/** A lookup the server should answer quickly. */
const RELAY_TIMEOUT_MS = 60_000;
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

  private readonly _onDidNotify = this._register(new vscode.EventEmitter<RelayedMessage>());
  /** Notifications the agent gateway passes on: list changes, log messages, resource updates. */
  readonly onDidNotify = this._onDidNotify.event;

  private _state: ServerState = { kind: 'stopped' };
  private _tools: readonly Tool[] = [];
  private _toolsListed = false;
  private client: HostClient | undefined;
  private prepared: PreparedTransport | undefined;
  private wanted = false;
  private crashes = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private stableTimer: NodeJS.Timeout | undefined;
  /** Bumped on every start/stop so late callbacks from an old client are ignored. */
  private generation = 0;
  /** The generation a liveness ping is running for, so a burst of errors sends one ping. */
  private probing: number | undefined;
  /** Aborted when this connection goes away (stop, restart, deactivation): calls in flight end without a retry. */
  private calls = new AbortController();

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
  /** Running, and the first tools/list since it started has answered (or failed, or it has no tools). */
  get ready(): boolean {
    return this._state.kind === 'running' && this._toolsListed;
  }
  /** True while a session with the server is up and requests can be sent. */
  get isRunning(): boolean {
    return this._state.kind === 'running' && this.client !== undefined;
  }
  /** What the server declared when it connected; undefined until it runs. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.isRunning ? this.client?.getServerCapabilities() : undefined;
  }
  get serverInfo(): Implementation | undefined {
    return this.isRunning ? this.client?.getServerVersion() : undefined;
  }
  get instructions(): string | undefined {
    return this.isRunning ? this.client?.getInstructions() : undefined;
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
    this._toolsListed = false;
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
    const prepared = createTransport(
      this.definition,
      { stderr: (line) => this.deps.log.info(`[${this.name}] stderr: ${line}`), warn: (m) => this.deps.log.warn(`[${this.name}] ${m}`) },
      kind,
    );
    const client = new HostClient(this.deps.clientInfo, {
      capabilities: { elicitation: { form: { applyDefaults: true }, url: {} } },
      versionNegotiation: negotiationFor(this.definition.protocolVersion, prepared.kind),
      // Rounds go through the broker with the call's context: see mrtr/inputRounds.ts.
      inputRequired: { autoFulfill: false },
      // A 2026-07-28 server announces list changes only on a `subscriptions/listen` stream, which
      // the SDK opens for these; for a 2025 server they are the usual notifications.
      listChanged: {
        tools: this.onListChanged(gen, 'notifications/tools/list_changed'),
        prompts: this.onListChanged(gen, 'notifications/prompts/list_changed'),
        resources: this.onListChanged(gen, 'notifications/resources/list_changed'),
      },
    });
    this.client = client;
    this.prepared = prepared;
    this.installHandlers(client, gen);
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
    // Only from here: the SDK closes a client whose connect failed, and that failure is the
    // connect's to report (and may lead to the SSE fallback), not a crash to restart from.
    client.onclose = () => {
      if (gen === this.generation && this.client === client) this.onUnexpectedClose();
    };
    if (this.deps.log.isTracing) {
      const t = prepared.transport;
      const onmessage = t.onmessage;
      t.onmessage = (msg, extra) => {
        this.deps.log.trace(`[${this.name}] ← ${JSON.stringify(msg)}`);
        onmessage?.(msg, extra);
      };
    }
    this.setState({ kind: 'running', transport: prepared.kind, serverInfo: client.getServerVersion(), pid: prepared.pid(), protocolVersion: client.getNegotiatedProtocolVersion() });
    this.stableTimer = setTimeout(() => (this.crashes = 0), STABLE_AFTER_MS);
    await this.refreshTools(gen);
    if (gen !== this.generation || this._toolsListed) return;
    // No tools, or tools/list failed: ready all the same, and the view hears it once.
    this._toolsListed = true;
    this._onDidChange.fire(this);
  }

  private installHandlers(client: HostClient, gen: number): void {
    // Pushed requests (2025 servers) reach the broker raw: see hostClient.ts.
    client.setElicitationHandler((request, ctx) =>
      this.deps.sink.handle(
        { name: this.name, serverInfo: client.getServerVersion() },
        request.params,
        {
          signal: ctx.mcpReq.signal,
          requestId: ctx.mcpReq.id,
          sendProgress: async (progressToken, progress, message) => {
            await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, ...(message ? { message } : {}) } });
          },
        },
      ),
    );
    client.setNotificationHandler('notifications/elicitation/complete', (n) => {
      this.deps.sink.complete(this.name, n.params.elicitationId);
    });
    // For a server that announces list changes without declaring `listChanged`; one that declares
    // it gets the SDK's handler instead, which calls onListChanged.
    const toolsChanged = this.onListChanged(gen, 'notifications/tools/list_changed');
    client.setNotificationHandler('notifications/tools/list_changed', () => toolsChanged.onChanged());
    client.setNotificationHandler('notifications/message', (n) => {
      this.deps.log.debug(`[${this.name}] log ${n.params.level}: ${JSON.stringify(n.params.data)}`);
      if (gen === this.generation) this._onDidNotify.fire(n);
    });
    // The rest (prompt and resource list changes, resource updates) matter only to the gateway.
    client.fallbackNotificationHandler = (n) => {
      if (gen === this.generation) this._onDidNotify.fire(n);
      return Promise.resolve();
    };
  }

  /** What a list change does: the gateway passes it on; a tool list change also refreshes ours. */
  private onListChanged(gen: number, method: string): { autoRefresh: false; debounceMs: 0; onChanged: () => void } {
    return {
      autoRefresh: false,
      debounceMs: 0,
      onChanged: () => {
        if (gen !== this.generation) return;
        this._onDidNotify.fire({ method });
        if (method === 'notifications/tools/list_changed') void this.refreshTools(gen);
      },
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
      this._toolsListed = true;
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
  private probe(client: HostClient, gen: number): void {
    if (this.probing === gen || gen !== this.generation || this.client !== client || this._state.kind !== 'running') return;
    this.probing = gen;
    // 2026-07-28 has no `ping`; `server/discover` is the cheap request every modern server answers.
    const alive = client.getProtocolEra() === 'modern' ? client.discover({ timeout: PROBE_TIMEOUT_MS }) : client.ping({ timeout: PROBE_TIMEOUT_MS });
    alive.then(
      () => {
        if (this.probing === gen) this.probing = undefined;
      },
      async (err: unknown) => {
        if (this.probing === gen) this.probing = undefined;
        if (gen !== this.generation || this.client !== client) return;
        // An error answer (say, a server without ping) still proves the server is there.
        if (err instanceof ProtocolError) return;
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
    this.abortCalls();
    const client = this.client;
    this.client = undefined;
    this._tools = [];
    if (client) {
      this.deps.sink.serverGone(this.name);
      await client.close().catch((e: unknown) => this.deps.log.warn(`[${this.name}] close failed: ${errorText(e)}`));
    }
  }

  /** Ends every call in flight on this connection: open prompts close, no retry is sent. */
  abortCalls(): void {
    this.calls.abort();
    this.calls = new AbortController();
  }

  /** The signal a call on this connection also honours (see {@link abortCalls}). */
  get callSignal(): AbortSignal {
    return this.calls.signal;
  }

  /**
   * Sends one leg of a call: a new request with exactly these params. The value is the result or,
   * from a 2026-07-28 server, an `input_required` answer for mrtr/inputRounds.ts to fulfil.
   */
  async sendLeg(method: MrtrMethod, params: Readonly<Record<string, unknown>>, leg: LegOptions, label: string): Promise<unknown> {
    const client = this.runningClient();
    // Calls that wait on the user (elicitation inside) take long; progress keeps them alive.
    const options = { ...legRequestOptions(leg, CALL_TIMEOUT_MS), allowInputRequired: true };
    try {
      switch (method) {
        case 'tools/call':
          return await client.callTool(params as Parameters<HostClient['callTool']>[0], options);
        case 'prompts/get':
          return await client.getPrompt(params as Parameters<HostClient['getPrompt']>[0], options);
        case 'resources/read':
          return await client.readResource(params as Parameters<HostClient['readResource']>[0], options);
      }
    } catch (err) {
      throw this.protocolFailure(err, label);
    }
  }

  /**
   * Sends one request as given, for the agent gateway's lookups (lists, completions, log level).
   * Calls that may ask the user go through {@link sendLeg} and the input rounds instead.
   */
  async relay(request: RelayedMessage, leg: LegOptions): Promise<Record<string, unknown>> {
    const client = this.runningClient();
    try {
      return (await client.request({ method: request.method as 'tools/list', ...(request.params ? { params: request.params } : {}) }, legRequestOptions(leg, RELAY_TIMEOUT_MS)));
    } catch (err) {
      throw this.protocolFailure(err, request.method);
    }
  }

  private runningClient(): HostClient {
    const client = this.client;
    if (!client || this._state.kind !== 'running') throw new ProtocolError(-32000, vscode.l10n.t('Server "{0}" is not running.', this.name));
    return client;
  }

  /** -32021 and a late -32022 become errors that say what the user can do about them. */
  private protocolFailure(err: unknown, label: string): unknown {
    if (!(err instanceof ProtocolError)) return err;
    const data = err.data as { requiredCapabilities?: unknown; supported?: unknown } | undefined;
    if (err.code === -32021) {
      const caps = typeof data?.requiredCapabilities === 'object' && data.requiredCapabilities !== null ? Object.keys(data.requiredCapabilities) : [];
      return new MissingCapabilityError(this.name, label, caps);
    }
    if (err.code === -32022) {
      // The revision was chosen at connect; a server that drops it since needs a new probe.
      const supported = Array.isArray(data?.supported) ? data.supported.filter((v): v is string => typeof v === 'string') : [];
      this.deps.log.warn(`[${this.name}] -32022 on ${label}: the server now supports ${supported.join(', ') || 'no version it named'}; reconnecting`);
      void this.restart();
      return new VersionGoneError(this.name, label, supported);
    }
    return err;
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

function legRequestOptions(leg: LegOptions, timeout: number): { signal?: AbortSignal; onprogress?: ProgressCallback; timeout: number; resetTimeoutOnProgress: true } {
  return { ...(leg.signal ? { signal: leg.signal } : {}), ...(leg.onprogress ? { onprogress: leg.onprogress } : {}), timeout: leg.timeoutMs ?? timeout, resetTimeoutOnProgress: true };
}

/**
 * The SDK's negotiation mode for a server's `protocolVersion` setting. SSE is the 2024 transport:
 * only 2025-era servers speak it, so it never probes.
 */
export function negotiationFor(choice: ServerDefinition['protocolVersion'], transport: TransportKind): VersionNegotiationOptions {
  if (transport === 'sse' || choice === '2025-11-25') return { mode: 'legacy' };
  if (choice === '2026-07-28') return { mode: { pin: '2026-07-28' } };
  return { mode: 'auto' };
}
