/**
 * One launch of a server: an SDK client over one transport, from `initialize` until it closes.
 * A Connection (connection.ts) makes a new Session for every start and restart and disposes it
 * when that launch ends; the Session never outlives its transport and never restarts itself.
 *
 * Where things go:
 * - A new client capability (roots, sampling, tasks): a file of its own in `capabilities/`,
 *   declared and installed in capabilities/clientCapabilities.ts. Nothing else in `servers/` needs
 *   to know about it. (Sign-in is the transport's: auth/, and Connection.launchSignedIn.)
 * - What the server sends us unasked (elicitations, list changes, log messages) is handled there
 *   too; what the rest of the host should hear leaves through this session's events.
 * - Requests we send: {@link Session.sendLeg} (calls that may ask the user) and
 *   {@link Session.relay} (the agent gateway's lookups), both through {@link Session.protocolFailure}.
 * - Restart policy, backoff and the SSE fallback are the Connection's, not the session's.
 *
 * Late callbacks die with the session: every callback from the client checks `isDisposed`, and
 * disposing removes every listener of its events, so a launch that ended can never touch the
 * next one. No `vscode` import: tests run this in plain Node over an in-memory transport.
 */
import { ProtocolError, type ClientContext, type Implementation, type ServerCapabilities, type Tool } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/parse/definitions';
import type { ElicitationSink } from '../elicitation/broker';
import type { SamplingSink } from '../sampling/samplingBroker';
import { CLIENT_CAPABILITIES, installCapabilities } from './capabilities/clientCapabilities';
import { raceAbort } from '../util/async';
import { Emitter, type Event } from '../util/emitter';
import { metaLevel, SessionLogLevel, writeServerMessage, type LogLevelSource } from './capabilities/logging';
import type { RootsSource } from './capabilities/roots';
import type { ClientExtensions } from './capabilities/agentExtensions';
import { HostClient, negotiationFor } from './hostClient';
import { REAL_LEG_CLOCK, runLeg, type LegClock, type LegOptions, type SdkLegOptions } from './legDeadline';
import { askLinked, traceIncoming, watchOutgoing } from './sessionWire';
import { MissingCapabilityError, VersionGoneError } from './mrtr/errors';
import { taskHandleOf } from './mrtr/taskFollow';
import type { MrtrMethod } from './mrtr/inputRounds';
import { errorText } from './serverState';
import { isAuthChallenge, type PreparedTransport, type TransportKind } from './transports';
import { QuestionLinks } from './questionLinks';

/** A request or notification as the agent gateway relays it, params untouched. */
export interface RelayedMessage {
  readonly method: string;
  readonly params?: Record<string, unknown> | undefined;
}

/** The part of the logger a session writes to (the host's Logger, or a test's array). */
export interface SessionLog {
  readonly isTracing: boolean;
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface SessionDeps {
  readonly name: string;
  readonly clientInfo: Implementation;
  readonly sink: ElicitationSink;
  /** Pushed `sampling/createMessage` (2025 servers); rounds reach it through mrtr/inputRounds.ts. */
  readonly sampler: SamplingSink;
  readonly log: SessionLog;
  /** The server's `protocolVersion` setting. */
  readonly protocolVersion: ServerDefinition['protocolVersion'];
  /** The folders this server may see (capabilities/roots.ts); none when absent. */
  readonly roots?: RootsSource | undefined;
  /** The level of our log, which the server's follows (capabilities/logging.ts); none when absent. */
  readonly logLevel?: LogLevelSource | undefined;
  /** Times each leg, and stops while a question the server raised is open (default: real timers, no questions). */
  readonly legClock?: LegClock;
  /**
   * Client extensions declared on behalf of VS Code's agent for this launch, such as MCP Apps
   * (capabilities/agentExtensions.ts); none when absent.
   */
  readonly extensions?: ClientExtensions | undefined;
}

/**
 * Why a running session ended on its own (a stop or restart by the user disposes it instead):
 * - `closed`: the transport closed (a stdio server exited);
 * - `unresponsive`: after a transport error the server did not answer the liveness probe;
 * - `versionGone`: the server dropped the protocol revision negotiated at connect (-32022).
 */
export interface SessionEnd {
  readonly kind: 'closed' | 'unresponsive' | 'versionGone';
  readonly reason: string;
}

/**
 * A call the server takes this long over, with no progress and no question of its own open,
 * has failed; progress extends it, and an open question stops it (legDeadline.ts).
 */
export const CALL_TIMEOUT_MS = 15 * 60_000;
/** A lookup the server should answer quickly (an open question stops this clock too). */
export const RELAY_TIMEOUT_MS = 60_000;
/**
 * An HTTP or SSE transport reports a broken stream through `onerror` and never closes itself, so
 * the session pings to tell a dead server from a hiccup; no answer in this time means dead.
 */
const PROBE_TIMEOUT_MS = 10_000;
type ListChange = 'notifications/tools/list_changed' | 'notifications/prompts/list_changed' | 'notifications/resources/list_changed';

export class Session {
  private readonly _onDidChangeTools = new Emitter<void>();
  /** The tool list changed, or the first listing after connect settled (answered, failed, or no tools). */
  readonly onDidChangeTools: Event<void> = this._onDidChangeTools.event;
  private readonly _onDidNotify = new Emitter<RelayedMessage>();
  /** Notifications the agent gateway passes on: list changes, log messages, resource updates. */
  readonly onDidNotify: Event<RelayedMessage> = this._onDidNotify.event;
  private readonly _onDidEnd = new Emitter<SessionEnd>();
  /** The session ended on its own; fires at most once, never after dispose. */
  readonly onDidEnd: Event<SessionEnd> = this._onDidEnd.event;

  private readonly client: HostClient;
  /** Aborted by dispose: the session's disposed flag, and a connect under way stops waiting. */
  private readonly ended = new AbortController();
  private connected = false;
  private closing: Promise<void> | undefined;
  private probing = false;
  private _tools: readonly Tool[] = [];
  private _toolsListed = false;
  /** Disposed with the session: capability state that listens to the host (roots). */
  private readonly owned: { dispose(): void }[] = [];
  private readonly level: SessionLogLevel;
  /** Which call each pushed question belongs to, so that cancelling the call closes it (questionLinks.ts). */
  private readonly links = new QuestionLinks();

  constructor(
    readonly prepared: PreparedTransport,
    private readonly deps: SessionDeps,
  ) {
    this.client = new HostClient(deps.clientInfo, {
      capabilities: deps.extensions ? { ...CLIENT_CAPABILITIES, extensions: { ...deps.extensions } } : CLIENT_CAPABILITIES,
      versionNegotiation: negotiationFor(deps.protocolVersion, prepared.kind),
      // Rounds go through the broker with the call's context: see mrtr/inputRounds.ts.
      inputRequired: { autoFulfill: false },
      // A 2026-07-28 server announces list changes only on a `subscriptions/listen` stream, which
      // the SDK opens for these; for a 2025 server they are the usual notifications.
      listChanged: {
        tools: this.listChange('notifications/tools/list_changed'),
        prompts: this.listChange('notifications/prompts/list_changed'),
        resources: this.listChange('notifications/resources/list_changed'),
      },
    });
    // logging: 2026-07-28 requests carry our level; a 2025 server gets logging/setLevel once connected.
    this.client.logLevel = () => metaLevel(deps.logLevel);
    this.level = new SessionLogLevel({
      source: deps.logLevel ?? { logLevel: 0, onDidChangeLogLevel: () => ({ dispose: () => undefined }) },
      wantsSetLevel: () => deps.logLevel !== undefined && this.client.getProtocolEra() !== 'modern' && !!this.serverCapabilities?.logging,
      setLevel: (level) => this.client.setLoggingLevel(level),
      warn: (m) => deps.log.warn(m),
    });
    this.owned.push(this.level);
    this.installHandlers();
    this.client.onerror = (e) => this.onTransportError(e);
    this.client.onResponse = (id) => this.links.answered(id);
    if (prepared.origins) prepared.origins.onArrived = (question, call) => this.links.arrivedOn(question, call);
    watchOutgoing(prepared.transport, deps.log, this.links);
  }

  get isDisposed(): boolean {
    return this.ended.signal.aborted;
  }
  get kind(): TransportKind {
    return this.prepared.kind;
  }
  get pid(): number | undefined {
    return this.prepared.pid();
  }
  get tools(): readonly Tool[] {
    return this._tools;
  }
  /** The first tools/list since connect has answered (or failed, or the server has no tools). */
  get toolsListed(): boolean {
    return this._toolsListed;
  }
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.client.getServerCapabilities();
  }
  get serverInfo(): Implementation | undefined {
    return this.client.getServerVersion();
  }
  get instructions(): string | undefined {
    return this.client.getInstructions();
  }
  /** The client extensions this launch declared (see {@link SessionDeps.extensions}). */
  get offeredExtensions(): ClientExtensions | undefined {
    return this.deps.extensions;
  }
  get protocolVersion(): string | undefined {
    return this.client.getNegotiatedProtocolVersion();
  }

  /**
   * `initialize`, within `timeoutMs`. A failure is the caller's to report (and may lead to the
   * SSE fallback): the SDK closes a client whose connect failed, which is not a crash, so the close
   * watch starts only once connected. Resolves at once when the session is disposed meanwhile
   * (the SDK's version probe would otherwise run on to its timeout).
   */
  async connect(timeoutMs: number): Promise<void> {
    await raceAbort(this.client.connect(this.prepared.transport, { timeout: timeoutMs }), this.ended.signal, () => undefined);
    if (this.isDisposed) return;
    this.connected = true;
    this.client.onclose = () => this.end({ kind: 'closed', reason: 'the server exited unexpectedly' });
    traceIncoming(this.prepared.transport, this.deps.log);
    this.level.start();
  }

  /**
   * The handlers behind CLIENT_CAPABILITIES (capabilities/clientCapabilities.ts), and the
   * notifications we listen to.
   */
  private installHandlers(): void {
    const { client, deps } = this;
    installCapabilities({
      client,
      name: deps.name,
      sink: deps.sink,
      sampler: deps.sampler,
      roots: deps.roots,
      log: deps.log,
      asked: (ctx, method, ask) => this.asked(ctx, method, ask),
      live: () => this.connected && !this.isDisposed,
      isDisposed: () => this.isDisposed,
      own: (d) => this.owned.push(d),
    });

    // Server notifications. For a server that announces tool list changes without declaring
    // `listChanged`; one that declares it gets the SDK's handler instead (see the constructor).
    const toolsChanged = this.listChange('notifications/tools/list_changed');
    client.setNotificationHandler('notifications/tools/list_changed', () => toolsChanged.onChanged());
    client.setNotificationHandler('notifications/message', (n) => {
      writeServerMessage(deps.log, n.params);
      this.notify(n);
    });
    // The rest (prompt and resource list changes, resource updates) matter only to the gateway.
    client.fallbackNotificationHandler = (n) => {
      this.notify(n);
      return Promise.resolve();
    };
  }

  /** Runs one pushed question with the signal that ends it (sessionWire.ts, askLinked). */
  private asked<T>(ctx: ClientContext, method: string, ask: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return askLinked(this.links, this.deps.log, { id: ctx.mcpReq.id, signal: ctx.mcpReq.signal }, method, ask);
  }

  /** What a list change does: the gateway passes it on; a tool list change also refreshes ours. */
  private listChange(method: ListChange): { autoRefresh: false; debounceMs: 0; onChanged: () => void } {
    return {
      autoRefresh: false,
      debounceMs: 0,
      onChanged: () => {
        this.notify({ method });
        if (method === 'notifications/tools/list_changed') void this.refreshTools();
      },
    };
  }

  private notify(n: RelayedMessage): void {
    if (!this.isDisposed) this._onDidNotify.fire(n);
  }

  /**
   * Lists every page of tools; the first listing after connect marks the session ready either way.
   * `send` carries each page's request: the connection passes its sign-in for the first listing,
   * since a server may let `initialize` through and answer 401 to the first request after it.
   */
  async refreshTools(send: <T>(request: () => Promise<T>) => Promise<T> = (request) => request()): Promise<void> {
    if (this.isDisposed) return;
    if (this.serverCapabilities?.tools) {
      try {
        const tools: Tool[] = [];
        let cursor: string | undefined;
        do {
          const page = await send(() => this.client.listTools(cursor ? { cursor } : undefined));
          tools.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor && tools.length < 10_000);
        this._tools = tools;
      } catch (err) {
        if (this.isDisposed) return;
        this.deps.log.warn(`tools/list failed: ${errorText(err)}`);
        if (this._toolsListed) return;
      }
    }
    if (this.isDisposed) return;
    this._toolsListed = true;
    this._onDidChangeTools.fire();
  }

  /**
   * After an HTTP/SSE transport error: is the server still there? A stream that dropped mid-way
   * leaves requests waiting that the SDK never fails, so a server that does not answer a ping is
   * treated like an exited process: prompts close, calls fail, the restart policy applies.
   */
  private onTransportError(e: unknown): void {
    this.deps.log.warn(`transport error: ${errorText(e)}`);
    // A sign-in challenge (a 401, or the SDK's Unauthorized after a 403 step-up) is an answer: the
    // server is there, and the request that met it starts the sign-in (connection.ts). A probe
    // would only meet it again and start a second authorization, whose PKCE verifier replaces the
    // first one's.
    if (isAuthChallenge(e)) return;
    if (this.prepared.kind === 'stdio' || !this.connected || this.probing || this.isDisposed) return;
    this.probing = true;
    this.client.probe(PROBE_TIMEOUT_MS).then(
      () => {
        this.probing = false;
      },
      (err: unknown) => {
        this.probing = false;
        // An error answer (say, a server without ping) still proves the server is there, and so
        // does a sign-in challenge (a server whose ping needs the token a sign-in is getting).
        if (err instanceof ProtocolError || isAuthChallenge(err) || this.isDisposed) return;
        this.deps.log.warn(`the server stopped answering: ${errorText(err)}`);
        this.end({ kind: 'unresponsive', reason: `the connection was lost (${errorText(err)})` });
      },
    );
  }

  private end(end: SessionEnd): void {
    if (this.isDisposed) return;
    this._onDidEnd.fire(end);
    // The listener (the Connection) disposes the session; whoever did not, it ends here anyway.
    void this.dispose();
  }

  /**
   * Sends one leg of a call: a new request with exactly these params. The value is the result or,
   * from a 2026-07-28 server, an `input_required` answer for mrtr/inputRounds.ts to fulfil.
   */
  async sendLeg(method: MrtrMethod, params: Readonly<Record<string, unknown>>, leg: LegOptions, label: string): Promise<unknown> {
    const client = this.client;
    try {
      return await this.timed<unknown>(leg, CALL_TIMEOUT_MS, (o) => {
        const options = { ...o, allowInputRequired: true };
        switch (method) {
          case 'tools/call':
            return client.callTool(params as Parameters<HostClient['callTool']>[0], options);
          case 'prompts/get':
            return client.getPrompt(params as Parameters<HostClient['getPrompt']>[0], options);
          case 'resources/read':
            return client.readResource(params as Parameters<HostClient['readResource']>[0], options);
        }
      });
    } catch (err) {
      // A task handle (tasks extension): the caller follows it (mrtr/taskFollow.ts).
      const handle = taskHandleOf(err);
      if (handle) return handle;
      throw this.protocolFailure(err, label);
    }
  }

  /** One request of the tasks extension (`tasks/get`, `tasks/update`, `tasks/cancel`), answered quickly. */
  async taskRequest(method: string, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<unknown> {
    try {
      return await this.timed({ signal }, RELAY_TIMEOUT_MS, (o) => this.client.taskRequest(method, params, o));
    } catch (err) {
      throw this.protocolFailure(err, method);
    }
  }

  /**
   * Sends one request as given, for the agent gateway's lookups (lists, completions, log level).
   * Calls that may ask the user go through {@link sendLeg} and the input rounds instead.
   */
  async relay(request: RelayedMessage, leg: LegOptions): Promise<Record<string, unknown>> {
    try {
      return await this.timed(leg, RELAY_TIMEOUT_MS, (o) =>
        this.client.request({ method: request.method as 'tools/list', ...(request.params ? { params: request.params } : {}) }, o),
      );
    } catch (err) {
      throw this.protocolFailure(err, request.method);
    }
  }

  /** Runs one request under its leg deadline (legDeadline.ts, runLeg). */
  private timed<T>(leg: LegOptions, timeoutMs: number, send: (options: SdkLegOptions) => Promise<T>): Promise<T> {
    return runLeg(this.deps.name, leg, timeoutMs, this.deps.legClock ?? REAL_LEG_CLOCK, send);
  }

  /** -32021 and a late -32022 become errors that say what the user can do about them. */
  private protocolFailure(err: unknown, label: string): unknown {
    if (!(err instanceof ProtocolError)) return err;
    const name = this.deps.name;
    const data = err.data as { requiredCapabilities?: unknown; supported?: unknown } | undefined;
    if (err.code === -32021) {
      const caps =
        typeof data?.requiredCapabilities === 'object' && data.requiredCapabilities !== null ? Object.keys(data.requiredCapabilities) : [];
      return new MissingCapabilityError(name, label, caps);
    }
    if (err.code === -32022) {
      // The revision was chosen at connect; a server that drops it since needs a new session.
      const supported = Array.isArray(data?.supported) ? data.supported.filter((v): v is string => typeof v === 'string') : [];
      this.deps.log.warn(`-32022 on ${label}: the server now supports ${supported.join(', ') || 'no version it named'}; reconnecting`);
      this.end({ kind: 'versionGone', reason: `the server no longer supports MCP ${this.protocolVersion ?? '?'}` });
      return new VersionGoneError(name, label, supported);
    }
    return err;
  }

  /**
   * Ends the launch: no event fires and no callback acts from here on. Closes the client, which
   * fails every request still waiting on it; stdio servers get the SDK's stdin-close, SIGTERM,
   * SIGKILL sequence. Resolves once closed; never rejects.
   */
  dispose(): Promise<void> {
    if (!this.closing) {
      this.ended.abort();
      for (const d of this.owned) d.dispose();
      this._tools = [];
      this._onDidChangeTools.dispose();
      this._onDidNotify.dispose();
      this._onDidEnd.dispose();
      this.closing = this.client.close().catch((e: unknown) => this.deps.log.warn(`close failed: ${errorText(e)}`));
    }
    return this.closing;
  }
}
