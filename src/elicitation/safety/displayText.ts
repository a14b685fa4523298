/**
 * Text from a server, a config file or an input description, made safe for a VS Code surface.
 *
 * VS Code renders `[label](command:…)`, `[label](https://…)` and `[label](file:…)` as links, and
 * runs or opens them on click, in an InputBox's prompt and validation message and in notification
 * text; a MarkdownString (tooltips) renders any Markdown link or bare URL. So foreign text reaches
 * a surface only as a `DisplayText`: produced here (by {@link displayText}, which neutralises
 * links, bidi and control characters once, through `sanitiseForDisplay`) or by a sentence of ours
 * whose arguments are themselves `DisplayText` ({@link sentence}). The UI helpers in
 * `src/util/safeText.ts` accept nothing else, so a new surface cannot forget the step.
 */
import { MAX_LABEL_CHARS, sanitiseForDisplay, type DisplayText } from './text';

export type { DisplayText };

/**
 * Foreign text for display: links neutralised, bidi and control characters made visible (see
 * `sanitiseForDisplay`), cut to `maxChars` with a visible `…`.
 */
export function displayText(raw: string, maxChars: number = MAX_LABEL_CHARS): DisplayText {
  const s = sanitiseForDisplay(raw, maxChars);
  return (s.truncated ? `${s.text}…` : s.text) as DisplayText;
}

/** The first line of an already neutralised text (every line start is neutralised too). */
export function firstLine(text: DisplayText): DisplayText {
  return (text.split('\n')[0] ?? '') as DisplayText;
}

/** The `vscode.l10n` shape, with only neutralised text (or numbers) allowed as arguments. */
export interface Localize {
  t(message: string, ...args: Array<string | number | boolean>): string;
}

/**
 * One of our sentences with foreign parts filled in. Our messages (and their translations) hold
 * no `](`, and every argument is neutralised at both ends, so no link can form at a seam.
 */
export function sentence(l10n: Localize, message: string, ...args: Array<DisplayText | number>): DisplayText {
  return l10n.t(message, ...args) as DisplayText;
}

/** Neutralised text followed by a mark of ours (such as ` …`) that has no `]` or `(` at its ends. */
export function withSuffix(text: DisplayText, suffix: string): DisplayText {
  return (text + suffix) as DisplayText;
}

/** Several neutralised texts joined by one of ours (no `]` or `(` at its ends). */
export function joinDisplay(parts: readonly DisplayText[], separator: string): DisplayText {
  return parts.join(separator) as DisplayText;
}

// CommonMark lets a backslash escape any ASCII punctuation, and an escaped character renders as
// itself. Escaping all of it leaves no link (`[`, `]`, `(`, `<`), no autolink (`https\:\/\/`,
// `www\.`, `a\@b`), no emphasis, heading, HTML or theme icon (`$(`) to render.
const MARKDOWN_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * Markdown source that renders exactly as `text` (line breaks kept): for a MarkdownString
 * tooltip. `MarkdownString.appendText` alone is not enough: it leaves `https://…` and `www.…`
 * to the renderer's autolinking.
 */
export function markdownLiteral(text: DisplayText): string {
  return text
    .replace(MARKDOWN_PUNCTUATION, '\\$&')
    .split('\n')
    .map((line) => line.replace(/^[ \t]+/, (ws) => '&nbsp;'.repeat(ws.length)))
    .join('  \n');
}
