/**
 * One launch of a server: an SDK client over one transport, from `initialize` until it closes.
 * A Connection (connection.ts) makes a new Session for every start and restart and disposes it
 * when that launch ends; the Session never outlives its transport and never restarts itself.
 *
 * Where things go:
 * - A new client capability (roots, sampling, tasks): a file of its own in `capabilities/`,
 *   declared and installed in capabilities/clientCapabilities.ts. Nothing else in `servers/` needs
 *   to know about it. (Sign-in is the transport's: auth/, and auth/signedInLaunch.ts.)
 * - What the server sends us unasked (elicitations, list changes, log messages) is handled there
 *   too; what the rest of the host should hear leaves through this session's events.
 * - Requests we send: sessionRequests.ts, behind {@link Session.sendLeg} (calls that may ask the
 *   user) and {@link Session.relay} (the agent gateway's lookups).
 * - What a session is given and how it ends (its deps, log, end reasons): sessionDeps.ts.
 * - Restart policy, backoff and the SSE fallback are the Connection's, not the session's.
 *
 * Late callbacks die with the session: every callback from the client checks `isDisposed`, and
 * disposing removes every listener of its events, so a launch that ended can never touch the
 * next one. No `vscode` import: tests run this in plain Node over an in-memory transport.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type ClientContext,
  type Implementation,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/client';
import { CLIENT_CAPABILITIES, installCapabilities } from './capabilities/clientCapabilities';
import { raceAbort } from '../util/async';
import { Emitter, type Event } from '../util/emitter';
import { metaLevel, SessionLogLevel, writeServerMessage } from './capabilities/logging';
import type { ClientExtensions } from './capabilities/agentExtensions';
import { HostClient } from './hostClient';
import { connectByPlan } from './era/connectByPlan';
import { eraLine, eraPlan, type EraNote } from './era/eraChoice';
import { english } from '../shared/localize';
import type { LegOptions } from './legDeadline';
import { askLinked, traceIncoming, watchOutgoing } from './sessionWire';
import type { MrtrMethod } from './mrtr/inputRounds';
import { errorText } from './serverState';
import { isAuthChallenge, type PreparedTransport, type TransportKind } from './transports';
import { QuestionLinks } from './questionLinks';
import type { RelayedMessage, SessionDeps, SessionEnd } from './sessionDeps';
import { SessionRequests } from './sessionRequests';
import { failUnansweredStreams } from './unansweredStreams';

export type { RelayedMessage, SessionDeps, SessionEnd, SessionLog } from './sessionDeps';

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
  private _era: EraNote | undefined;
  private _tools: readonly Tool[] = [];
  private _toolsListed = false;
  /** Disposed with the session: capability state that listens to the host (roots). */
  private readonly owned: { dispose(): void }[] = [];
  private readonly level: SessionLogLevel;
  /** Which call each pushed question belongs to, so that cancelling the call closes it (questionLinks.ts). */
  private readonly links = new QuestionLinks();
  private readonly requests: SessionRequests;

  constructor(
    readonly prepared: PreparedTransport,
    private readonly deps: SessionDeps,
  ) {
    this.client = new HostClient(deps.clientInfo, {
      capabilities: deps.extensions ? { ...CLIENT_CAPABILITIES, extensions: { ...deps.extensions } } : CLIENT_CAPABILITIES,
      // Each attempt sets its own (era/connectByPlan.ts).
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
    this.requests = new SessionRequests(this.client, {
      name: deps.name,
      log: deps.log,
      legClock: deps.legClock,
      protocolVersion: () => this.protocolVersion,
      end: (end) => this.end(end),
    });
    this.installHandlers();
    this.client.onerror = (e) => this.onTransportError(e);
    this.client.onResponse = (id) => this.links.answered(id);
    // Over HTTP a request whose stream ends unanswered fails at once (unansweredStreams.ts).
    if (prepared.kind !== 'stdio') {
      failUnansweredStreams(
        prepared.transport,
        (id) => this.links.methodOf(id),
        (m) => deps.log.warn(m),
      );
    }
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
  /** The revision this launch speaks and why (era/eraChoice.ts); undefined until connected. */
  get era(): EraNote | undefined {
    return this._era;
  }

  /**
   * `initialize`, within `timeoutMs`. A failure is the caller's to report (and may lead to the
   * SSE fallback): the SDK closes a client whose connect failed, which is not a crash, so the close
   * watch starts only once connected. Resolves at once when the session is disposed meanwhile
   * (the SDK's version probe would otherwise run on to its timeout).
   */
  async connect(timeoutMs: number): Promise<void> {
    const attempt = connectByPlan(
      this.client,
      this.prepared,
      eraPlan(this.deps.protocolVersion, this.prepared.kind, this.deps.learnedEra),
      {
        timeoutMs,
        log: this.deps.log,
      },
    );
    const note = await raceAbort(attempt, this.ended.signal, () => undefined);
    if (this.isDisposed || !note) return;
    this._era = note;
    this.deps.log.info(eraLine(note, english));
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

  /**
   * Runs one pushed question with the signal that ends it (sessionWire.ts, askLinked). A launch
   * that ended asks nobody: a stdio server's output is still read while it is given time to exit
   * (stdin closed, then SIGTERM, then SIGKILL), and a question it wrote meanwhile would otherwise
   * show a prompt for a server that was stopped or is restarting, which no answer could reach.
   */
  private asked<T>(ctx: ClientContext, method: string, ask: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.isDisposed) {
      return Promise.reject(new ProtocolError(ProtocolErrorCode.InternalError, `${method}: the connection to this server has ended`));
    }
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
        // Named with the revision: a server that claimed one at connect may not speak it after all.
        this.deps.log.warn(`tools/list (MCP ${this.protocolVersion ?? '?'}) failed: ${errorText(err)}`);
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

  /** Sends one leg of a call (sessionRequests.ts): the result, an `input_required` answer or a task handle. */
  sendLeg(method: MrtrMethod, params: Readonly<Record<string, unknown>>, leg: LegOptions, label: string): Promise<unknown> {
    return this.requests.sendLeg(method, params, leg, label);
  }

  /** One request of the tasks extension (sessionRequests.ts). */
  taskRequest(method: string, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<unknown> {
    return this.requests.taskRequest(method, params, signal);
  }

  /** Sends one request as given, for the agent gateway's lookups (sessionRequests.ts). */
  relay(request: RelayedMessage, leg: LegOptions): Promise<Record<string, unknown>> {
    return this.requests.relay(request, leg);
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
