/**
 * One launch of a server: an SDK client over one transport, from `initialize` until it closes.
 * A Connection (connection.ts) makes a new Session for every start and restart and disposes it
 * when that launch ends; the Session never outlives its transport and never restarts itself.
 *
 * Where things go:
 * - A new client capability (roots, sampling, tasks, sign-in): declare it in
 *   {@link CLIENT_CAPABILITIES} and install its handlers in {@link Session.installHandlers}, one
 *   block per capability. Nothing else in `servers/` needs to know about it.
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
import {
  ProtocolError,
  type ClientCapabilities,
  type ClientContext,
  type Implementation,
  type JSONRPCMessage,
  type ProgressCallback,
  type ServerCapabilities,
  type Tool,
  type VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/parse/definitions';
import type { ElicitationSink } from '../elicitation/broker';
import { askerFor } from '../elicitation/asker';
import type { SamplingSink } from '../sampling/samplingBroker';
import { installSampling, SAMPLING_CAPABILITY } from './capabilities/sampling';
import { answerMaybeAsTask, installTasks, SessionTasks, TASKS_CAPABILITY } from './capabilities/tasks';
import { raceAbort } from '../util/async';
import { Emitter, type Event } from '../util/emitter';
import { metaLevel, SessionLogLevel, writeServerMessage, type LogLevelSource } from './capabilities/logging';
import { NO_ROOTS, SessionRoots, type RootsSource } from './capabilities/roots';
import type { ClientExtensions } from './capabilities/agentExtensions';
import { HostClient } from './hostClient';
import { LegDeadline, REAL_LEG_CLOCK, SDK_TIMEOUT_OFF_MS, type LegClock } from './legDeadline';
import { MissingCapabilityError, VersionGoneError } from './mrtr/errors';
import { taskHandleOf } from './mrtr/taskFollow';
import type { MrtrMethod } from './mrtr/inputRounds';
import { errorText } from './serverState';
import type { PreparedTransport, TransportKind } from './transports';
import { QuestionLinks } from './questionLinks';

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
 * Everything this client declares to a server. Each entry has its handlers in
 * {@link Session.installHandlers}; add a capability in both places, nowhere else.
 */
export const CLIENT_CAPABILITIES = {
  elicitation: { form: { applyDefaults: true }, url: {} },
  roots: { listChanged: true },
  sampling: SAMPLING_CAPABILITY,
  tasks: TASKS_CAPABILITY,
} as const satisfies ClientCapabilities;

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
    this.watchOutgoing();
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
    this.traceIncoming();
    this.level.start();
  }

  /**
   * The handlers behind {@link CLIENT_CAPABILITIES} and the notifications we listen to, one block
   * per capability. A new capability's request handlers go here.
   */
  private installHandlers(): void {
    const { client, deps } = this;
    const name = deps.name;

    // tasks (2025-11-25): a pushed elicitation or sample with `task` is answered with a task at
    // once and asked the same way; the server polls it (capabilities/tasks.ts).
    const tasks = new SessionTasks({ log: (m) => deps.log.debug(m) });
    this.owned.push(tasks);
    installTasks(client, tasks);

    // elicitation: pushed requests (2025 servers) reach the broker raw (see hostClient.ts);
    // 2026-07-28 input rounds reach it through sendLeg's caller (mrtr/inputRounds.ts).
    client.setElicitationHandler((request, ctx) =>
      answerMaybeAsTask(tasks, 'elicitation/create', request.params, (params, task) =>
        task
          ? // A task-borne question outlives the request that created it: its task's signal ends it.
            deps.sink.handle(askerFor(name, client.getServerVersion()), params, { signal: task.signal, requestId: `task ${task.id}` })
          : this.asked(ctx, request.method, (signal) =>
              deps.sink.handle(askerFor(name, client.getServerVersion()), params, {
                signal,
                requestId: ctx.mcpReq.id,
                sendProgress: async (progressToken, progress, message) => {
                  await ctx.mcpReq.notify({
                    method: 'notifications/progress',
                    params: { progressToken, progress, ...(message ? { message } : {}) },
                  });
                },
              }),
            ),
      ),
    );
    client.setNotificationHandler('notifications/elicitation/complete', (n) => {
      if (!this.isDisposed) deps.sink.complete(name, n.params.elicitationId);
    });

    // roots: the workspace folders this server may see (capabilities/roots.ts). 2026-07-28
    // servers ask in input rounds instead, and have no list_changed notification.
    const roots = new SessionRoots({
      server: name,
      source: deps.roots ?? NO_ROOTS,
      notifyChanged: () => {
        if (!this.connected || this.isDisposed || client.getProtocolEra() === 'modern') return;
        client.sendRootsListChanged().catch((e: unknown) => deps.log.warn(`roots/list_changed failed: ${errorText(e)}`));
      },
    });
    this.owned.push(roots);
    client.setRequestHandler('roots/list', () => roots.list());
    // sampling: capabilities/sampling.ts.
    installSampling(
      client,
      () => askerFor(name, client.getServerVersion()),
      deps.sampler,
      (ctx, ask) => this.asked(ctx, 'sampling/createMessage', ask),
      tasks,
    );

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

  /**
   * Runs one pushed question with the signal that ends it: the server's cancellation of it, and
   * the cancellation of the call it belongs to, when that is known (questionLinks.ts).
   */
  private async asked<T>(ctx: ClientContext, method: string, ask: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const link = this.links.question(ctx.mcpReq.id);
    const id = JSON.stringify(ctx.mcpReq.id);
    if (link.call === undefined) {
      if (link.inFlight > 1) {
        this.deps.log.debug(
          `${method} ${id} may belong to any of ${link.inFlight} requests in flight: cancelling one of them leaves it open`,
        );
      }
      return ask(ctx.mcpReq.signal);
    }
    const how = link.kind === 'stream' ? 'arrived on its stream' : 'the only request in flight';
    this.deps.log.debug(
      `${method} ${id} belongs to our ${this.links.methodOf(link.call) ?? 'request'} ${JSON.stringify(link.call)} (${how})`,
    );
    try {
      return await ask(AbortSignal.any([ctx.mcpReq.signal, link.signal]));
    } finally {
      link.dispose();
    }
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

  /** Lists every page of tools; the first listing after connect marks the session ready either way. */
  async refreshTools(): Promise<void> {
    if (this.isDisposed) return;
    if (this.serverCapabilities?.tools) {
      try {
        const tools: Tool[] = [];
        let cursor: string | undefined;
        do {
          const page = await this.client.listTools(cursor ? { cursor } : undefined);
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
    if (this.prepared.kind === 'stdio' || !this.connected || this.probing || this.isDisposed) return;
    this.probing = true;
    // 2026-07-28 has no `ping`; `server/discover` is the cheap request every modern server answers.
    const alive =
      this.client.getProtocolEra() === 'modern'
        ? this.client.discover({ timeout: PROBE_TIMEOUT_MS })
        : this.client.ping({ timeout: PROBE_TIMEOUT_MS });
    alive.then(
      () => {
        this.probing = false;
      },
      (err: unknown) => {
        this.probing = false;
        // An error answer (say, a server without ping) still proves the server is there.
        if (err instanceof ProtocolError || this.isDisposed) return;
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

  /** Runs one request under its {@link LegDeadline}: the one place a leg's timeout is decided. */
  private async timed<T>(leg: LegOptions, timeoutMs: number, send: (options: SdkLegOptions) => Promise<T>): Promise<T> {
    const deadline = new LegDeadline(this.deps.name, leg.timeoutMs ?? timeoutMs, this.deps.legClock ?? REAL_LEG_CLOCK);
    try {
      return await send(sdkLegOptions(leg, deadline));
    } finally {
      deadline.dispose();
    }
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
   * Wraps the transport's send: every outgoing message reaches {@link trace}, and our requests
   * and cancellations reach {@link links}, so a call's cancellation closes its questions.
   */
  private watchOutgoing(): void {
    const t = this.prepared.transport;
    const send = t.send.bind(t);
    t.send = (msg, opts) => {
      if (this.deps.log.isTracing) this.trace('→', msg);
      this.outgoing(msg);
      return send(msg, opts);
    };
  }

  private outgoing(msg: JSONRPCMessage): void {
    const cancelled = this.links.outgoing(msg);
    if (cancelled && cancelled.closed > 0) {
      const what = `our ${cancelled.method ?? 'request'} ${JSON.stringify(cancelled.id)}`;
      this.deps.log.info(`${what} was cancelled: closed ${cancelled.closed} question(s) it raised`);
    }
  }

  /** Wraps the handler the client installed at connect, so every incoming message reaches {@link trace}. */
  private traceIncoming(): void {
    if (!this.deps.log.isTracing) return;
    const t = this.prepared.transport;
    const onmessage = t.onmessage;
    t.onmessage = (msg, extra) => {
      this.trace('←', msg);
      onmessage?.(msg, extra);
    };
  }

  /** The one place a wire message is written to the log. */
  private trace(direction: '→' | '←', msg: JSONRPCMessage): void {
    this.deps.log.trace(`${direction} ${JSON.stringify(msg)}`);
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

interface SdkLegOptions {
  readonly signal: AbortSignal;
  readonly onprogress?: ProgressCallback;
  readonly timeout: number;
}

/** The caller's cancel and the deadline abort the request; progress extends the deadline. */
function sdkLegOptions(leg: LegOptions, deadline: LegDeadline): SdkLegOptions {
  const onprogress = leg.onprogress;
  return {
    signal: leg.signal ? AbortSignal.any([leg.signal, deadline.signal]) : deadline.signal,
    // Without a callback the SDK sends no progress token, so the server cannot send progress:
    // as before, only callers that show progress ask for it.
    ...(onprogress
      ? {
          onprogress: (p) => {
            deadline.extend();
            onprogress(p);
          },
        }
      : {}),
    timeout: SDK_TIMEOUT_OFF_MS,
  };
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
