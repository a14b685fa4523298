/**
 * "Remembered Answers": every answer the extension gives in the user's place (issue 26 item 3),
 * each with Forget. Server text (the name, the message) is shown as plain, neutralised text.
 */
import * as vscode from 'vscode';
import type { AnswerMemory } from '../elicitation/memory/answerMemory';
import type { RememberedAnswer } from '../elicitation/memory/rememberedStore';
import { MAX_LABEL_CHARS, MAX_MESSAGE_CHARS, sanitiseForDisplay } from '../elicitation/safety/text';
import { displayText } from '../elicitation/safety/displayText';
import { Disposable } from '../util/disposable';
import { markdownTooltip } from '../util/safeText';
import * as safe from '../util/safeText';
import { firstLine } from './pendingView';

export interface RememberedNode {
  readonly kind: 'remembered';
  readonly answer: RememberedAnswer;
}

/** "this session" or "this workspace": where the answer is kept. */
export function scopeText(answer: RememberedAnswer): string {
  return answer.scope === 'session' ? vscode.l10n.t('this session') : vscode.l10n.t('this workspace');
}

/** The row text of a remembered answer: its message's first line (server text, neutralised). */
export function answerLabel(answer: RememberedAnswer): string {
  return firstLine(sanitiseForDisplay(answer.message, MAX_LABEL_CHARS).text) || vscode.l10n.t('(no message)');
}

export class RememberedTreeView extends Disposable implements vscode.TreeDataProvider<RememberedNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<RememberedNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  constructor(private readonly memory: AnswerMemory) {
    super();
    this._register(memory.onDidChange(() => this._onDidChangeTreeData.fire(undefined)));
  }

  getChildren(node?: RememberedNode): RememberedNode[] {
    // Empty: the view's welcome content says what remembering is and where it is offered.
    return node ? [] : this.memory.list().map((answer) => ({ kind: 'remembered', answer }));
  }

  getTreeItem(node: RememberedNode): vscode.TreeItem {
    const a = node.answer;
    const item = new vscode.TreeItem(answerLabel(a), vscode.TreeItemCollapsibleState.None);
    item.description = `${sanitiseForDisplay(a.server, MAX_LABEL_CHARS).text} · ${scopeText(a)}`;
    item.iconPath = new vscode.ThemeIcon(a.scope === 'session' ? 'history' : 'pinned');
    item.contextValue = 'rememberedAnswer';
    item.tooltip = markdownTooltip(
      safe.l10n.t(
        '{0} asked: {1}\nKept for {2}. The answer it gets: {3}',
        displayText(a.server),
        displayText(a.message, MAX_MESSAGE_CHARS),
        displayText(scopeText(a)),
        displayText(a.fieldKeys.length === 0 ? vscode.l10n.t('Accept') : JSON.stringify(a.content), MAX_MESSAGE_CHARS),
      ),
    );
    return item;
  }
}
