import * as vscode from 'vscode';
import type { ElicitationQueue, PendingView } from '../elicitation/queue/elicitationQueue';
import { displayText } from '../elicitation/safety/displayText';
import { age, firstLine, roundLabel, stateLabel } from '../ui/pendingView';

interface EntryItem extends vscode.QuickPickItem {
  readonly entry?: PendingView;
  readonly serverAll?: string;
}

const declineBtn = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('circle-slash'), tooltip: vscode.l10n.t('Decline') });
const cancelBtn = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('close'), tooltip: vscode.l10n.t('Cancel') });
const doneBtn = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('check'), tooltip: vscode.l10n.t('Mark as Done') });
/** For an accepted url elicitation: stop tracking it; the server is not told anything. */
const dismissBtn = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('close'), tooltip: vscode.l10n.t('Dismiss') });
/** For an MRTR call waiting on its browser step: retry at once, so the server checks now. */
const retryBtn = (): vscode.QuickInputButton => ({ iconPath: new vscode.ThemeIcon('refresh'), tooltip: vscode.l10n.t('Retry now') });

function buttonsFor(entry: PendingView): vscode.QuickInputButton[] {
  if (entry.state !== 'awaitingCompletion') return [declineBtn(), cancelBtn()];
  return entry.round ? [retryBtn(), cancelBtn()] : [doneBtn(), dismissBtn()];
}

/**
 * "MCP Elicitation: Show Pending Elicitations": every entry with server, first line, mode, age and
 * state. Enter shows/answers; item buttons decline or cancel it; "Decline All from ‹server›" rows.
 */
export function showPending(
  queue: ElicitationQueue,
  actions: { reveal(entry: PendingView): void; openAgain(entry: PendingView): void },
): Promise<void> {
  const qp = vscode.window.createQuickPick<EntryItem>();
  qp.title = vscode.l10n.t('Pending Elicitations');
  qp.placeholder = vscode.l10n.t('Enter shows a request; the buttons decline or cancel it');
  qp.matchOnDescription = true;
  const d: vscode.Disposable[] = [];
  const refresh = (): void => {
    const list = queue.list();
    const servers = [...new Set(list.filter((e) => e.state !== 'awaitingCompletion').map((e) => e.asker.name))];
    qp.items = [
      ...list.map((entry) => ({
        // The name is a config key, maybe from the workspace's own file: a row draws `$(…)` as an icon.
        label: `${displayText(entry.asker.name)}: ${firstLine(entry.message)}`,
        description: [entry.mode, roundLabel(entry.round), stateLabel(entry.state), age(entry.createdAt)].filter(Boolean).join(' · '),
        buttons: buttonsFor(entry),
        entry,
      })),
      ...(servers.length ? [{ label: '', kind: vscode.QuickPickItemKind.Separator }] : []),
      ...servers.map((s) => ({ label: vscode.l10n.t('$(circle-slash) Decline All from {0}', displayText(s)), serverAll: s })),
    ];
    if (list.length === 0) qp.placeholder = vscode.l10n.t('Nothing is pending');
  };
  refresh();
  d.push(queue.onDidChange(refresh));
  d.push(
    qp.onDidTriggerItemButton(({ item, button }) => {
      if (!item.entry) return;
      if (button.tooltip === doneBtn().tooltip || button.tooltip === retryBtn().tooltip) queue.markDone(item.entry.id);
      else queue.settle(item.entry.id, button.tooltip === declineBtn().tooltip ? 'decline' : 'cancel');
    }),
  );
  return new Promise((resolve) => {
    d.push(
      qp.onDidAccept(() => {
        const item = qp.activeItems[0];
        if (item?.serverAll) {
          queue.settleServer(item.serverAll, 'decline');
          return;
        }
        if (!item?.entry) return;
        qp.hide();
        if (item.entry.state === 'awaitingCompletion') actions.openAgain(item.entry);
        else actions.reveal(item.entry);
      }),
    );
    d.push(
      qp.onDidHide(() => {
        for (const x of d) x.dispose();
        qp.dispose();
        resolve();
      }),
    );
    qp.show();
  });
}
