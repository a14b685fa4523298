/**
 * The roots each server may see, over `vscode.workspace`: the folders of a trusted workspace,
 * narrowed per server by `mcpElicitation.serverRoots`. The rule itself is pure
 * (servers/capabilities/roots.ts); this only reads the workspace and says when it changed.
 */
import * as vscode from 'vscode';
import { narrowRoots, type Root, type RootsSource } from './capabilities/roots';
import { Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';
import { onDidChangeSettings, type Settings } from '../config/settings';

export class WorkspaceRoots extends Disposable implements RootsSource {
  private readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;

  /** Kept from the settings event itself, so a change is seen before anyone else's listener runs. */
  private narrowing: Settings['serverRoots'];

  constructor(settings: Settings) {
    super();
    this.narrowing = settings.serverRoots;
    this._register({ dispose: () => this.changed.dispose() });
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire()));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()));
    this._register(
      onDidChangeSettings((s, e) => {
        this.narrowing = s.serverRoots;
        if (e.affectsConfiguration('mcpElicitation.serverRoots')) this.changed.fire();
      }),
    );
  }

  rootsFor(server: string): readonly Root[] {
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
      uri: f.uri.toString(),
      name: f.name,
      fsPath: f.uri.scheme === 'file' ? f.uri.fsPath : undefined,
    }));
    const narrowing = Object.prototype.hasOwnProperty.call(this.narrowing, server) ? this.narrowing[server] : undefined;
    return narrowRoots(folders, vscode.workspace.isTrusted, narrowing);
  }
}
