import * as vscode from 'vscode';
import { canGiveBackFrom } from '../config/parse/serverMove';
import type { ServerDefinition } from '../config/parse/definitions';
import { routeOf } from '../gateway/routes';
import type { ServerManager } from '../servers/serverManager';
import { Disposable } from '../util/disposable';
import { currentMcpJsonOwner, onDidChangeAgentSettings } from '../gateway/agentSettings';

/**
 * The context keys that show a command only where it can act; package.json's `when` clauses read
 * them (menus and the command palette). Workspace trust is VS Code's own `isWorkspaceTrusted`
 * there: Route and Give Back write workspace settings, which an untrusted workspace ignores.
 */
export const CONTEXT_KEYS = {
  /** Servers of ours exist: Start/Stop/Restart (All). */
  hasServers: 'mcpElicitation.hasServers',
  /** Run Tool has a server to call: one of ours, or one VS Code runs that Route and Run can move here. */
  canRunTool: 'mcpElicitation.canRunTool',
  /** VS Code runs servers that this workspace or the user defined (the Servers view lists them as "run by VS Code"). */
  vscodeRunsServers: 'mcpElicitation.vscodeRunsServers',
  /**
   * Who runs the servers of the files VS Code reads (`.vscode/mcp.json`, `.mcp.json`, …):
   * `vscode` while its AI features are on and `mcpElicitation.workspaceMcpJson` leaves them to it,
   * else `extension`. The welcome content and the walkthrough say where a new server should go
   * from this; a string, so that nothing shows before the extension has set it.
   */
  mcpJsonRunBy: 'mcpElicitation.mcpJsonRunBy',
  /** A server VS Code runs can be routed through us (gateway/routes.ts). */
  canRoute: 'mcpElicitation.canRoute',
  /** A routed server, or one of our workspace setting (an older Route's), can go back to VS Code. */
  canGiveBack: 'mcpElicitation.canGiveBack',
} as const;

type Key = (typeof CONTEXT_KEYS)[keyof typeof CONTEXT_KEYS];

/** Keeps the keys in step with the servers; sets a key only when its value changes. */
export class CommandContext extends Disposable {
  private readonly values = new Map<Key, boolean | string>();

  constructor(
    private readonly manager: ServerManager,
    private readonly routed: (def: ServerDefinition) => boolean,
  ) {
    super();
    this._register(manager.onDidChange(() => this.update()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.update()));
    this._register(onDidChangeAgentSettings(() => this.update()));
  }

  /**
   * Sets every key from the servers as they are. Not called while activating: each key is a
   * `setContext` command sent to the window, and six of them took 3.5 to 6.5 ms of a 15 to 25 ms
   * activation (docs/performance.md). `Services.start()` calls it a turn later, before the first
   * load; before that no key is set, as before the extension activated.
   */
  refresh(): void {
    this.update();
  }

  private update(): void {
    const entries = this.manager.list();
    const hasServers = entries.some((e) => e.connection !== undefined);
    const localFolder = (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === 'file');
    this.set(CONTEXT_KEYS.hasServers, hasServers);
    const canRoute = this.manager.vscodeOwned().some((d) => routeOf(d) !== undefined);
    this.set(CONTEXT_KEYS.canRoute, canRoute);
    // Run Tool calls our servers, and routes one of VS Code's first ("Route and Run").
    this.set(CONTEXT_KEYS.canRunTool, hasServers || canRoute);
    this.set(CONTEXT_KEYS.vscodeRunsServers, this.manager.vscodeOwned().length > 0);
    this.set(CONTEXT_KEYS.mcpJsonRunBy, currentMcpJsonOwner() === 'vscode' ? 'vscode' : 'extension');
    this.set(
      CONTEXT_KEYS.canGiveBack,
      entries.some(
        (e) => e.resolved !== undefined && (this.routed(e.resolved.def) || (localFolder && canGiveBackFrom(e.resolved.def.source))),
      ),
    );
  }

  /** The value last given to VS Code for `key`. */
  get(key: Key): boolean | string | undefined {
    return this.values.get(key);
  }

  private set(key: Key, value: boolean | string): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
