/**
 * One MCP server's lifecycle: an honest state machine (stopped, starting, running, error,
 * untrusted), start/stop/restart, and the restart policy (backoff, giving up, the SSE fallback).
 * Everything that talks to the server for one launch lives in that launch's Session (session.ts):
 * handlers, tools, the liveness probe, tracing, calls and their errors. No `vscode` import: tests
 * drive this in plain Node with a fake transport and timers they control.
 */
import {
  ProtocolError,
  type ListRootsResult,
  type OAuthClientProvider,
  type ServerCapabilities,
  type Tool,
} from '@modelcontextprotocol/client';
import type { Implementation } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/parse/definitions';
import type { SamplingSink } from '../sampling/samplingBroker';
import { english } from '../shared/localize';
import { Disposable } from '../util/disposable';
import { Emitter, type Event } from '../util/emitter';
import type { ClientExtensions } from './capabilities/agentExtensions';
import { answerRoots, NO_ROOTS } from './capabilities/roots';
import type { MrtrMethod } from './mrtr/inputRounds';
import type { TaskRequests } from './mrtr/taskFollow';
import { describeState, errorText, type ServerState } from './serverState';
import { realTimer, type LegOptions } from './legDeadline';
import { Session, type RelayedMessage, type SessionEnd } from './session';
import { createTransport, isAuthChallenge, shouldFallBackToSse, type TransportKind } from './transports';
import { serverSentence } from './sentences';
import { CONNECT_TIMEOUT_MS, RESTART_DELAYS_MS, STABLE_AFTER_MS, type ConnectionDeps } from './connectionDeps';
import { launchSignedIn, type Launch } from './auth/signedInLaunch';
import { MODERN_REVISION, revisionOf, type Era } from './era/eraChoice';
import { ToolEras } from './era/toolEras';

export type { LegOptions } from './legDeadline';
export type { RelayedMessage } from './session';
export type { SetTimer } from './legDeadline';
export type { ConnectionDeps, GaveUp, SignInPort } from './connectionDeps';

/**
 * One MCP server, with crash restarts. Its lifetime is the server definition's; a changed
 * definition gets a new Connection. Each launch gets a new Session, disposed when it ends.
 */
export class Connection extends Disposable {
  private readonly _onDidChange: Emitter<Connection>;
  /** State, tools or readiness changed. */
  readonly onDidChange: Event<Connection>;
  private readonly _onDidNotify: Emitter<RelayedMessage>;
  /** Notifications the agent gateway passes on, from whichever session is current. */
  readonly onDidNotify: Event<RelayedMessage>;

  private _state: ServerState = { kind: 'stopped' };
  /** The current launch; undefined while stopped, between restarts, and after it failed. */
  private session: Session | undefined;
  private wanted = false;
  private crashes = 0;
  private restartTimer: { dispose(): void } | undefined;
  /** The last non-empty stderr line of the current launch: what the give-up notice quotes. */
  private lastStderr: string | undefined;
  private stableTimer: { dispose(): void } | undefined;
  /** Aborted when this connection is stopped, restarted or torn down: calls in flight end without a retry. */
  private calls = new AbortController();
  /** Tools found to ask the other revision's way, and the calls under way (era/toolEras.ts). */
  readonly eras = new ToolEras();

  constructor(
    readonly definition: ServerDefinition,
    private readonly deps: ConnectionDeps,
  ) {
    super();
    // A throwing listener must not stop the others, nor the state machine that fired it.
    const onListenerError = (err: unknown): void => deps.log.error('a listener failed', err);
    this._onDidChange = this._register(new Emitter<Connection>(onListenerError));
    this.onDidChange = this._onDidChange.event;
    this._onDidNotify = this._register(new Emitter<RelayedMessage>(onListenerError));
    this.onDidNotify = this._onDidNotify.event;
  }

  get name(): string {
    return this.definition.name;
  }
  get state(): ServerState {
    return this._state;
  }
  get tools(): readonly Tool[] {
    return this.session?.tools ?? [];
  }
  /** Running, and the first tools/list since it started has answered (or failed, or it has no tools). */
  get ready(): boolean {
    return this.isRunning && this.session?.toolsListed === true;
  }
  /** True while a session with the server is up and requests can be sent. */
  get isRunning(): boolean {
    return this._state.kind === 'running' && this.session !== undefined;
  }
  /** What the server declared when it connected; undefined until it runs. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.isRunning ? this.session?.serverCapabilities : undefined;
  }
  get serverInfo(): Implementation | undefined {
    return this.isRunning ? this.session?.serverInfo : undefined;
  }
  get instructions(): string | undefined {
    return this.isRunning ? this.session?.instructions : undefined;
  }
  /** The client extensions the running launch declared; undefined when it declared none or is not running. */
  get offeredExtensions(): ClientExtensions | undefined {
    return this.isRunning ? this.session?.offeredExtensions : undefined;
  }
  get pid(): number | undefined {
    return this._state.kind === 'running' ? this._state.pid : this.session?.pid;
  }

  private setState(s: ServerState): void {
    this._state = s;
    this.deps.log.info(describeState(s));
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
    this.restartTimer?.dispose();
    if (this._state.kind === 'running' || this._state.kind === 'starting') return;
    await this.connect(1);
  }

  async stop(): Promise<void> {
    this.wanted = false;
    this.clearTimers();
    await this.endSession();
    if (!this.isDisposed) this.setState({ kind: 'stopped' });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /**
   * One attempt: a Streamable HTTP `initialize` answered with a 4xx gets a second session over
   * legacy SSE. A session disposed meanwhile (stop, restart, dispose) means someone else owns
   * the state now, so this attempt leaves it alone.
   */
  private async connect(attempt: number): Promise<void> {
    this.setState({ kind: 'starting', attempt });
    let launch = await this.launchSignedIn(undefined);
    if (launch.failed && !launch.session?.isDisposed && !launch.superseded && shouldFallBackToSse(this.definition, launch.err)) {
      this.deps.log.info(`Streamable HTTP initialize failed (${errorText(launch.err)}); trying legacy SSE`);
      void this.endSession();
      launch = await this.launchSignedIn('sse');
    }
    if (launch.session?.isDisposed || (launch.failed && launch.superseded)) return;
    if (launch.failed && this.eras.next) {
      // The server no longer speaks what a tool of it needed (it changed between restarts):
      // nothing learned is kept, and the revision is chosen again at once.
      this.deps.log.info(
        `the server refused MCP ${revisionOf(this.eras.next.era)} (${errorText(launch.err)}); choosing the revision again`,
      );
      this.eras.forget();
      void this.endSession();
      await this.connect(attempt);
      return;
    }
    if (launch.failed) {
      void this.endSession();
      if (launch.final) this.giveUpAt(errorText(launch.err), launch.told === true);
      else this.onFailure(errorText(launch.err));
      return;
    }
    const session = launch.session;
    this.setState({
      kind: 'running',
      transport: session.kind,
      serverInfo: session.serverInfo,
      pid: session.pid,
      protocolVersion: session.protocolVersion,
      era: session.era,
    });
    this.stableTimer = this.timer(() => (this.crashes = 0), STABLE_AFTER_MS);
    // The view and readiness hear the first listing through onDidChangeTools. A 401 to it signs in
    // like a call's would: some servers let `initialize` through without a token.
    await session.refreshTools((request) => this.signedIn(request));
  }

  /** A launch that answers a 401 with sign-in (auth/signedInLaunch.ts). */
  private launchSignedIn(kind: TransportKind | undefined): Promise<Launch> {
    return launchSignedIn(
      {
        definition: this.definition,
        signIn: this.deps.signIn,
        log: this.deps.log,
        launch: (k, auth) => this.launch(k, auth),
        endSession: () => void this.endSession(),
        callSignal: () => this.calls.signal,
        gone: () => !this.wanted || this.isDisposed,
      },
      kind,
    );
  }

  /** A new session, connected; a transport that cannot even be made (a bad URL) fails like a connect. */
  private async launch(kind: TransportKind | undefined, auth: OAuthClientProvider | undefined): Promise<Launch> {
    let session: Session | undefined;
    try {
      session = this.beginSession(kind, auth);
      await session.connect(this.deps.connectTimeoutMs?.() ?? CONNECT_TIMEOUT_MS);
      return { failed: false, session };
    } catch (err) {
      return { failed: true, session, err };
    }
  }

  /** Makes the session of a new launch current; its events reach this connection until it is disposed. */
  private beginSession(kind: TransportKind | undefined, auth: OAuthClientProvider | undefined): Session {
    const make = this.deps.createTransport ?? createTransport;
    this.lastStderr = undefined;
    const stderr = (line: string): void => {
      // As VS Code logs a server's stderr: as warnings, in the server's own log.
      this.deps.log.warn(`[server stderr] ${line}`);
      if (line.trim()) this.lastStderr = line.trim();
    };
    const prepared = make(this.definition, { stderr, warn: (m) => this.deps.log.warn(m) }, kind, auth);
    const session = new Session(prepared, {
      name: this.name,
      clientInfo: this.deps.clientInfo,
      sink: this.deps.sink,
      sampler: this.deps.sampler,
      log: this.deps.log,
      protocolVersion: this.definition.protocolVersion,
      learnedEra: this.eras.next,
      roots: this.deps.roots,
      logLevel: this.deps.logLevel,
      extensions: this.deps.extensions?.(),
      ...(this.deps.legClock ? { legClock: this.deps.legClock } : {}),
    });
    // The session disposes its emitters with itself, so these listeners go with it.
    session.onDidChangeTools(() => this._onDidChange.fire(this));
    session.onDidNotify((n) => this._onDidNotify.fire(n));
    session.onDidEnd((end) => this.onSessionEnd(end));
    this.session = session;
    return session;
  }

  /**
   * Disposes the current session. `abortCalls` ends the calls waiting between legs too; a session
   * that closed on its own leaves them to fail with the SDK's own "connection closed".
   */
  private async endSession(abortCalls = true): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (abortCalls) this.abortCalls();
    if (!session) return;
    this.deps.sink.serverGone(this.name);
    await session.dispose();
  }

  private onSessionEnd(end: SessionEnd): void {
    if (end.kind === 'versionGone') {
      // Not a crash: a new session negotiates again.
      void this.restart();
      return;
    }
    void this.endSession(end.kind !== 'closed');
    if (!this.wanted || this.isDisposed) {
      this.setState({ kind: 'stopped' });
      return;
    }
    this.onFailure(end.reason);
  }

  private onFailure(reason: string): void {
    this.stableTimer?.dispose();
    this.deps.sink.serverGone(this.name);
    if (!this.wanted || this.isDisposed) return;
    this.crashes++;
    const delays = this.deps.restartDelaysMs ?? RESTART_DELAYS_MS;
    if (this.crashes > delays.length) {
      this.wanted = false;
      this.setState({ kind: 'error', reason, gaveUp: true });
      this.deps.onGaveUp({ server: this.name, reason, after: 'restarts', lastStderr: this.lastStderr });
      return;
    }
    const delay = delays[this.crashes - 1] ?? 16000;
    this.setState({ kind: 'error', reason: `${reason}; restarting in ${(delay / 1000).toFixed(delay < 1000 ? 1 : 0)} s`, gaveUp: false });
    this.restartTimer = this.timer(() => void this.connect(this.crashes + 1), delay);
  }

  /**
   * A failure no timer can fix (sign-in turned down or failed, or a server that requires a
   * sign-in this host cannot do): the user starts the server again. `told`: the user already
   * knows why; otherwise the same notice as a give-up after restarts says so.
   */
  private giveUpAt(reason: string, told: boolean): void {
    this.stableTimer?.dispose();
    this.deps.sink.serverGone(this.name);
    if (!this.wanted || this.isDisposed) return;
    this.wanted = false;
    this.setState({ kind: 'error', reason, gaveUp: true });
    if (!told) this.deps.onGaveUp({ server: this.name, reason, after: 'final', lastStderr: this.lastStderr });
  }

  private timer(fn: () => void, ms: number): { dispose(): void } {
    return (this.deps.setTimer ?? realTimer)(fn, ms);
  }

  private clearTimers(): void {
    this.restartTimer?.dispose();
    this.stableTimer?.dispose();
  }

  /** The era the running launch speaks; undefined when not running. */
  get era(): Era | undefined {
    const v = this.isRunning ? this.session?.protocolVersion : undefined;
    return v === undefined ? undefined : v >= MODERN_REVISION ? 'modern' : 'legacy';
  }

  /** Why this server's revision cannot follow a tool: it is pinned, or SSE carries 2025 only. */
  get eraFixed(): 'pinned' | 'sse' | undefined {
    if (this.definition.protocolVersion !== undefined && this.definition.protocolVersion !== 'auto') return 'pinned';
    return this._state.kind === 'running' && this._state.transport === 'sse' ? 'sse' : undefined;
  }

  /**
   * Reconnects speaking `era` for `tool`, which is learned for this server's lifetime. Resolves
   * true once a launch speaking it is ready; false when the server is pinned, or refused it
   * (then the revision was chosen again, see {@link connect}).
   */
  async useEra(era: Era, tool: string): Promise<boolean> {
    if (this.eraFixed) return false;
    this.eras.learn(tool, era);
    if (this.era === era) return true;
    this.deps.log.info(`reconnecting with MCP ${revisionOf(era)}: tool ${tool} asks its questions that revision's way`);
    await this.restart();
    return this.ready && this.era === era;
  }

  /** Asks the user whether to reconnect for `tool` and run it again (ui/eraOffer.ts); no port, no switch. */
  askEraSwitch(tool: string, needs: Era, signal: AbortSignal | undefined): Promise<boolean> {
    const port = this.deps.eraSwitch;
    if (!port) return Promise.resolve(false);
    return port.ask({ server: this.name, tool, needs, others: this.eras.others }, signal);
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

  /** This server's roots, for a `roots/list` input request of a 2026-07-28 round. */
  listRoots(): ListRootsResult {
    return answerRoots(this.deps.roots ?? NO_ROOTS, this.name);
  }

  /** Where this server's samples go: pushed ones through the session, 2026-07-28 rounds through the call. */
  get sampler(): SamplingSink {
    return this.deps.sampler;
  }

  /** Sends one leg of a call through the current session (see {@link Session.sendLeg}). */
  async sendLeg(method: MrtrMethod, params: Readonly<Record<string, unknown>>, leg: LegOptions, label: string): Promise<unknown> {
    return this.signedIn(() => this.live().sendLeg(method, params, leg, label));
  }

  /** The tasks extension's requests through the current session, for a call answered with a task (mrtr/taskFollow.ts). */
  get taskRequests(): TaskRequests {
    return {
      get: (taskId, signal) => this.live().taskRequest('tasks/get', { taskId }, signal),
      update: (taskId, inputResponses, signal) => this.live().taskRequest('tasks/update', { taskId, inputResponses }, signal),
      cancel: (taskId) => this.live().taskRequest('tasks/cancel', { taskId }, undefined),
    };
  }

  /** Sends one request as given, for the agent gateway's lookups (see {@link Session.relay}). */
  async relay(request: RelayedMessage, leg: LegOptions): Promise<Record<string, unknown>> {
    return this.signedIn(() => this.live().relay(request, leg));
  }

  /**
   * A request the server refused mid-session for want of sign-in: its token was revoked and could
   * not be refreshed, or the call needs a scope the token lacks (step-up, 403 insufficient_scope).
   * The SDK built the authorization request; the user is asked, and the request is sent once more.
   */
  private async signedIn<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      const def = this.definition;
      if (def.type === 'stdio' || !this.deps.signIn || !isAuthChallenge(err)) throw err;
      this.deps.log.info(`a request needs sign-in (${errorText(err)})`);
      await this.deps.signIn.signIn(def, this.calls.signal);
      return send();
    }
  }

  private live(): Session {
    const session = this.session;
    if (!session || this._state.kind !== 'running') {
      throw new ProtocolError(-32000, serverSentence({ key: 'notRunning', server: this.name }, this.deps.l10n ?? english));
    }
    return session;
  }

  override dispose(): void {
    this.wanted = false;
    this.clearTimers();
    void this.endSession();
    super.dispose();
  }

  /** Async dispose for deactivate: waits until the child process is gone. */
  async shutdown(): Promise<void> {
    this.wanted = false;
    this.clearTimers();
    await this.endSession();
    super.dispose();
  }
}
