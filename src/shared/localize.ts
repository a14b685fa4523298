/**
 * The language a sentence is rendered in, injected by whoever shows or sends it. The sentence
 * tables (elicitation/form/sentences.ts, servers/sentences.ts, ui/wording/) write each
 * sentence once, as a string literal in an `l10n.t` call, so `scripts/l10n.mjs` extracts it:
 * the window passes `vscode.l10n`, and whatever a server or the log gets passes {@link english}.
 * Taking it as a parameter also keeps the sentences testable in plain Node, in English and against
 * the German bundle.
 */
export interface Localize {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

/**
 * The sentence as written, its `{0}`… placeholders filled as `vscode.l10n.t` fills them when no
 * translation applies. Servers get English whatever the user's language: their authors read it
 * in -32602 reasons, errors and the log.
 */
export const english: Localize = {
  t: (message, ...args) => message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole)),
};
