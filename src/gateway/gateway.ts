import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { Implementation } from '@modelcontextprotocol/client';
import type { ElicitationBroker } from '../elicitation/broker';
import type { ServerManager } from '../servers/serverManager';
import type { Connection } from '../servers/connection';
import { Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';
import type { Logger } from '../util/log';
import { BrokeredUpstream } from './brokeredUpstream';
import type * as EndpointModule from './endpoint';
import { offeredThroughGateway, vscodeReads } from './ownership';
import { sameExtensions, type AgentExtensions } from '../servers/capabilities/agentExtensions';
import { writtenName } from './routes';
import type { ServerDefinition } from '../config/parse/definitions';
import { RELAYED_NOTIFICATIONS } from './upstream';

type GatewayEndpoint = EndpointModule.GatewayEndpoint;

let endpointModule: typeof EndpointModule | undefined;
/**
 * The gateway's server side (the MCP SDK's server and its HTTP transport) lives in `dist/gateway.js`
 * (scripts/build.mjs): it is loaded when the first server is offered to the agent, so activation
 * does not parse it and `dist/extension.js` stays within its size budget.
 */
function endpoints(): typeof EndpointModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; see scripts/build.mjs
  endpointModule ??= require('./endpoint') as typeof EndpointModule;
  return endpointModule;
}

/** What the Servers view says about the agent's way to a server. */
export type AgentReach =
  | { readonly kind: 'offered'; readonly door: string; readonly sessions: number }
  | { readonly kind: 'agentOff' }
  /** A server of a file VS Code reads, which `chat.mcp.access: "registry"` keeps VS Code from running: we run it, unoffered. */
  | { readonly kind: 'registryOnly' }
  | { readonly kind: 'notOffered' };

export interface GatewayDeps {
  readonly manager: ServerManager;
  readonly broker: ElicitationBroker;
  readonly log: Logger;
  readonly self: Implementation;
  /** Whether VS Code's chat can use MCP servers at all (its AI features are on). */
  readonly agentOn: () => boolean;
  /** Whether VS Code's chat runs the servers of the files it reads (not with `chat.mcp.access: "registry"`). */
  readonly agentRunsFiles: () => boolean;
  readonly startTimeoutMs: () => number;
  /** What the agent declares that our client offers upstream on its behalf (MCP Apps). */
  readonly agentExtensions: AgentExtensions;
  /** Servers the user routed through us from a file VS Code reads (routes.ts). */
  readonly routed: (def: ServerDefinition) => boolean;
  /** How VS Code reaches the endpoints: through a relay process and the socket door, or over HTTP. */
  readonly agentTransport: () => 'stdio' | 'http';
}

interface Binding {
  readonly endpoint: GatewayEndpoint;
  conn: Connection | undefined;
  subs: vscode.Disposable[];
  wasRunning: boolean;
}

/**
 * Keeps one endpoint per server we broker, opened when the server appears in our configuration
 * and closed when it leaves it (or on deactivate). Endpoints follow the server's connection
 * through restarts and definition changes, and pass its notifications on.
 */
export class Gateway extends Disposable {
  /** Made at activation; VS Code gets it through the server definitions, nobody else has it. */
  readonly secret = randomBytes(32).toString('base64url');
  private readonly _onDidChangeDefinitions = this._register(new Emitter<void>());
  readonly onDidChangeDefinitions = this._onDidChangeDefinitions.event;
  private readonly _onDidChangeSessions = this._register(new Emitter<void>());
  readonly onDidChangeSessions = this._onDidChangeSessions.event;
  private readonly bindings = new Map<string, Binding>();
  private readonly upstreams = new WeakMap<Connection, BrokeredUpstream>();
  private syncing: Promise<void> = Promise.resolve();
  private shutDown = false;
  /** The private directory of the endpoints' sockets (socketDir.ts), made with the first one. */
  private socketHome: EndpointModule.SocketHome | undefined;

  constructor(private readonly deps: GatewayDeps) {
    super();
    this._register(deps.manager.onDidChange(() => void this.sync()));
  }

  /**
   * Servers the agent can reach, by name, with the label VS Code lists them by and their endpoint
   * URL. A routed server keeps the label of VS Code's own copy, so that VS Code's collision rule
   * runs one of the two (routes.ts); any other is labelled with its name.
   */
  definitions(): { readonly name: string; readonly label: string; readonly url: string; readonly socket: string | undefined }[] {
    if (!this.deps.agentOn()) return [];
    return [...this.bindings]
      .map(([name, b]) => ({ name, label: this.labelOf(name), url: b.endpoint.url, socket: b.endpoint.socketPath }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  private labelOf(name: string): string {
    const def = this.deps.manager.list().find((e) => e.name === name)?.resolved?.def;
    return def && this.deps.routed(def) ? writtenName(def) : name;
  }

  agentTransport(): 'stdio' | 'http' {
    return this.deps.agentTransport();
  }

  has(name: string): boolean {
    return this.bindings.has(name);
  }

  reach(name: string): AgentReach {
    if (!this.deps.agentOn()) return this.offerable().has(name) ? { kind: 'agentOff' } : { kind: 'notOffered' };
    const b = this.bindings.get(name);
    if (!b) {
      const def = this.deps.manager.list().find((e) => e.name === name)?.resolved?.def;
      return def && !this.deps.agentRunsFiles() && vscodeReads(def.source, vscode.version)
        ? { kind: 'registryOnly' }
        : { kind: 'notOffered' };
    }
    const door = this.agentTransport() === 'stdio' ? b.endpoint.socketPath : undefined;
    return { kind: 'offered', door: door ?? b.endpoint.url, sessions: b.endpoint.sessionCount };
  }

  /** The agent setting changed: endpoints open or close with it, and the list VS Code sees follows. */
  agentSettingChanged(): void {
    void this.sync().then(() => this._onDidChangeDefinitions.fire());
  }

  /** Servers of our setting that VS Code's agent may reach, with their connection of the moment. */
  private offerable(): Map<string, Connection> {
    const out = new Map<string, Connection>();
    for (const e of this.deps.manager.list()) {
      const def = e.resolved?.def;
      if (
        e.connection &&
        def &&
        offeredThroughGateway(def.source, vscode.version, this.deps.routed(def), this.deps.agentRunsFiles()) &&
        e.connection.state.kind !== 'untrusted'
      ) {
        out.set(e.name, e.connection);
      }
    }
    return out;
  }

  /** Serialised: endpoints open and close in the order configuration changed. */
  sync(): Promise<void> {
    this.syncing = this.syncing
      .then(() => this.reconcile())
      .catch((e: unknown) => this.deps.log.error('gateway: updating endpoints failed', e));
    return this.syncing;
  }

  private async reconcile(): Promise<void> {
    if (this.shutDown) return;
    // With VS Code's AI features off nobody would call: no port is opened, and the server side is
    // not even loaded.
    const wanted = this.deps.agentOn() ? this.offerable() : new Map<string, Connection>();
    let changed = false;
    for (const [name, b] of this.bindings) {
      if (wanted.has(name)) continue;
      this.bindings.delete(name);
      this.unbind(b);
      await b.endpoint.close();
      this.deps.log.info(`[${name}] gateway closed`);
      changed = true;
    }
    for (const [name, conn] of wanted) {
      let b = this.bindings.get(name);
      if (!b) {
        this.socketHome ??= new (endpoints().SocketHome)({ info: (m) => this.deps.log.info(m), warn: (m) => this.deps.log.warn(m) });
        // Checked before every listen; a directory that is no longer ours is replaced (socketDir.ts).
        const socketPath = await this.socketHome.nextPath();
        const endpoint = await endpoints().GatewayEndpoint.open({
          socketPath,
          name,
          secret: this.secret,
          upstream: () => this.upstreamOf(name),
          self: this.deps.self,
          log: this.deps.log,
          startTimeoutMs: this.deps.startTimeoutMs(),
          onDidChangeSessions: () => this._onDidChangeSessions.fire(),
          agentConnecting: (caps) => this.agentConnecting(name, caps),
        });
        if (this.shutDown) {
          await endpoint.close();
          return;
        }
        b = { endpoint, conn: undefined, subs: [], wasRunning: false };
        this.bindings.set(name, b);
        const doors = endpoint.socketPath ? `${endpoint.socketPath} and ${endpoint.url}` : endpoint.url;
        this.deps.log.info(`[${name}] gateway for the agent at ${doors}`);
        changed = true;
      }
      if (b.conn !== conn) this.bind(b, conn);
    }
    if (changed) this._onDidChangeDefinitions.fire();
  }

  /**
   * An agent session is opening: remember what it declares, and restart a running server that
   * was offered something else, so the server shows the agent what it would show VS Code (its app
   * tools). Once remembered, later launches offer it from the start and this restarts nothing.
   */
  private async agentConnecting(name: string, capabilities: unknown): Promise<void> {
    this.deps.agentExtensions.learn(capabilities);
    const conn = this.deps.manager.get(name);
    const wanted = this.deps.agentExtensions.current;
    if (!conn?.isRunning || sameExtensions(conn.offeredExtensions, wanted)) return;
    this.deps.log.info(
      `[${name}] restarting: VS Code's agent declares client extensions [${Object.keys(wanted ?? {}).join(', ')}], the server was offered [${Object.keys(conn.offeredExtensions ?? {}).join(', ')}]`,
    );
    await this.deps.manager.restart(name);
  }

  /** The server's connection of the moment (it changes on restarts and edits), seen through the broker. */
  private upstreamOf(name: string): BrokeredUpstream | undefined {
    const conn = this.deps.manager.get(name);
    if (!conn) return undefined;
    let up = this.upstreams.get(conn);
    if (!up) {
      up = new BrokeredUpstream(conn, this.deps.broker, (m) => this.deps.log.info(m), vscode.l10n);
      this.upstreams.set(conn, up);
    }
    return up;
  }

  private bind(b: Binding, conn: Connection): void {
    this.unbind(b);
    b.conn = conn;
    b.wasRunning = conn.isRunning;
    b.subs = [
      conn.onDidNotify((n) => {
        if (RELAYED_NOTIFICATIONS.has(n.method)) b.endpoint.notify(n);
      }),
      conn.onDidChange(() => {
        // A restarted server may offer other tools, prompts and resources than the one before.
        const running = conn.isRunning;
        if (running && !b.wasRunning) {
          for (const method of [
            'notifications/tools/list_changed',
            'notifications/prompts/list_changed',
            'notifications/resources/list_changed',
          ]) {
            b.endpoint.notify({ method });
          }
        }
        b.wasRunning = running;
      }),
    ];
  }

  private unbind(b: Binding): void {
    for (const s of b.subs) s.dispose();
    b.subs = [];
    b.conn = undefined;
  }

  /** Deactivation: every endpoint stops listening and every agent session ends. */
  async shutdown(): Promise<void> {
    this.shutDown = true;
    await this.syncing;
    const all = [...this.bindings.values()];
    this.bindings.clear();
    await Promise.all(
      all.map(async (b) => {
        this.unbind(b);
        await b.endpoint.close();
      }),
    );
    await this.socketHome?.close();
    this.socketHome = undefined;
  }

  override dispose(): void {
    void this.shutdown();
    super.dispose();
  }
}
