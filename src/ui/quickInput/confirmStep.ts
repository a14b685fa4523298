import * as vscode from 'vscode';
import { attributionTitle, noIcons, separatorLabel, setPickPrompt } from './quickInputParts';
import { runStep, titleButtons, type StepContext, type StepResult } from './fieldStep';
import { rememberRows } from './rememberChoice';
import type { MemoryScope } from '../../elicitation/memory/rememberedStore';

interface ConfirmItem extends vscode.QuickPickItem {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly remember?: MemoryScope;
}

/**
 * A form without fields: the server asks only "Proceed?". The question with Accept, Decline and
 * Cancel as the three rows, on the same QuickPick and title bar as every other question. No row
 * starts active, so Enter alone answers nothing: a yes takes picking Accept (arrow keys and Enter,
 * typing, or a click). An Enter meant for something else, landing as the question opens, would
 * otherwise say yes to a "Push to main?". Settles as a `StepResult`: a value (accept), decline,
 * cancel, block or hidden.
 */
export function askConfirmation(
  ctx: Omit<StepContext, 'form' | 'step' | 'remember'> & { readonly canRemember?: boolean },
): Promise<StepResult> {
  const qp = vscode.window.createQuickPick<ConfirmItem>();
  qp.title = attributionTitle(ctx.asker, vscode.l10n.t('Confirm'));
  qp.ignoreFocusOut = true;
  qp.buttons = titleButtons(ctx, false);
  qp.placeholder = vscode.l10n.t('Pick Accept, Decline or Cancel');
  const text = [ctx.message, ...ctx.warnings.map((w) => `⚠ ${w}`)].join(' — ');
  const header: ConfirmItem[] = setPickPrompt(qp, text)
    ? []
    : [{ label: noIcons(separatorLabel(text)), kind: vscode.QuickPickItemKind.Separator, action: 'cancel' }];
  const accept: ConfirmItem = {
    label: vscode.l10n.t('$(check) Accept'),
    description: vscode.l10n.t('tell the server yes'),
    action: 'accept',
  };
  qp.items = [
    ...header,
    accept,
    { label: vscode.l10n.t('$(circle-slash) Decline'), description: vscode.l10n.t('tell the server no'), action: 'decline' },
    { label: vscode.l10n.t('$(close) Cancel'), description: vscode.l10n.t('close without answering'), action: 'cancel' },
    // After the three answers, so one arrow key and Enter mean a plain Accept and nothing is remembered by accident.
    ...(ctx.canRemember ? rememberRows().map((r): ConfirmItem => ({ ...r, action: 'accept' })) : []),
  ];
  // VS Code makes the first row active when items are set; an empty list of active items clears that.
  qp.activeItems = [];
  return runStep(qp, ctx, (settle, d, tooSoon) => {
    d.push(
      qp.onDidAccept(() => {
        if (tooSoon()) return;
        const picked = qp.activeItems[0];
        if (!picked || picked.kind === vscode.QuickPickItemKind.Separator) return;
        settle(
          picked.action === 'accept'
            ? { kind: 'value', value: undefined, ...(picked.remember ? { remember: picked.remember } : {}) }
            : { kind: picked.action },
        );
      }),
    );
  });
}
