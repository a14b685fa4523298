import type * as vscode from 'vscode';
import type { Connection } from './connection';
import type { ServerManager } from './serverManager';

export type Readiness = 'ready' | 'failed' | 'cancelled';

/**
 * Resolves once `conn` is running with its tools listed, or has failed to start (error, stopped,
 * untrusted, or removed from the configuration), or `token` is cancelled. A server still
 * `starting` keeps it waiting.
 */
export function whenReady(manager: ServerManager, conn: Connection, token: vscode.CancellationToken): Promise<Readiness> {
  return new Promise((resolve) => {
    const subs: vscode.Disposable[] = [];
    const done = (r: Readiness): true => {
      for (const d of subs) d.dispose();
      resolve(r);
      return true;
    };
    const check = (): boolean => {
      if (manager.get(conn.name) !== conn) return done('failed');
      if (conn.ready) return done('ready');
      if (conn.state.kind !== 'starting' && conn.state.kind !== 'running') return done('failed');
      return false;
    };
    if (check()) return;
    // The manager fires for every connection's change and for removals.
    subs.push(manager.onDidChange(() => void check()));
    subs.push(token.onCancellationRequested(() => done('cancelled')));
  });
}
