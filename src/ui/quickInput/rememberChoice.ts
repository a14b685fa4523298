import * as vscode from 'vscode';
import type { MemoryScope } from '../../elicitation/memory/rememberedStore';

/**
 * "Remember this answer" on native quick input (issue 26 item 3). A confirmation and the review
 * step offer it as rows next to Accept; a one-field question, whose rows are its answers, as a
 * title-bar button that steps through off → this session → this workspace, with the title saying
 * which is chosen.
 */
export class RememberToggle {
  scope: MemoryScope | undefined;
  private readonly buttons = new Map<MemoryScope | 'off', vscode.QuickInputButton>();

  /** The button for the current choice (one object per choice, so identity compares work). */
  button(): vscode.QuickInputButton {
    const key = this.scope ?? 'off';
    let b = this.buttons.get(key);
    if (!b) {
      b =
        key === 'off'
          ? {
              iconPath: new vscode.ThemeIcon('pin'),
              tooltip: vscode.l10n.t('Remember this answer (click to choose: this session, this workspace)'),
            }
          : key === 'session'
            ? { iconPath: new vscode.ThemeIcon('pinned'), tooltip: vscode.l10n.t('Remembered for this session (click: in this workspace)') }
            : {
                iconPath: new vscode.ThemeIcon('pinned-dirty'),
                tooltip: vscode.l10n.t('Remembered in this workspace (click: do not remember)'),
              };
      this.buttons.set(key, b);
    }
    return b;
  }

  isButton(b: vscode.QuickInputButton): boolean {
    return [...this.buttons.values()].includes(b);
  }

  next(): void {
    this.scope = this.scope === undefined ? 'session' : this.scope === 'session' ? 'workspace' : undefined;
  }

  /** Appended to the title while a choice is made, so it is visible without hovering. */
  titleSuffix(): string {
    return this.scope === undefined ? '' : ` · ${rememberText(this.scope)}`;
  }
}

/** "remember for this session" / "remember in this workspace". */
export function rememberText(scope: MemoryScope): string {
  return scope === 'session' ? vscode.l10n.t('remember for this session') : vscode.l10n.t('remember in this workspace');
}

/** The two rows offered after Accept in a confirmation and in the review step. */
export function rememberRows(): { readonly label: string; readonly description: string; readonly remember: MemoryScope }[] {
  return [
    {
      label: vscode.l10n.t('$(history) Accept and remember for this session'),
      description: vscode.l10n.t('until VS Code closes'),
      remember: 'session',
    },
    {
      label: vscode.l10n.t('$(pinned) Accept and remember in this workspace'),
      description: vscode.l10n.t('until you forget it'),
      remember: 'workspace',
    },
  ];
}
