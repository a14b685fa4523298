import * as vscode from 'vscode';
import type { ServerManager } from '../servers/serverManager';
import type { ElicitationQueue } from '../elicitation/queue/elicitationQueue';
import { Disposable } from '../util/disposable';
import { coalesced } from '../util/coalesce';

/**
 * Two items: servers (running count, a warning colour when any is in error; opens the view) and
 * pending elicitations (only while non-zero; runs Show Pending).
 */
export class StatusBar extends Disposable {
  private readonly servers = this._register(
    vscode.window.createStatusBarItem('mcpElicitation.servers', vscode.StatusBarAlignment.Left, 50),
  );
  private readonly pending = this._register(
    vscode.window.createStatusBarItem('mcpElicitation.pending', vscode.StatusBarAlignment.Left, 49),
  );
  // The queue changes several times per prompt, and once per request when a burst arrives.
  private readonly queueChanged = this._register(coalesced(() => this.update()));

  constructor(
    private readonly manager: ServerManager,
    private readonly queue: ElicitationQueue,
  ) {
    super();
    this.servers.name = vscode.l10n.t('MCP Servers');
    this.servers.command = 'mcpElicitation.servers.focus';
    this.pending.name = vscode.l10n.t('MCP Pending Elicitations');
    this.pending.command = 'mcpElicitation.showPending';
    this._register(manager.onDidChange(() => this.update()));
    this._register(queue.onDidChange(this.queueChanged));
    this.update();
  }

  private update(): void {
    const all = this.manager.list();
    const running = all.filter((e) => e.connection?.state.kind === 'running').length;
    const failing = all.filter((e) => e.configError || e.connection?.state.kind === 'error').length;
    if (all.length === 0) {
      this.servers.hide();
    } else {
      this.servers.text = failing ? `$(warning) MCP ${running}/${all.length}` : `$(server-process) MCP ${running}/${all.length}`;
      this.servers.tooltip = vscode.l10n.t(
        '{0} of {1} MCP servers running{2}',
        running,
        all.length,
        failing ? vscode.l10n.t(', {0} failing', failing) : '',
      );
      this.servers.backgroundColor = failing ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
      this.servers.show();
    }
    const n = this.queue.size;
    if (n === 0) {
      this.pending.hide();
    } else {
      this.pending.text = `$(comment-discussion) ${n}`;
      this.pending.tooltip = vscode.l10n.t('{0} pending elicitation(s): click to list', n);
      this.pending.show();
    }
  }

  /** For tests: what the pending item shows now ('' when hidden). */
  get pendingText(): string {
    this.queueChanged.flush();
    return this.queue.size === 0 ? '' : this.pending.text;
  }
}
