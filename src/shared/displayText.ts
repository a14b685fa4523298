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

declare const displayTextBrand: unique symbol;

/**
 * A string that renders as the text it says on every VS Code surface: no link, no command, no
 * theme icon. Made only by {@link sanitiseForDisplay} and the helpers below.
 */
export type DisplayText = string & { readonly [displayTextBrand]: true };

/** Display limit for the request's `message`, in UTF-16 code units of the source text. */
export const MAX_MESSAGE_CHARS = 4000;
/** Display limit for a field's `description`. */
export const MAX_DESCRIPTION_CHARS = 1000;
/** Display limit for a field title or an option label. */
export const MAX_LABEL_CHARS = 200;

function isMarked(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x0a && code !== 0x09) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x061c
  );
}

function marker(code: number): string {
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

// VS Code turns `[label](command:…)`, `[label](https://…)` and `[label](file:…)` into links in an
// InputBox's prompt and validation message and in notifications, and runs or opens them on click.
// Every such link needs `](` side by side. A zero-width space between them (and after a `]` that
// ends the text, and before a `(` that starts a line, so no link forms where the text meets other
// text) keeps the text as it reads, minus the link. `[A-Z]{3}` and the like stay untouched, and
// sanitising twice adds nothing.
const ZWSP = '\u200b';
const LINK_BREAK_AFTER = `]${ZWSP}`;
const LINK_BREAK_BEFORE = `${ZWSP}(`;
// QuickPick rows, an InputBox's or QuickPick's prompt and validation message, and the status bar
// draw `$(name)` as a theme icon (VS Code's `renderLabelWithIcons`), so a server could put our
// `$(check)` or a `$(verified-filled)` next to its words. A zero-width space between `$` and `(`
// leaves the text as it reads on every surface; a backslash (VS Code's `escapeIcons`) would show
// as a backslash wherever icons are not drawn (notifications, views, the webview).
const ICON_BREAK = `$${ZWSP}`;

/**
 * Makes server text safe to show as plain text: no `[label](target)` link and no `$(icon)`
 * survives (a zero-width space goes between `]` and `(`, and between `$` and `(`), bidi controls
 * (U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C), C0/C1 controls other than `\n` and `\t`,
 * and lone surrogates become visible markers such as `⟨U+202E⟩`; CRLF becomes LF. The result is
 * at most `maxChars` long and never ends inside a marker or a surrogate pair; `truncated` says
 * whether anything was dropped.
 */
export function sanitiseForDisplay(text: string, maxChars: number): { text: DisplayText; truncated: boolean } {
  const limit = Math.max(0, Math.floor(maxChars));
  // Only look at what can possibly be shown, so a 1 MB message costs no more than a short one.
  // Twice the limit (plus the next unit) because CRLF folding consumes two units for one shown.
  const raw = text.slice(0, 2 * limit + 2);
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const code = raw.charCodeAt(i);
    let piece: string;
    let width = 1;
    if (code === 0x0d && raw.charCodeAt(i + 1) === 0x0a) {
      piece = '';
    } else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(raw.charCodeAt(i + 1))) {
      piece = raw.slice(i, i + 2);
      width = 2;
    } else if ((code >= 0xd800 && code <= 0xdfff) || isMarked(code)) {
      piece = marker(code);
    } else if (code === 0x5d && (i + 1 >= raw.length || raw.charCodeAt(i + 1) === 0x28)) {
      piece = LINK_BREAK_AFTER;
    } else if (code === 0x28 && (out.length === 0 || out.endsWith('\n'))) {
      piece = LINK_BREAK_BEFORE;
    } else if (code === 0x24 && raw.charCodeAt(i + 1) === 0x28) {
      piece = ICON_BREAK;
    } else {
      piece = raw.charAt(i);
    }
    if (out.length + piece.length > limit) break;
    out += piece;
    i += width;
  }
  // Cut right after a `]`: whatever is put after the cut could start with `(`. Drop the `]`.
  if (i < text.length && out.endsWith(']')) out = out.slice(0, -1);
  return { text: out as DisplayText, truncated: i < text.length };
}

/**
 * Whether the text holds a character {@link sanitiseForDisplay} shows as a marker: one that is
 * invisible or reorders what is around it (bidi and C0/C1 controls, lone surrogates). Such a
 * character in a value the user edits (an InputBox's or the webview's pre-filled value, which
 * must hold the exact value) makes it read otherwise than what is sent.
 */
export function hasHiddenCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
      i++;
      continue;
    }
    if ((code >= 0xd800 && code <= 0xdfff) || isMarked(code)) return true;
  }
  return false;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

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
