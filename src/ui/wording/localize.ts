/**
 * The one thing the wording modules need from VS Code: `vscode.l10n`, passed in by the caller.
 * Taking it as a parameter keeps the sentences testable in plain Node, in English and against
 * the German bundle. Each message stays a string literal in its `t` call, so `scripts/l10n.mjs`
 * extracts it.
 */
export interface Localize {
  t(message: string, ...args: Array<string | number | boolean>): string;
}
