import * as vscode from 'vscode';
import { ConfigLoader } from './config/configLoader';
import { onDidChangeSettings, readSettings, type Settings } from './config/settings';
import { ElicitationBroker } from './elicitation/broker';
import type { PendingView } from './elicitation/queue/elicitationQueue';
import { Gatekeeper } from './elicitation/policy/policy';
import { RateLimiter } from './elicitation/policy/tokenBucket';
import { ServerManager } from './servers/serverManager';
import { DevWatch } from './servers/devWatch';
import { CONNECT_TIMEOUT_MS } from './servers/connection';
import { AuditLog } from './audit/auditLog';
import { PolicyActions } from './ui/policyActions';
import { VscodePresenter } from './ui/vscodePresenter';
import { ServersView } from './ui/serversView';
import { bindPendingBadge, PendingTreeView } from './ui/pendingView';
import { StatusBar } from './ui/statusBar';
import { ResultDocuments } from './ui/resultDocuments';
import { showUrlConsent } from './ui/urlConsent';
import { revealActiveForm } from './ui/form/formPanel';
import { analyseUrl } from './elicitation/safety/url';
import { PublicApi } from './api/api';
import { Gateway } from './gateway/gateway';
import { registerGatewayProvider } from './gateway/definitionProvider';
import { agentOn, currentMcpJsonOwner, onDidChangeAgentSettings } from './gateway/agentSettings';
import { Disposable } from './util/disposable';
import { Logger } from './util/log';

/** How often to send keep-alive progress while the user answers (the broker's default is the same). */
function keepAliveMs(): number {
  // In-host tests cannot wait 15 s: they shorten the interval through the environment. Read per
  // request, because the extension activates before a test can set it.
  const forTests = process.env['MCP_TEST_REPO_ROOT'] ? Number(process.env['MCP_TEST_KEEPALIVE_MS']) : NaN;
  return forTests > 0 ? forTests : 15_000;
}

/** How long a server may take to answer `initialize`; in-host tests shorten it through the environment. */
function connectTimeoutMs(): number {
  const forTests = process.env['MCP_TEST_REPO_ROOT'] ? Number(process.env['MCP_TEST_CONNECT_TIMEOUT_MS']) : NaN;
  return forTests > 0 ? forTests : CONNECT_TIMEOUT_MS;
}

function policySettings(s: Settings): { serverPolicy: Record<string, unknown>; defaultPolicy: unknown; rateLimit: unknown } {
  return { serverPolicy: { ...s.serverPolicy }, defaultPolicy: s.defaultPolicy, rateLimit: s.rateLimit };
}

/** Observations for the in-host tests and the benchmark; not part of the public API. */
export class TestHooks {
  private readonly _onDidShowPrompt = new vscode.EventEmitter<{ kind: string; id: string; at: number; widget: vscode.QuickInput | undefined }>();
  readonly onDidShowPrompt = this._onDidShowPrompt.event;
  /** Every URL handed to openExternal, in order. */
  readonly opened: string[] = [];
  /** How long `new Services(context)` took in activate(), ms (the benchmark reads it). */
  activationMs: number | undefined = undefined;
  /** Every CSP violation a form webview reported (the hostile battery asserts there are none). */
  readonly cspViolations: { readonly server: string; readonly directive: string }[] = [];
  fire(kind: string, id: string, widget?: vscode.QuickInput): void {
    // The benchmark subtracts a bench server's send stamp from `at`: both are this clock, which
    // agrees across processes to well under a millisecond, where Date.now() cuts whole ones.
    this._onDidShowPrompt.fire({ kind, id, at: performance.timeOrigin + performance.now(), widget });
  }
  dispose(): void {
    this._onDidShowPrompt.dispose();
  }
}

/**
 * The composition root: builds every service once, wires them, and owns their lifetime.
 * `extension.ts` only creates and disposes this.
 */
export class Services extends Disposable {
  readonly log = this._register(new Logger('MCP Elicitation'));
  private settings: Settings = readSettings();
  readonly hooks = this._register(new TestHooks());
  readonly policyActions = new PolicyActions();
  /** Per-server token buckets; the Gatekeeper owns the decisions, tests read the limit in force. */
  readonly limiter = new RateLimiter(this.settings.rateLimit, Date.now);
  readonly gatekeeper = new Gatekeeper(policySettings(this.settings), this.limiter);
  readonly presenter: VscodePresenter;
  readonly broker: ElicitationBroker;
  readonly loader: ConfigLoader;
  readonly manager: ServerManager;
  readonly audit: AuditLog;
  readonly results = this._register(new ResultDocuments(() => this.presenter.promptOnScreen));
  readonly previewDiagnostics = this._register(vscode.languages.createDiagnosticCollection('mcpElicitation.preview'));
  readonly statusBar: StatusBar;
  /** The pending view's data: what waits, and the history. */
  readonly pendingTree: PendingTreeView;
  readonly api: PublicApi;
  /** VS Code's agent reaches the servers we broker through this. */
  readonly gateway: Gateway;
  readonly serversView: ServersView;
  private readonly urls = new Map<string, string>();

  constructor(readonly context: vscode.ExtensionContext) {
    super();
    const pkg = context.extension.packageJSON as { name: string; version: string; displayName: string };
    this.presenter = new VscodePresenter({
      extensionUri: context.extensionUri,
      settings: () => this.settings,
      log: this.log,
      policy: this.policyActions,
      allowMore: (server) => this.gatekeeper.allowMore(server),
      policyFor: (server) => this.gatekeeper.policyFor(server),
      onCspViolation: (server, directive) => this.hooks.cspViolations.push({ server, directive }),
      onDidShowPrompt: (kind, id, widget) => this.hooks.fire(kind, id, widget),
      openExternal: (uri) => this.openExternal(uri),
    });
    this.broker = new ElicitationBroker({
      presenter: this.presenter,
      gate: (server) => this.gatekeeper.decide(server),
      settings: () => ({ sensitiveFields: this.settings.sensitiveFields, allowHttpLoopback: this.settings.allowHttpLoopback, urlExpiryMs: this.settings.urlExpiryMinutes * 60_000 }),
      log: this.log,
      get keepAliveMs() {
        return keepAliveMs();
      },
    });
    this.audit = new AuditLog(context, () => this.settings, this.log);
    this._register(this.broker.queue.onDidFinish((f) => {
      // Kept only while the url elicitation awaits completion, for "Open Again".
      if (f.url && f.action === 'accept') this.urls.set(f.id, f.url);
      this.audit.write(f);
    }));
    this._register(this.broker.queue.onDidEndCompletion(({ entry, outcome }) => {
      this.urls.delete(entry.id);
      if (outcome === 'expired') {
        void vscode.window.showInformationMessage(vscode.l10n.t('{0}: the browser step was not confirmed in time and is no longer tracked.', entry.server));
      }
    }));
    this.loader = this._register(new ConfigLoader(context, this.log, currentMcpJsonOwner));
    this.manager = this._register(
      new ServerManager(this.loader, {
        log: this.log,
        clientInfo: { name: pkg.name, title: pkg.displayName, version: pkg.version },
        sink: this.broker,
        autoStart: () => this.settings.autoStart,
        // In-host tests exercise crash give-up without waiting the real 31 s of backoff.
        ...(process.env['MCP_TEST_REPO_ROOT'] ? { restartDelaysMs: [100, 100, 100, 100, 100] } : {}),
        connectTimeoutMs,
      }),
    );
    this._register(new DevWatch(this.manager, this.log));
    this.gateway = this._register(new Gateway({ manager: this.manager, broker: this.broker, log: this.log, self: { name: pkg.name, version: pkg.version }, agentOn, startTimeoutMs: connectTimeoutMs }));
    this._register(registerGatewayProvider(this.gateway));
    this._register(onDidChangeAgentSettings(() => {
      this.gateway.agentSettingChanged();
      void this.manager.reload();
    }));
    const serversView = (this.serversView = this._register(new ServersView(this.manager, (s) => this.gatekeeper.policyFor(s), this.gateway)));
    this._register(vscode.window.createTreeView('mcpElicitation.servers', { treeDataProvider: serversView, showCollapseAll: true }));
    this.pendingTree = this._register(new PendingTreeView(this.broker.queue));
    const pendingView = this._register(vscode.window.createTreeView('mcpElicitation.pending', { treeDataProvider: this.pendingTree }));
    this._register(bindPendingBadge(pendingView, this.broker.queue));
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

  /** Starts configured servers; called after activation returns so activation stays cheap. */
  start(): void {
    void this.manager.reload();
  }

  /** The one way a URL reaches the browser: after a click in the consent dialog. */
  private openExternal(uri: vscode.Uri): Thenable<boolean> {
    this.hooks.opened.push(uri.toString(true));
    this.log.info(`opening ${uri.toString(true)} in the browser (user consented)`);
    return vscode.env.openExternal(uri).then((opened) => {
      if (!opened) this.log.warn(`the browser did not open ${uri.toString(true)}: VS Code's link prompt was turned down, or no browser is available`);
      return opened;
    });
  }

  reveal(entry: PendingView): void {
    // Set aside, or waiting on the `ask` notification: picking it from the list is "Answer".
    if ((entry.state === 'aside' || entry.state === 'asking') && this.presenter.resume(entry.id)) return;
    if (entry.state === 'onScreen' && !revealActiveForm()) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The question from {0} is open at the top of the window.', entry.server));
    }
    if (entry.state === 'queued') {
      void vscode.window.showInformationMessage(vscode.l10n.t('This request is queued and will be shown after the ones before it.'));
    }
  }

  openAgain(entry: PendingView): void {
    const url = this.urls.get(entry.id);
    if (!url) return;
    void showUrlConsent(
      { id: entry.id, asker: { name: entry.server, info: undefined }, message: entry.message, url, analysis: analyseUrl(url, { allowHttpLoopback: this.settings.allowHttpLoopback }) },
      new AbortController().signal,
      { openExternal: (u) => this.openExternal(u), onBlockServer: () => void this.policyActions.blockServer(entry.server), answered: true },
    );
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
