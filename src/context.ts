import { vscodeEraOffer } from './ui/eraOffer';
import type { EraSwitchPort } from './servers/connectionDeps';
import * as vscode from 'vscode';
import { ConfigLoader } from './config/configLoader';
import { EXTENSION_NAME_PREFIX } from './config/parse/definitions';
import { destination } from './config/parse/serverFingerprint';
import { WorkspaceRoots } from './servers/workspaceRoots';
import { onDidChangeSettings, readSettings, userSamplingSkipReview, type Settings } from './config/settings';
import { ElicitationBroker, type ElicitationSink } from './elicitation/broker';
import type { Presenter } from './elicitation/presenter';
import { Gatekeeper } from './elicitation/policy/policy';
import { RateLimiter } from './elicitation/policy/tokenBucket';
import { ServerManager } from './servers/serverManager';
import { DevWatch } from './servers/devWatch';
import { CONNECT_TIMEOUT_MS } from './servers/connectionDeps';
import { realTimer, type SetTimer } from './servers/legDeadline';
import { AuditLog } from './audit/auditLog';
import { PolicyActions } from './ui/policyActions';
import { VscodePresenter } from './ui/vscodePresenter';
import { ServersView } from './ui/serversView';
import { CommandContext } from './ui/commandContext';
import { bindPendingBadge, PendingTreeView } from './ui/pendingView';
import { RememberedTreeView } from './ui/rememberedView';
import { AnswerMemory } from './elicitation/memory/answerMemory';
import { StatusBar } from './ui/statusBar';
import { ResultDocuments } from './ui/resultDocuments';
import { PendingActions } from './ui/pendingActions';
import { analyseUrl } from './elicitation/safety/urlAnalysis';
import { PublicApi } from './api/api';
import { SamplingBroker } from './sampling/samplingBroker';
import { showModelFailure, VscodeModels, workspaceModelMemory } from './ui/languageModels';
import { samplingWording } from './ui/wording/samplingText';
import { Gateway } from './gateway/gateway';
import { registerGatewayProvider } from './gateway/definitionProvider';
import { RouteStore } from './gateway/routeStore';
import { RoutingOffer, vscodeOfferPrompt, type OfferPrompt } from './ui/routingOffer';
import { GaveUpNotices, vscodeGaveUpPrompt, type GaveUpPrompt } from './ui/gaveUpNotice';
import { agentOn, agentRunsFiles, currentMcpJsonOwner, gatewayTransport, onDidChangeAgentSettings } from './gateway/agentSettings';
import { offeredThroughGateway } from './gateway/ownership';
import { AgentExtensions, knownAgentExtensions } from './servers/capabilities/agentExtensions';
import { Disposable } from './util/disposable';
import { AuthStore } from './servers/auth/authStore';
import { SecretCache } from './servers/auth/secretCache';
import { LazySignIn } from './servers/auth/lazySignIn';
import { httpTransports } from './servers/transports';
import { isLoopback } from './servers/loopbackFetch';
import { askerFor } from './elicitation/asker';
import { Logger } from './util/log';
import { ServerLogs } from './util/serverLogs';
import { routeSdkConsole } from './util/sdkConsole';
import { displayText } from './elicitation/safety/displayText';
import * as safe from './util/safeText';
import { STRAY_ACCEPT_MS } from './ui/quickInput/strayAccept';

/** How often to send keep-alive progress while the user answers (the broker's default is the same). */
const KEEP_ALIVE_MS = 15_000;
/** Global state: the client extensions VS Code's agent last declared (servers/capabilities/agentExtensions.ts). */
const AGENT_EXTENSIONS_KEY = 'agentClientExtensions';

/**
 * What a caller may inject into the services. `activate()` passes nothing, so the extension runs
 * with its real timings and no observer; the in-host tests and the benchmark build the services
 * through their own entry (test/host/extension.ts) with shorter timings and observers.
 */
export interface ServicesOptions {
  /**
   * Keep-alive interval while the user answers, ms, read per request so a test can change it
   * while it runs; `undefined`: the extension's own.
   */
  readonly keepAliveMs?: () => number | undefined;
  /** How long a server may take to answer `initialize`, ms, read per start; `undefined`: the extension's own. */
  readonly connectTimeoutMs?: () => number | undefined;
  /** Waits before each restart of a crashed server (the last one given up on), ms. */
  readonly restartDelaysMs?: readonly number[];
  /** The wall clock of the rate limiter and the pending queue, ms since the epoch. */
  readonly now?: () => number;
  /**
   * Schedules the timeouts of requests to servers (default: `setTimeout`), which stand still while
   * a question the server raised is open; a test advances simulated time through it.
   */
  readonly legTimer?: SetTimer;
  /** How long the browser has to come back from a sign-in, ms, read per sign-in; `undefined`: the extension's own. */
  readonly signInTimeoutMs?: () => number | undefined;
  /** How long a question that opened by itself takes no accept, ms, read per question; `undefined`: the extension's own. */
  readonly strayAcceptMs?: () => number | undefined;
  /** Wraps what the broker shows and tells the user through (tests observe or answer for the user). */
  readonly presenter?: (real: Presenter) => Presenter;
  /** Wraps what the connections hand their server's requests and notices to. */
  readonly sink?: (real: ElicitationSink) => ElicitationSink;
  /** Wraps the offer to route VS Code's servers (tests answer its notification in the user's place). */
  readonly routingOffer?: (real: OfferPrompt) => OfferPrompt;
  /** Wraps the notice that a server was given up on (tests read it and answer it in the user's place). */
  readonly gaveUpPrompt?: (real: GaveUpPrompt) => GaveUpPrompt;
  /** Wraps the offer to reconnect a server at the revision a tool needs (tests answer it in the user's place). */
  readonly eraOffer?: (real: EraSwitchPort) => EraSwitchPort;
  readonly observers?: ServicesObservers;
}

/** Observations with no user-visible effect: what the extension did, as it did it. */
export interface ServicesObservers {
  /** A prompt was put on screen (`kind`: the widget), right after its show(); a picker with its rows. */
  promptShown?(kind: string, id: string, widget?: vscode.QuickInput, items?: readonly vscode.QuickPickItem[]): void;
  /** A form webview reported a Content Security Policy violation. */
  cspViolation?(server: string, directive: string): void;
  /** A URL went to the browser, after the user's consent. */
  openedExternal?(url: string): void;
  /** A line was written to a log channel (after redaction), with the channel's name. */
  logLine?(channel: string, level: string, text: string): void;
}

function policySettings(s: Settings): { serverPolicy: Record<string, unknown>; defaultPolicy: unknown; rateLimit: unknown } {
  return { serverPolicy: { ...s.serverPolicy }, defaultPolicy: s.defaultPolicy, rateLimit: s.rateLimit };
}

/**
 * The composition root: builds every service once, wires them, and owns their lifetime.
 * `extension.ts` only creates and disposes this.
 */
export class Services extends Disposable {
  readonly log: Logger;
  /** Each server's own log channel. */
  readonly serverLogs: ServerLogs;
  private settings: Settings = readSettings();
  readonly policyActions = new PolicyActions();
  /** Per-server token buckets; the Gatekeeper owns the decisions, tests read the limit in force. */
  readonly limiter: RateLimiter;
  readonly gatekeeper: Gatekeeper;
  readonly presenter: VscodePresenter;
  readonly broker: ElicitationBroker;
  /** Remembered answers: this session's in memory, this workspace's in `workspaceState` (issue 26 item 3). */
  readonly memory: AnswerMemory;
  /** Every server's `sampling/createMessage`: same policy, pending list and audit as the broker. */
  readonly sampler: SamplingBroker;
  readonly loader: ConfigLoader;
  readonly manager: ServerManager;
  readonly audit: AuditLog;
  readonly results = this._register(new ResultDocuments(() => this.presenter.promptOnScreen));
  readonly previewDiagnostics = this._register(vscode.languages.createDiagnosticCollection('mcpElicitation.preview'));
  readonly statusBar: StatusBar;
  /** The pending view's data: what waits, and the history. */
  readonly pendingTree: PendingTreeView;
  /** The Remembered Answers view's rows. */
  readonly rememberedTree: RememberedTreeView;
  readonly api: PublicApi;
  /** VS Code's agent reaches the servers we broker through this. */
  readonly gateway: Gateway;
  /** Servers this user routed through us in this workspace, where VS Code would run them (gateway/routes.ts). */
  readonly routes: RouteStore;
  readonly serversView: ServersView;
  /** Sign-in to remote servers (issue 25): credentials in SecretStorage, the flow behind the url consent. */
  readonly authStore: AuthStore;
  /** Loads the sign-in service (and opens nothing) on first use: see servers/auth/lazySignIn.ts. */
  readonly signIn: LazySignIn;
  /** What the `when` clauses of Route, Give Back and Run Tool read. */
  readonly commandContext: CommandContext;
  /** What picking an entry of the pending list does (Answer, Open Again). */
  readonly pending: PendingActions;
  /** Told what the extension shows and opens; nobody listens unless a test built these services. */
  readonly observers: ServicesObservers;

  constructor(
    readonly context: vscode.ExtensionContext,
    options: ServicesOptions = {},
  ) {
    super();
    const now = options.now ?? Date.now;
    const observers = (this.observers = options.observers ?? {});
    this.log = this._register(
      new Logger('MCP Elicitation', observers.logLine ? { observe: (c, l, t) => observers.logLine?.(c, l, t) } : {}),
    );
    // The MCP SDK's console lines (its sign-in and refresh warnings quote the authorization server)
    // come here, redacted, instead of the extension host's console (util/sdkConsole.ts).
    this._register(routeSdkConsole((level, text) => this.log[level](text)));
    this.serverLogs = this._register(new ServerLogs(this.log));
    const connectTimeoutMs = (): number => options.connectTimeoutMs?.() ?? CONNECT_TIMEOUT_MS;
    this.limiter = new RateLimiter(this.settings.rateLimit, now);
    this.gatekeeper = new Gatekeeper(policySettings(this.settings), this.limiter);
    const pkg = context.extension.packageJSON as { name: string; version: string; displayName: string };
    const memory = (this.memory = this._register(
      new AnswerMemory(
        context.workspaceState,
        (reason) => {
          // Answers of the earlier version recorded no destination: dropped, asked again (issue 41).
          if (reason === 'noDestination') {
            this.log.info('remembered answers of an earlier version were dropped: they did not record where their server was');
            return;
          }
          // One warning; only the remembered answers are gone, nothing else in the workspace state.
          this.log.warn(`remembered answers discarded: the stored list was ${reason === 'corrupt' ? 'unreadable' : 'of another version'}`);
          void safe.showWarningMessage(
            safe.l10n.t('The remembered answers of this workspace could not be read and were discarded; questions will be asked again.'),
          );
        },
        (server) => this.destinationOf(server),
      ),
    ));
    this.presenter = new VscodePresenter({
      extensionUri: context.extensionUri,
      settings: () => this.settings,
      log: this.log,
      policy: this.policyActions,
      allowMore: (server) => this.gatekeeper.allowMore(server),
      policyFor: (server) => this.gatekeeper.policyFor(server),
      onCspViolation: (server, directive) => observers.cspViolation?.(server, directive),
      onDidShowPrompt: (kind, id, widget) => observers.promptShown?.(kind, id, widget),
      openExternal: (uri) => this.openExternal(uri),
      forgetAnswer: (fingerprint) => memory.forget(fingerprint),
      strayAcceptMs: () => options.strayAcceptMs?.() ?? STRAY_ACCEPT_MS,
    });
    const presenter = options.presenter?.(this.presenter) ?? this.presenter;
    this.broker = new ElicitationBroker({
      presenter,
      gate: (server, count) => this.gatekeeper.decide(server, count),
      settings: () => ({
        sensitiveFields: this.settings.sensitiveFields,
        allowHttpLoopback: this.settings.allowHttpLoopback,
        urlExpiryMs: this.settings.urlExpiryMinutes * 60_000,
      }),
      log: this.log,
      now,
      memory,
      get keepAliveMs() {
        return options.keepAliveMs?.() ?? KEEP_ALIVE_MS;
      },
    });
    this.sampler = new SamplingBroker({
      presenter,
      queue: this.broker.queue,
      gate: (server) => this.gatekeeper.decide(server),
      userSkipReview: userSamplingSkipReview,
      models: new VscodeModels(),
      memory: workspaceModelMemory(context.workspaceState, (server) => this.destinationOf(server)),
      wording: samplingWording(vscode.l10n),
      notifyModelFailure: showModelFailure,
      log: this.log,
      now,
    });
    this.audit = new AuditLog(context, () => this.settings, this.log);
    this._register(this.broker.queue.onDidFinish((f) => this.audit.write(f)));
    this.pending = this._register(
      new PendingActions({
        queue: this.broker.queue,
        presenter: this.presenter,
        policyActions: this.policyActions,
        allowHttpLoopback: () => this.settings.allowHttpLoopback,
        openExternal: (uri) => this.openExternal(uri),
      }),
    );
    const agentExtensions = new AgentExtensions(
      { get: () => context.globalState.get(AGENT_EXTENSIONS_KEY), set: (v) => context.globalState.update(AGENT_EXTENSIONS_KEY, v) },
      vscode.version,
      knownAgentExtensions(vscode.version),
    );
    const routes = (this.routes = this._register(new RouteStore(context.workspaceState)));
    const routed = (def: Parameters<RouteStore['isRouted']>[0]): boolean => routes.isRouted(def);
    this.loader = this._register(new ConfigLoader(context, this.log, currentMcpJsonOwner, routed));
    const authStore = (this.authStore = this._register(new AuthStore(this._register(new SecretCache(context.secrets)))));
    let signIns = 0;
    this.signIn = this._register(
      new LazySignIn({
        store: authStore,
        engine: httpTransports,
        consent: (req, signal) =>
          presenter.presentSignIn(
            {
              id: `signIn-${++signIns}`,
              asker: askerFor(req.server, this.manager.get(req.server)?.serverInfo),
              url: req.url,
              // An MCP server on this machine may have its authorization server here too (a local setup).
              analysis: analyseUrl(req.url, {
                allowHttpLoopback: this.settings.allowHttpLoopback || isLoopback(new URL(req.serverUrl)),
                loopbackBecause: this.settings.allowHttpLoopback ? 'setting' : 'localServer',
              }),
            },
            signal,
          ),
        failed: (server, reason) =>
          void safe.showErrorMessage(safe.l10n.t('Sign-in to “{0}” failed: {1}', displayText(server), displayText(reason))),
        logFor: (server) => this.serverLogs.for(server),
        addSecret: (value) => this.log.addSecret(value),
        redact: (text) => this.log.redact(text),
        timeoutMs: () => options.signInTimeoutMs?.(),
      }),
    );
    this.manager = this._register(
      new ServerManager(this.loader, {
        log: this.log,
        serverLogs: this.serverLogs,
        clientInfo: { name: pkg.name, title: pkg.displayName, version: pkg.version },
        sink: options.sink?.(this.broker) ?? this.broker,
        roots: this._register(new WorkspaceRoots(this.settings)),
        sampler: this.sampler,
        // Servers the agent reaches through the gateway are offered what the agent declares (MCP Apps).
        extensions: (def) =>
          agentOn() && offeredThroughGateway(def.source, vscode.version, routed(def), agentRunsFiles())
            ? agentExtensions.current
            : undefined,
        autoStart: () => this.settings.autoStart,
        ...(options.restartDelaysMs ? { restartDelaysMs: options.restartDelaysMs } : {}),
        connectTimeoutMs,
        // No leg of a call times out while a question it raised is open (servers/legDeadline.ts).
        legClock: { setTimer: options.legTimer ?? realTimer, questions: this.broker.queue },
        signIn: this.signIn,
        eraSwitch: options.eraOffer?.(vscodeEraOffer()) ?? vscodeEraOffer(),
      }),
    );
    const gaveUpPrompt = vscodeGaveUpPrompt();
    this._register(
      new GaveUpNotices({
        manager: this.manager,
        serverLogs: this.serverLogs,
        prompt: options.gaveUpPrompt?.(gaveUpPrompt) ?? gaveUpPrompt,
        now,
      }),
    );
    this._register(routes.onDidChange(() => void this.manager.reload()));
    this._register(new DevWatch(this.manager, this.log));
    this.gateway = this._register(
      new Gateway({
        manager: this.manager,
        broker: this.broker,
        log: this.log,
        self: { name: pkg.name, version: pkg.version },
        agentOn,
        agentRunsFiles,
        startTimeoutMs: connectTimeoutMs,
        agentExtensions,
        routed,
        agentTransport: gatewayTransport,
      }),
    );
    this._register(registerGatewayProvider(this.gateway, vscode.Uri.joinPath(context.extensionUri, 'dist', 'stdioRelay.js').fsPath));
    this._register(
      onDidChangeAgentSettings(() => {
        this.gateway.agentSettingChanged();
        void this.manager.reload();
      }),
    );
    const offerPrompt = vscodeOfferPrompt((qp) => observers.promptShown?.('routingOffer.choose', 'routingOffer', qp, qp.items));
    this._register(
      new RoutingOffer({
        manager: this.manager,
        state: context.workspaceState,
        prompt: options.routingOffer?.(offerPrompt) ?? offerPrompt,
        route: (names) => vscode.commands.executeCommand('mcpElicitation.routeServer', names),
        log: this.log,
      }),
    );
    this.commandContext = this._register(new CommandContext(this.manager, routed));
    const serversView = (this.serversView = this._register(
      new ServersView(this.manager, (s) => this.gatekeeper.policyFor(s), this.gateway, this.signIn, routed),
    ));
    this._register(vscode.window.createTreeView('mcpElicitation.servers', { treeDataProvider: serversView, showCollapseAll: true }));
    this.pendingTree = this._register(new PendingTreeView(this.broker.queue));
    const pendingView = this._register(vscode.window.createTreeView('mcpElicitation.pending', { treeDataProvider: this.pendingTree }));
    this._register(bindPendingBadge(pendingView, this.broker.queue));
    this.rememberedTree = this._register(new RememberedTreeView(memory));
    this._register(vscode.window.createTreeView('mcpElicitation.remembered', { treeDataProvider: this.rememberedTree }));
    this.statusBar = this._register(new StatusBar(this.manager, this.broker.queue));
    this.api = this._register(new PublicApi(this.broker, this.manager));
    this._register(
      onDidChangeSettings((s, e) => {
        this.settings = s;
        this.gatekeeper.update(policySettings(s));
        if (e.affectsConfiguration('mcpElicitation.serverPolicy') || e.affectsConfiguration('mcpElicitation.defaultPolicy')) {
          serversView.refresh();
          this.broker.declineQueuedFromBlocked((server) => this.gatekeeper.policyFor(server) === 'block');
          this.presenter.applyPolicy();
        }
      }),
    );
  }

  /** Takes ownership of registrations made against these services (the command table). */
  adopt(disposables: Iterable<vscode.Disposable>): void {
    for (const d of disposables) this._register(d);
  }

  /**
   * Called a turn after activation returns (boot.ts), so activation stays cheap: starts watching
   * the configuration, sets the command context keys, and starts the configured servers.
   */
  start(): void {
    this.loader.watch();
    this.commandContext.refresh();
    void this.manager.reload();
  }

  /**
   * Where the server of that name is now (issue 41): what remembered answers and the model choice
   * are tied to. An extension calling the API is where its id says; a name no server has, nowhere.
   */
  private destinationOf(name: string): string | undefined {
    if (name.startsWith(EXTENSION_NAME_PREFIX)) return name;
    const def = this.manager.get(name)?.definition;
    return def ? destination(def) : undefined;
  }

  /** The one way a URL reaches the browser: after a click in the consent dialog. */
  private openExternal(uri: vscode.Uri): Thenable<boolean> {
    this.observers.openedExternal?.(uri.toString(true));
    this.log.info(`opening ${uri.toString(true)} in the browser (user consented)`);
    return vscode.env.openExternal(uri).then((opened) => {
      if (!opened) {
        this.log.warn(`the browser did not open ${uri.toString(true)}: VS Code's link prompt was turned down, or no browser is available`);
      }
      return opened;
    });
  }

  /** Deactivation: answer `cancel` to everything open, then close every connection. */
  async shutdown(): Promise<void> {
    // Calls still asking (2026-07-28 rounds) end first, so the cancels below start no retry.
    this.manager.abortCalls();
    this.broker.queue.cancelAll();
    // Let the cancel responses reach the wire before the transports close.
    await new Promise((r) => setTimeout(r, 50));
    await this.gateway.shutdown();
    await this.manager.shutdown();
    await this.audit.flush();
    this.dispose();
  }
}
