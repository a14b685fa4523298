/**
 * What VS Code turns into a clickable link, for the tests that prove server and workspace text
 * never becomes one (unit: linkSafety; in-host: hostile, surfaceLinks).
 */

/**
 * VS Code's own link pattern, copied from `LINK_REGEX` in microsoft/vscode
 * src/vs/base/common/linkedText.ts (`parseLinkedText`, which `renderFormattedText` and the
 * notification, InputBox prompt and validation message renderers go through), and identical in the
 * workbench bundle of the code-server we test against (VS Code 1.139.1,
 * out/vs/code/browser/workbench/workbench.js). Every match becomes a link that runs its command or
 * opens its target on click.
 */
// eslint-disable-next-line no-useless-escape -- copied verbatim
export const VSCODE_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/** Every match of {@link VSCODE_LINK} in `text`. */
export function vscodeLinks(text: string): string[] {
  return [...text.matchAll(VSCODE_LINK)].map((m) => m[0]);
}

/** What a Markdown renderer (a MarkdownString tooltip or hover) turns into a link or markup. */
export const MARKDOWN_LINKS: readonly RegExp[] = [
  /\[[^\]]*\]\s*\(/, // inline link
  /\[[^\]]*\]\s*\[/, // reference link
  /^\s*\[[^\]]*\]:/m, // link definition
  /<[a-z][a-z0-9+.-]*:[^>\s]*>/i, // autolink
  /(?:https?|ftp|file|command|vscode):\/\//i, // GFM bare URL
  /\bwww\./i, // GFM www autolink
  /[a-z0-9._%+-]@[a-z0-9-]+\./i, // GFM email autolink
  /<\/?[a-z]/i, // raw HTML (an anchor)
  /\$\([a-z0-9~-]+\)/i, // a theme icon (only with supportThemeIcons)
];

const ESCAPED = /\\[!-/:-@[-`{-~]/g;

/** Markdown source with its backslash escapes blanked out: what is left is what the renderer may interpret. */
export function liveMarkdown(md: string): string {
  return md.replace(ESCAPED, ' ');
}

/** What a Markdown renderer shows for `md` made by `markdownLiteral`: escapes resolved, hard breaks back to line breaks. */
export function renderedLiteral(md: string): string {
  return md
    .replace(/ {2}\n/g, '\n')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/&nbsp;/g, ' ');
}

/**
 * What VS Code draws as a theme icon: `$(name)` or `$(name~modifier)` not preceded by a backslash.
 * From `renderLabelWithIcons` in microsoft/vscode src/vs/base/browser/ui/iconLabel/iconLabels.ts
 * (the same pattern in the workbench bundle of the code-server we test against), which QuickPick
 * rows, the quick input prompt and validation message, and the status bar go through.
 */
const VSCODE_ICON = /(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g;

/** Every theme icon VS Code would draw for `text`. */
export function vscodeIcons(text: string): string[] {
  return [...text.matchAll(VSCODE_ICON)].filter((m) => m[1] === undefined).map((m) => m[0]);
}
