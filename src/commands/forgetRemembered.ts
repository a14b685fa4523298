/**
 * "MCP Elicitation: Forget Remembered Answers…": pick the remembered answers to forget (all are
 * offered, none preselected), or forget one from the view's row.
 */
import * as vscode from 'vscode';
import type { AnswerMemory } from '../elicitation/memory/answerMemory';
import type { RememberedAnswer } from '../elicitation/memory/rememberedStore';
import { MAX_LABEL_CHARS, sanitiseForDisplay } from '../elicitation/safety/text';
import { answerLabel, scopeText, type RememberedNode } from '../ui/rememberedView';
import { noIcons } from '../ui/quickInput/quickInputParts';
import * as safe from '../util/safeText';

interface AnswerItem extends vscode.QuickPickItem {
  readonly answer: RememberedAnswer;
}

/** A row of the Remembered Answers view, or nothing (then the picker). */
function nodeFrom(arg: unknown): RememberedNode | undefined {
  return typeof arg === 'object' && arg !== null && (arg as RememberedNode).kind === 'remembered' ? (arg as RememberedNode) : undefined;
}

export async function forgetRemembered(memory: AnswerMemory, arg?: unknown): Promise<void> {
  const node = nodeFrom(arg);
  if (node) {
    await memory.forget(node.answer.fingerprint);
    return;
  }
  const answers = memory.list();
  if (answers.length === 0) {
    void safe.showInformationMessage(safe.l10n.t('No answers are remembered.'));
    return;
  }
  // Server text in a QuickPick row: neutralised, and no `$(icon)` of the server's renders.
  const items: AnswerItem[] = answers.map((answer) => ({
    label: noIcons(answerLabel(answer)),
    description: `${noIcons(sanitiseForDisplay(answer.server, MAX_LABEL_CHARS).text)} · ${scopeText(answer)}`,
    answer,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    canPickMany: true,
    title: vscode.l10n.t('Forget Remembered Answers'),
    placeHolder: vscode.l10n.t('Pick the answers to forget; those servers will ask again'),
  });
  if (!picked || picked.length === 0) return;
  for (const p of picked) await memory.forget(p.answer.fingerprint);
  void safe.showInformationMessage(safe.l10n.t('Forgot {0} remembered answer(s).', picked.length));
}
