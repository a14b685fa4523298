import * as vscode from 'vscode';
import { canGiveBackFrom } from '../config/parse/serverMove';
import type { ServerDefinition } from '../config/parse/definitions';
import { routeOf } from '../gateway/routes';
import type { ServerManager } from '../servers/serverManager';
import { Disposable } from '../util/disposable';

/**
 * The context keys that show a command only where it can act; package.json's `when` clauses read
 * them (menus and the command palette). Workspace trust is VS Code's own `isWorkspaceTrusted`
 * there: Route and Give Back write workspace settings, which an untrusted workspace ignores.
 */
export const CONTEXT_KEYS = {
  /** Servers of ours exist: Start/Stop/Restart (All). */
  hasServers: 'mcpElicitation.hasServers',
  /** Run Tool has a server to call. */
  canRunTool: 'mcpElicitation.canRunTool',
  /** A server VS Code runs can be routed through us (gateway/routes.ts). */
  canRoute: 'mcpElicitation.canRoute',
  /** A routed server, or one of our workspace setting (an older Route's), can go back to VS Code. */
  canGiveBack: 'mcpElicitation.canGiveBack',
} as const;

type Key = (typeof CONTEXT_KEYS)[keyof typeof CONTEXT_KEYS];

/** Keeps the keys in step with the servers; sets a key only when its value changes. */
export class CommandContext extends Disposable {
  private readonly values = new Map<Key, boolean>();

  constructor(
    private readonly manager: ServerManager,
    private readonly routed: (def: ServerDefinition) => boolean,
  ) {
    super();
    this._register(manager.onDidChange(() => this.update()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.update()));
    this.update();
  }

  private update(): void {
    const entries = this.manager.list();
    const hasServers = entries.some((e) => e.connection !== undefined);
    const localFolder = (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === 'file');
    this.set(CONTEXT_KEYS.hasServers, hasServers);
    // Run Tool calls our servers; VS Code's are Route's (the welcome content offers that step).
    this.set(CONTEXT_KEYS.canRunTool, hasServers);
    this.set(
      CONTEXT_KEYS.canRoute,
      this.manager.vscodeOwned().some((d) => routeOf(d) !== undefined),
    );
    this.set(
      CONTEXT_KEYS.canGiveBack,
      entries.some(
        (e) => e.resolved !== undefined && (this.routed(e.resolved.def) || (localFolder && canGiveBackFrom(e.resolved.def.source))),
      ),
    );
  }

  /** The value last given to VS Code for `key`. */
  get(key: Key): boolean | undefined {
    return this.values.get(key);
  }

  private set(key: Key, value: boolean): void {
    if (this.values.get(key) === value) return;
    this.values.set(key, value);
    void vscode.commands.executeCommand('setContext', key, value);
  }
}
