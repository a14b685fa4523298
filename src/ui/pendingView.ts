import * as vscode from 'vscode';
import type { ElicitationQueue, PendingView as PendingEntryView } from '../elicitation/queue/elicitationQueue';
import type { CallRound, FinishedElicitation } from '../elicitation/outcome';
import { sanitiseForDisplay, MAX_LABEL_CHARS, MAX_MESSAGE_CHARS } from '../elicitation/safety/text';
import { Disposable, toDisposable } from '../util/disposable';
import { coalesced } from '../util/coalesce';
import { displayText } from '../elicitation/safety/displayText';
import { markdownTooltip } from '../util/safeText';

export type PendingNode =
  | { readonly kind: 'entry'; readonly entry: PendingEntryView }
  | { readonly kind: 'historyRoot' }
  | { readonly kind: 'history'; readonly item: FinishedElicitation }
  /** The finished rounds of one 2026-07-28 call, oldest first. */
  | { readonly kind: 'call'; readonly callId: string; readonly items: readonly FinishedElicitation[] };

/** Newest first; entries that share a call id go under one node for the call, placed where its newest is. */
export function historyNodes(newestFirst: readonly FinishedElicitation[]): PendingNode[] {
  const byCall = new Map<string, FinishedElicitation[]>();
  for (const item of newestFirst) {
    const id = item.round?.callId;
    if (id !== undefined) byCall.set(id, [item, ...(byCall.get(id) ?? [])]);
  }
  const out: PendingNode[] = [];
  for (const item of newestFirst) {
    const id = item.round?.callId;
    const items = id === undefined ? undefined : byCall.get(id);
    // A call that asked once needs no group of one.
    if (id === undefined || !items || items.length < 2) out.push({ kind: 'history', item });
    else if (items.at(-1) === item) out.push({ kind: 'call', callId: id, items });
  }
  return out;
}

export function stateLabel(state: PendingEntryView['state']): string {
  switch (state) {
    case 'asking':
      return vscode.l10n.t('asking whether to show');
    case 'aside':
      return vscode.l10n.t('set aside');
    case 'onScreen':
      return vscode.l10n.t('on screen');
    case 'queued':
      return vscode.l10n.t('queued');
    case 'awaitingCompletion':
      return vscode.l10n.t('awaiting completion');
  }
}

export function age(fromMs: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - fromMs) / 1000));
  if (s < 60) return vscode.l10n.t('{0} s', s);
  if (s < 3600) return vscode.l10n.t('{0} min', Math.floor(s / 60));
  return vscode.l10n.t('{0} h', Math.floor(s / 3600));
}

/** "form, round 2, name (1 of 2)" for an input request of a 2026-07-28 call; the names are server text. */
export function roundLabel(round: CallRound | undefined): string | undefined {
  if (!round) return undefined;
  const safe = (t: string): string => sanitiseForDisplay(t, MAX_LABEL_CHARS).text;
  return vscode.l10n.t('{0}, round {1}, {2} ({3} of {4})', safe(round.call), round.round, safe(round.key), round.index, round.total);
}

export function firstLine(text: string, max = 80): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const STATE_ICONS: Record<PendingEntryView['state'], string> = {
  asking: 'bell',
  queued: 'clock',
  onScreen: 'eye',
  aside: 'debug-pause',
  awaitingCompletion: 'link-external',
};

/**
 * The sidebar is usually too narrow to show a history row's description, so the icon says what
 * matters most: who ended it when it was not the user (the action follows from that), else how.
 */
function historyIcon(h: FinishedElicitation): string {
  switch (h.decidedBy) {
    case 'policy':
      return 'shield';
    case 'rateLimit':
      return 'dashboard';
    case 'disconnect':
      return 'debug-disconnect';
    case 'serverCancel':
    case 'callCancel':
      return 'discard';
    case 'timeout':
      return 'watch';
    case 'memory':
      return 'pinned';
    case 'user':
      return h.action === 'accept' ? 'check' : h.action === 'decline' ? 'circle-slash' : 'close';
  }
}

/** "Pending Elicitations": what waits now, and a collapsible history of the last 50 finished. */
export class PendingTreeView extends Disposable implements vscode.TreeDataProvider<PendingNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<PendingNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  constructor(private readonly queue: ElicitationQueue) {
    super();
    // One refresh for all the changes of one synchronous run (a burst enlists a hundred at once).
    const fire = this._register(coalesced(() => this._onDidChangeTreeData.fire(undefined)));
    this._register(queue.onDidChange(fire));
    this._register(queue.history.onDidChange(fire));
  }

  getChildren(node?: PendingNode): PendingNode[] {
    if (!node) {
      const entries = this.queue.list().map((entry) => ({ kind: 'entry' as const, entry }));
      // Nothing waiting and nothing answered yet: an empty tree, so the view's welcome content shows.
      if (entries.length === 0 && this.queue.history.size === 0) return [];
      return [...entries, { kind: 'historyRoot' }];
    }
    if (node.kind === 'historyRoot') return historyNodes(this.queue.history.list().reverse());
    if (node.kind === 'call') return node.items.map((item) => ({ kind: 'history', item }));
    return [];
  }

  getTreeItem(node: PendingNode): vscode.TreeItem {
    switch (node.kind) {
      case 'entry': {
        const e = node.entry;
        // The server's name and the first line of its message: foreign text on the row too.
        const item = new vscode.TreeItem(displayText(`${e.asker.name}: ${firstLine(e.message)}`, MAX_MESSAGE_CHARS));
        item.id = `pending:${e.id}`;
        item.description = [e.mode, roundLabel(e.round), stateLabel(e.state), age(e.createdAt)].filter(Boolean).join(' · ');
        // A narrow sidebar cuts the label before the description: the tooltip repeats everything.
        item.tooltip = markdownTooltip(displayText(`${e.asker.name} · ${item.description}\n\n${e.message}`, MAX_MESSAGE_CHARS + 500));
        item.iconPath = new vscode.ThemeIcon(STATE_ICONS[e.state]);
        // An MRTR call waiting on its browser step gets the spec's manual controls (Retry now, Cancel)
        // instead of the 2025 completion labels.
        item.contextValue = e.state === 'awaitingCompletion' && e.round ? 'pending.awaitingCompletion.mrtr' : `pending.${e.state}`;
        return item;
      }
      case 'historyRoot': {
        const item = new vscode.TreeItem(
          vscode.l10n.t('History ({0})', this.queue.history.size),
          vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = 'history';
        item.iconPath = new vscode.ThemeIcon('history');
        return item;
      }
      case 'call': {
        const first = node.items[0]!;
        const last = node.items.at(-1)!;
        const rounds = new Set(node.items.map((h) => h.round?.round)).size;
        const call = sanitiseForDisplay(first.round?.call ?? '', MAX_LABEL_CHARS).text;
        const item = new vscode.TreeItem(
          displayText(`${first.asker.name}: ${call}`, MAX_MESSAGE_CHARS),
          vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = `call:${node.callId}`;
        item.description = [vscode.l10n.t('{0} round(s)', rounds), last.at.toLocaleTimeString()].join(' · ');
        item.iconPath = new vscode.ThemeIcon('layers');
        item.contextValue = 'pending.historyCall';
        return item;
      }
      case 'history': {
        const h = node.item;
        const item = new vscode.TreeItem(displayText(`${h.asker.name}: ${firstLine(h.message)}`, MAX_MESSAGE_CHARS));
        const browser = h.browser === 'notOpened' ? vscode.l10n.t('browser did not open') : undefined;
        item.description = [h.action, h.decidedBy, browser, roundLabel(h.round), h.at.toLocaleTimeString()].filter(Boolean).join(' · ');
        item.tooltip = markdownTooltip(displayText(`${h.asker.name} · ${item.description}\n\n${h.message}`, MAX_MESSAGE_CHARS + 500));
        item.iconPath = new vscode.ThemeIcon(historyIcon(h));
        item.contextValue = 'pending.history';
        return item;
      }
    }
  }
}

/** The pending count as the view's badge (also on the activity bar icon), hidden at zero. */
export function bindPendingBadge(view: vscode.TreeView<PendingNode>, queue: ElicitationQueue): vscode.Disposable {
  const update = (): void => {
    const n = queue.size;
    view.badge = n > 0 ? { value: n, tooltip: vscode.l10n.t('{0} pending elicitation(s)', n) } : undefined;
  };
  update();
  // Each badge update is a message to the workbench: one per synchronous run of queue changes.
  const changed = coalesced(update);
  const sub = queue.onDidChange(changed);
  return toDisposable(() => {
    sub.dispose();
    changed.dispose();
  });
}
