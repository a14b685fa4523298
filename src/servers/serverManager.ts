import * as vscode from 'vscode';
import type { Implementation } from '@modelcontextprotocol/client';
import { fingerprint } from '../config/parse/serverFingerprint';
import type { ConfigError, ServerDefinition } from '../config/parse/definitions';
import type { ConfigLoader, ResolvedServer } from '../config/configLoader';
import type { ElicitationSink } from '../elicitation/broker';
import type { SamplingSink } from '../sampling/samplingBroker';
import { Disposable } from '../util/disposable';
import { Emitter, type EventDisposable } from '../util/emitter';
import type { Logger } from '../util/log';
import type { HostLogLevel, LogLevelSource } from './capabilities/logging';
import type { RootsSource } from './capabilities/roots';
import type { ClientExtensions } from './capabilities/agentExtensions';
import type { ServerLogs } from '../util/serverLogs';
import { Connection, type GaveUp, type SignInPort } from './connection';
import type { EraSwitchPort } from './connectionDeps';
import type { LegClock } from './legDeadline';
import { mayStart } from '../config/parse/trust';
import { displayText } from '../shared/displayText';
import * as safe from '../util/safeText';

export interface ServerEntry {
  readonly name: string;
  readonly connection: Connection | undefined;
  readonly resolved: ResolvedServer | undefined;
  /** Set when the definition could not be used; the view shows it. */
  readonly configError: ConfigError | undefined;
}

/**
 * Owns one Connection per configured server. `reconcile` compares definitions by fingerprint, so
 * an edit restarts only the servers whose definition changed.
 */
export class ServerManager extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<void>());
  /** Any server's state or tools changed, or servers were added or removed. */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidGiveUp = this._register(new Emitter<GaveUp>());
  /** A server stopped for good and nobody told the user why yet (ui/gaveUpNotice.ts tells them). */
  readonly onDidGiveUp = this._onDidGiveUp.event;
  private readonly connections = new Map<string, { conn: Connection; print: string; resolved: ResolvedServer; sub: EventDisposable }>();
  private broken: ReadonlyMap<string, ConfigError> = new Map();
  private _vscodeOwned: readonly ServerDefinition[] = [];
  private reloading: Promise<void> = Promise.resolve();

  constructor(
    private readonly loader: ConfigLoader,
    private readonly deps: {
      log: Logger;
      /** Each server's own log: its stderr and lifecycle (util/serverLogs.ts). */
      serverLogs: ServerLogs;
      clientInfo: Implementation;
      sink: ElicitationSink;
      /** The folders each server may see as roots. */
      roots: RootsSource;
      sampler: SamplingSink;
      /** Client extensions a server's launch declares on VS Code's agent's behalf (capabilities/agentExtensions.ts). */
      extensions?: (def: ServerDefinition) => ClientExtensions | undefined;
      autoStart: () => boolean;
      restartDelaysMs?: readonly number[];
      connectTimeoutMs?: () => number;
      legClock?: LegClock;
      /** Signs the user in to remote servers that answer 401 (servers/auth/signIn.ts). */
      signIn?: SignInPort;
      /** Offers to reconnect a server at the revision one of its tools needs (ui/eraOffer.ts). */
      eraSwitch?: EraSwitchPort;
    },
  ) {
    super();
    this._register(loader.onDidChange(() => void this.reload()));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reload()));
  }

  /** Re-reads configuration; serialised so overlapping edits apply in order. */
  reload(): Promise<void> {
    this.reloading = this.reloading
      .then(async () => {
        if (this.isDisposed) return;
        const cfg = await this.loader.load();
        this.broken = cfg.broken;
        this._vscodeOwned = cfg.vscodeOwned;
        await this.reconcile(cfg.servers);
      })
      .catch((e: unknown) => this.deps.log.error('reloading configuration failed', e));
    return this.reloading;
  }

  private async reconcile(servers: readonly ResolvedServer[]): Promise<void> {
    const wanted = new Map(servers.map((s) => [s.def.name, s]));
    const stops: Promise<void>[] = [];
    for (const [name, entry] of this.connections) {
      const next = wanted.get(name);
      if (
        !next ||
        fingerprint(next.def) !== entry.print ||
        next.workspaceDefined !== entry.resolved.workspaceDefined ||
        next.usesWorkspace !== entry.resolved.usesWorkspace
      ) {
        this.deps.serverLogs.for(name).info(next ? 'definition changed: restarting' : 'removed from configuration: stopping');
        this.connections.delete(name);
        entry.sub.dispose();
        stops.push(entry.conn.shutdown());
      }
    }
    await Promise.all(stops);
    const starts: Promise<void>[] = [];
    for (const [name, resolved] of wanted) {
      const existing = this.connections.get(name);
      if (existing) {
        // Trust was granted since: start what the gate held back.
        if (existing.conn.state.kind === 'untrusted' && mayStart(resolved, vscode.workspace.isTrusted) && this.deps.autoStart()) {
          starts.push(existing.conn.start());
        }
        continue;
      }
      const conn = new Connection(resolved.def, {
        ...(this.deps.signIn ? { signIn: this.deps.signIn } : {}),
        ...(this.deps.eraSwitch ? { eraSwitch: this.deps.eraSwitch } : {}),
        log: this.deps.serverLogs.for(name),
        clientInfo: this.deps.clientInfo,
        sink: this.deps.sink,
        roots: this.deps.roots,
        logLevel: logLevelOf(this.deps.serverLogs.for(name)),
        sampler: this.deps.sampler,
        extensions: () => this.deps.extensions?.(resolved.def),
        onGaveUp: (g) => this._onDidGiveUp.fire(g),
        l10n: vscode.l10n,
        ...(this.deps.restartDelaysMs ? { restartDelaysMs: this.deps.restartDelaysMs } : {}),
        ...(this.deps.connectTimeoutMs ? { connectTimeoutMs: this.deps.connectTimeoutMs } : {}),
        ...(this.deps.legClock ? { legClock: this.deps.legClock } : {}),
      });
      const sub = conn.onDidChange(() => this._onDidChange.fire());
      this.connections.set(name, { conn, print: fingerprint(resolved.def), resolved, sub });
      if (!mayStart(resolved, vscode.workspace.isTrusted)) conn.markUntrusted();
      else if (this.deps.autoStart()) starts.push(conn.start());
    }
    this._onDidChange.fire();
    await Promise.all(starts);
  }

  list(): ServerEntry[] {
    const out: ServerEntry[] = [...this.connections.values()].map(({ conn, resolved }) => ({
      name: conn.name,
      connection: conn,
      resolved,
      configError: undefined,
    }));
    for (const [name, err] of this.broken) {
      if (!this.connections.has(name)) out.push({ name, connection: undefined, resolved: undefined, configError: err });
    }
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Servers of `.vscode/mcp.json` that VS Code runs; we list them and never start them. */
  vscodeOwned(): readonly ServerDefinition[] {
    return this._vscodeOwned;
  }

  get(name: string): Connection | undefined {
    return this.connections.get(name)?.conn;
  }

  running(): Connection[] {
    return [...this.connections.values()].map((e) => e.conn).filter((c) => c.state.kind === 'running');
  }

  /** Starts one server, unless workspace trust holds it back; then says why and changes nothing. */
  async start(name: string): Promise<void> {
    const entry = this.connections.get(name);
    if (entry && this.trustAllows(entry)) await entry.conn.start();
  }

  async restart(name: string): Promise<void> {
    const entry = this.connections.get(name);
    if (entry && this.trustAllows(entry)) await entry.conn.restart();
  }

  async startAll(): Promise<void> {
    await Promise.all(
      [...this.connections.values()].filter((e) => mayStart(e.resolved, vscode.workspace.isTrusted)).map((e) => e.conn.start()),
    );
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.connections.values()].map((e) => e.conn.stop()));
  }

  async restartAll(): Promise<void> {
    await Promise.all(
      [...this.connections.values()].filter((e) => mayStart(e.resolved, vscode.workspace.isTrusted)).map((e) => e.conn.restart()),
    );
  }

  private trustAllows(entry: { readonly conn: Connection; readonly resolved: ResolvedServer }): boolean {
    if (mayStart(entry.resolved, vscode.workspace.isTrusted)) return true;
    const manage = vscode.l10n.t('Manage Workspace Trust');
    const name = displayText(entry.conn.name);
    const why = entry.resolved.workspaceDefined
      ? safe.l10n.t('“{0}” is defined by this workspace and starts only when you trust the workspace.', name)
      : entry.resolved.trustWait === 'envFile'
        ? safe.l10n.t(
            '“{0}” is your server, but its envFile is a file of this workspace, so it starts once you trust this workspace.',
            name,
          )
        : entry.resolved.trustWait === 'command'
          ? safe.l10n.t(
              '“{0}” is your server, but it runs a VS Code command when it starts (a command variable or a command input), which answers from this workspace, so it starts once you trust this workspace.',
              name,
            )
          : safe.l10n.t(
              '“{0}” is your server, but it uses files of this workspace when it starts (the workspace folder, a relative envFile or cwd), so it starts only when you trust the workspace.',
              name,
            );
    void safe
      .showWarningMessage(why, manage)
      .then((choice) => choice === manage && vscode.commands.executeCommand('workbench.trust.manage'));
    return false;
  }

  /** Deactivation, first step: end every call in flight, so none sends another round. */
  abortCalls(): void {
    for (const e of this.connections.values()) e.conn.abortCalls();
  }

  /** Deactivation: close every connection and wait until stdio children are gone. */
  async shutdown(): Promise<void> {
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(
      all.map(async (e) => {
        e.sub.dispose();
        await e.conn.shutdown();
      }),
    );
  }

  override dispose(): void {
    for (const e of this.connections.values()) {
      e.sub.dispose();
      e.conn.dispose();
    }
    this.connections.clear();
    super.dispose();
  }
}

/**
 * A server's log level follows the level the user set for its own log ("Developer: Set Log
 * Level" on its channel), as VS Code's does; `vscode.LogLevel` is the enum HostLogLevel names by value.
 */
function logLevelOf(log: Logger): LogLevelSource {
  return {
    get logLevel(): HostLogLevel {
      return log.logLevel;
    },
    onDidChangeLogLevel: (listener) => log.onDidChangeLogLevel((l) => listener(l)),
  };
}
