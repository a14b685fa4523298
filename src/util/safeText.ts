/**
 * The only way text reaches VS Code's notifications (progress ones too), status bar messages,
 * input boxes and Markdown tooltips: each takes a `DisplayText` (see src/shared/displayText.ts), so
 * a server name, a server's message or a config error cannot arrive with a live
 * `[label](command:…)` link. A lint rule keeps the raw `vscode.window` calls out of the rest of
 * the code.
 */
import * as vscode from 'vscode';
import { markdownLiteral, sentence, type DisplayText } from '../shared/displayText';

/**
 * `vscode.l10n.t` for sentences shown on those surfaces: arguments must be neutralised text.
 * Called through the `l10n` name, so scripts/l10n.mjs extracts the message like any other.
 */
export const l10n = {
  t: (message: string, ...args: Array<DisplayText | number>): DisplayText => sentence(vscode.l10n, message, ...args),
};

type Items<T> = T[];
/**
 * A modal dialog draws its detail with `innerText` (VS Code's dialog.ts), so no link can form
 * there, and the url consent must show the address exactly as it opens. A non-modal
 * notification's detail is neutralised text like its message.
 */
type Options = (vscode.MessageOptions & { modal: true }) | (vscode.MessageOptions & { modal?: false; detail?: DisplayText });

export function showInformationMessage<T extends string | vscode.MessageItem>(
  message: DisplayText,
  ...items: Items<T>
): Thenable<T | undefined>;
export function showInformationMessage<T extends string | vscode.MessageItem>(
  message: DisplayText,
  options: Options,
  ...items: Items<T>
): Thenable<T | undefined>;
export function showInformationMessage(message: DisplayText, ...rest: unknown[]): Thenable<unknown> {
  return vscode.window.showInformationMessage(message, ...(rest as string[]));
}

export function showWarningMessage<T extends string | vscode.MessageItem>(
  message: DisplayText,
  ...items: Items<T>
): Thenable<T | undefined>;
export function showWarningMessage<T extends string | vscode.MessageItem>(
  message: DisplayText,
  options: Options,
  ...items: Items<T>
): Thenable<T | undefined>;
export function showWarningMessage(message: DisplayText, ...rest: unknown[]): Thenable<unknown> {
  return vscode.window.showWarningMessage(message, ...(rest as string[]));
}

export function showErrorMessage<T extends string | vscode.MessageItem>(message: DisplayText, ...items: Items<T>): Thenable<T | undefined>;
export function showErrorMessage<T extends string | vscode.MessageItem>(
  message: DisplayText,
  options: Options,
  ...items: Items<T>
): Thenable<T | undefined>;
export function showErrorMessage(message: DisplayText, ...rest: unknown[]): Thenable<unknown> {
  return vscode.window.showErrorMessage(message, ...(rest as string[]));
}

/** A transient status bar message (it renders `$(icons)` of ours, and no links). */
export function setStatusBarMessage(text: DisplayText, hideAfterTimeout: number): vscode.Disposable {
  return vscode.window.setStatusBarMessage(text, hideAfterTimeout);
}

/**
 * `window.withProgress` with a neutralised title: in a notification the title is the
 * notification's message, where VS Code renders `[label](command:…)` as a link like any other.
 */
export function withProgress<R>(
  options: Omit<vscode.ProgressOptions, 'title'> & { title?: DisplayText },
  task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  return vscode.window.withProgress(options, task);
}

/** An InputBox whose title, prompt and placeholder are neutralised text. */
export function showInputBox(
  options: Omit<vscode.InputBoxOptions, 'title' | 'prompt' | 'placeHolder'> & {
    title?: DisplayText;
    prompt?: DisplayText;
    placeHolder?: DisplayText;
  },
): Thenable<string | undefined> {
  return vscode.window.showInputBox(options);
}

/** A tooltip that renders `text` literally: no link, autolink, HTML or icon. */
export function markdownTooltip(text: DisplayText): vscode.MarkdownString {
  return new vscode.MarkdownString(markdownLiteral(text));
}
