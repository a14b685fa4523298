import * as vscode from 'vscode';
import * as path from 'node:path';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import type { ServerManager } from './serverManager';

/** Changes closer together than this restart the server once, after the last one (a save-all, a build). */
export const DEV_WATCH_SETTLE_MS = 500;
/** A burst this large in one settle window is a glob matching far more than sources: warn once. */
const BURST_WARNING = 1000;

/**
 * `dev.watch`: restarts a running server when a file matching one of its globs changes, as VS
 * Code does for the servers it runs. Globs are relative to the definition's folder. A glob that
 * matches a huge tree costs only events, never a scan; a burst of them restarts once.
 */
export class DevWatch extends Disposable {
  private readonly watches = new Map<string, { key: string; dispose(): void }>();

  constructor(
    private readonly manager: ServerManager,
    private readonly log: Logger,
    private readonly settleMs = DEV_WATCH_SETTLE_MS,
  ) {
    super();
    this._register(manager.onDidChange(() => this.reconcile()));
    this._register({ dispose: () => this.clear() });
    this.reconcile();
  }

  private clear(): void {
    for (const w of this.watches.values()) w.dispose();
    this.watches.clear();
  }

  private reconcile(): void {
    const wanted = new Map<string, { globs: readonly string[]; base: string }>();
    for (const e of this.manager.list()) {
      const def = e.resolved?.def;
      if (!def?.devWatch?.length || !e.connection) continue;
      const base =
        def.source.kind === 'workspaceFile'
          ? def.source.folder
          : def.type === 'stdio' && def.launchFolder
            ? def.launchFolder
            : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      if (base) wanted.set(e.name, { globs: def.devWatch, base });
    }
    for (const [name, w] of this.watches) {
      const want = wanted.get(name);
      if (!want || w.key !== keyOf(want)) {
        w.dispose();
        this.watches.delete(name);
      }
    }
    for (const [name, want] of wanted) if (!this.watches.has(name)) this.watches.set(name, this.watch(name, want));
  }

  private watch(name: string, want: { globs: readonly string[]; base: string }): { key: string; dispose(): void } {
    const disposables: vscode.Disposable[] = [];
    let timer: NodeJS.Timeout | undefined;
    let burst = 0;
    let warned = false;
    const changed = (uri: vscode.Uri): void => {
      burst++;
      if (burst === BURST_WARNING && !warned) {
        warned = true;
        this.log.warn(
          `[${name}] dev.watch (${want.globs.join(', ')}) matched ${BURST_WARNING}+ changes at once; the server restarts once per burst. Narrow the glob to the server's sources.`,
        );
      }
      clearTimeout(timer);
      timer = setTimeout(() => {
        const count = burst;
        burst = 0;
        const conn = this.manager.get(name);
        if (!conn || conn.state.kind !== 'running') return;
        this.log.info(`[${name}] dev.watch: ${count === 1 ? path.relative(want.base, uri.fsPath) : `${count} files`} changed; restarting`);
        void this.manager.restart(name);
      }, this.settleMs);
    };
    for (const glob of want.globs) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(want.base), glob));
      disposables.push(w, w.onDidChange(changed), w.onDidCreate(changed), w.onDidDelete(changed));
    }
    return {
      key: keyOf(want),
      dispose: () => {
        clearTimeout(timer);
        for (const d of disposables) d.dispose();
      },
    };
  }
}

function keyOf(want: { globs: readonly string[]; base: string }): string {
  return JSON.stringify([want.base, want.globs]);
}
