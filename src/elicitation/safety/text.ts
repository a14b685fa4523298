/**
 * Pure helpers for showing server-supplied text safely: URL detection (forms must not carry links),
 * secret-like field detection (forms must not ask for secrets), and display sanitising against
 * bidi spoofing and control characters.
 */
import type { Field, FormModel } from '../../shared/fieldModel';

declare const displayTextBrand: unique symbol;

/**
 * A string that renders as the text it says on every VS Code surface: no link, no command. Made
 * only by {@link sanitiseForDisplay} and the helpers in displayText.ts.
 */
export type DisplayText = string & { readonly [displayTextBrand]: true };

/** Display limit for the request's `message`, in UTF-16 code units of the source text. */
export const MAX_MESSAGE_CHARS = 4000;
/** Display limit for a field's `description`. */
export const MAX_DESCRIPTION_CHARS = 1000;
/** Display limit for a field title or an option label. */
export const MAX_LABEL_CHARS = 200;

// Shapes, tried in order: anything with `scheme://` (`https`, `file`, `vscode`…), the scheme-only
// `javascript:`/`data:`/`mailto:`/`command:`/`vscode:` forms, `www.`, then bare hosts. Every repetition that can start
// mid-word is bounded, so scanning stays linear. Bare hosts need a path, port or a common TLD so
// that `node.js`, `README.md`, `e.g.` and `v1.2` stay plain text; labels allow any letter so
// look-alike (IDN) hosts are caught.
const URL_RE = new RegExp(
  [
    String.raw`\b[a-z][a-z0-9+.-]{0,31}:\/\/[^\s<>"'\x60]+`,
    // `command:` and `vscode:` links run a VS Code command or an extension's handler on click.
    String.raw`\b(?:javascript|data|vbscript|mailto|command|vscode):[^\s<>"'\x60]+`,
    String.raw`\bwww\.[^\s<>"'\x60]+`,
    String.raw`(?<![\p{L}\p{N}@.-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}{2,}(?::\d{1,5})?\/[^\s<>"'\x60]*`,
    String.raw`(?<![\p{L}\p{N}@.-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:com|net|org|io|dev|app|ai|co|info|biz|xyz|site|online|link|click|top|ru|cn)(?::\d{1,5})?(?![\p{L}\p{N}-])`,
    String.raw`(?<![\p{N}.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5}\b|\/[^\s<>"'\x60]*)`,
  ].join('|'),
  'giu',
);
const TRAILING_PUNCTUATION = '.,;:!?)]}>"\'’”»';

// Sentence punctuation after a link is not part of it, but a closing parenthesis that balances
// one inside the link is (`https://en.wikipedia.org/wiki/Foo_(bar)`, `javascript:alert(1)`).
function trimTrailing(url: string): string {
  let end = url.length;
  while (end > 0) {
    const c = url.charAt(end - 1);
    if (!TRAILING_PUNCTUATION.includes(c)) break;
    if (c === ')') {
      const head = url.slice(0, end);
      if (head.split('(').length >= head.split(')').length) break;
    }
    end--;
  }
  return url.slice(0, end);
}

/**
 * Finds link-like substrings: `scheme://…`, `javascript:`/`data:`/`mailto:` links, `www.…`, bare
 * hosts with a path such as `example.com/login`, well-known-TLD hosts such as `paypal-login.com`,
 * and IPv4 hosts with a path or port. Results are unique, in order of appearance, without trailing
 * punctuation.
 */
export function findUrls(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(URL_RE)) {
    const url = trimTrailing(match[0]);
    if (url.length > 0) found.add(url);
  }
  return [...found];
}

// Whole words that on their own mean a secret. `token` is handled separately (see below).
const SECRET_WORDS = new Set([
  'password', 'passwords', 'passwd', 'passphrase', 'passcode', 'pwd', 'secret', 'secrets',
  'credential', 'credentials', 'cvv', 'cvc', 'cvv2', 'ssn', 'otp', 'apikey', 'iban', 'mnemonic',
]);
// Adjacent word pairs, checked after splitting camelCase, snake_case and kebab-case.
const SECRET_PAIRS = new Set([
  'api key', 'access key', 'private key', 'secret key', 'signing key', 'encryption key', 'ssh key',
  'card number', 'cc number', 'credit card', 'security code', 'social security', 'seed phrase',
  'recovery phrase', 'client secret', 'bearer token', 'pin code', 'pin number',
]);
// Squashed forms that show up as one lower-case word (`userpassword`, `x_apikey`, `privatekey`).
const SECRET_SUBSTRINGS = [
  'password', 'passwd', 'apikey', 'privatekey', 'secretkey', 'accesskey', 'accesstoken', 'authtoken',
  'refreshtoken', 'clientsecret', 'creditcard', 'cardnumber',
];
// `max_tokens`, `token count`, `tokenizer`: token words about quantities, not credentials.
const TOKEN_QUANTITY_WORDS = new Set(['max', 'min', 'num', 'number', 'count', 'limit', 'budget', 'usage', 'total', 'per']);

function words(text: string): { lower: string[]; original: string[] } {
  const original = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
  return { lower: original.map((w) => w.toLowerCase()), original };
}

function textLooksSecret(text: string): boolean {
  const { lower, original } = words(text);
  for (let i = 0; i < lower.length; i++) {
    const w = lower[i] ?? '';
    const next = lower[i + 1];
    const prev = lower[i - 1];
    if (SECRET_WORDS.has(w)) return true;
    if (next !== undefined && SECRET_PAIRS.has(`${w} ${next}`)) return true;
    if (SECRET_SUBSTRINGS.some((s) => w.includes(s)) && !w.includes('passwordless')) return true;
    if (w === 'token' || w === 'tokens') {
      const aboutQuantity =
        (prev !== undefined && TOKEN_QUANTITY_WORDS.has(prev)) || (next !== undefined && TOKEN_QUANTITY_WORDS.has(next));
      if (!aboutQuantity) return true;
    }
    // "pin" is also a verb ("Pin this note"): only the upper-case acronym or a bare `pin` key counts.
    if (w === 'pin' && (original[i] === 'PIN' || lower.length === 1)) return true;
  }
  return false;
}

/**
 * True when a field's key, title or description suggests it asks for a secret (password, token,
 * API/access/private key, credential, card number, CVV, SSN, PIN…). Word-based, so `tokenizer`,
 * `max_tokens` or `secretary` do not match.
 */
export function looksSecret(key: string, title?: string, description?: string): boolean {
  return [key, title, description].some((t) => t !== undefined && textLooksSecret(t));
}

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

/**
 * Makes server text safe to show as plain text: no `[label](target)` link survives (a zero-width
 * space goes between `]` and `(`), bidi controls (U+202A–U+202E, U+2066–U+2069,
 * U+200E/F, U+061C), C0/C1 controls other than `\n` and `\t`, and lone surrogates become visible
 * markers such as `⟨U+202E⟩`; CRLF becomes LF. The result is at most `maxChars` long and never
 * ends inside a marker or a surrogate pair; `truncated` says whether anything was dropped.
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

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function fieldName(field: Field): string {
  return sanitiseForDisplay(field.title, MAX_LABEL_CHARS).text;
}

function shownUrl(url: string): string {
  return sanitiseForDisplay(url, 100).text;
}

/**
 * What the person answering should check before answering, as a code with the values to word it
 * (the UI words it). Field names and links are sanitised for display.
 */
export type FormWarning =
  /** The request's message contains a link. */
  | { readonly code: 'linkInMessage'; readonly url: string }
  | { readonly code: 'linkInField'; readonly field: string; readonly place: 'title' | 'description' | 'optionLabel'; readonly url: string }
  | { readonly code: 'secretField'; readonly field: string }
  /** The server's text was cut to its display limit and now ends in `…`. */
  | { readonly code: 'shortened'; readonly field: string; readonly part: 'title' | 'description' | 'optionLabels' };

/**
 * Warnings for the person answering a form: a URL in the message; a URL in a field's title,
 * description or option label (naming the field); each secret-like field (naming it).
 */
export function formWarnings(message: string, form: FormModel): FormWarning[] {
  const warnings: FormWarning[] = [];
  // Scan what the user can be shown, no more: a link past the display cut cannot mislead anyone,
  // and a bounded scan keeps a 1 MB message cheap.
  const messageUrls = findUrls(message.slice(0, MAX_MESSAGE_CHARS));
  if (messageUrls[0] !== undefined) warnings.push({ code: 'linkInMessage', url: shownUrl(messageUrls[0]) });
  for (const field of form.fields) {
    const places: ['title' | 'description' | 'optionLabel', string | undefined, number][] = [
      ['title', field.title, MAX_LABEL_CHARS],
      ['description', field.description, MAX_DESCRIPTION_CHARS],
    ];
    if (field.kind === 'singleSelect' || field.kind === 'multiSelect') {
      for (const option of field.options) places.push(['optionLabel', option.label, MAX_LABEL_CHARS]);
    }
    for (const [place, text, limit] of places) {
      const url = text === undefined ? undefined : findUrls(text.slice(0, limit))[0];
      if (url !== undefined) {
        warnings.push({ code: 'linkInField', field: fieldName(field), place, url: shownUrl(url) });
        break;
      }
    }
    if (field.secretLike) warnings.push({ code: 'secretField', field: fieldName(field) });
  }
  return warnings;
}

/** Sanitised text with the visible `…` marker when it was cut. */
function shown(text: string, limit: number): { text: string; truncated: boolean } {
  const s = sanitiseForDisplay(text, limit);
  return s.truncated ? { text: `${s.text}…`, truncated: true } : s;
}

/**
 * A copy of `form` for the widgets: every title, description and option label sanitised (see
 * {@link sanitiseForDisplay}) and cut to its display limit with a visible `…`, plus a `shortened`
 * note for each text that was cut. Keys, option values, defaults and the schema are untouched, so
 * an answer validates (and is sent) exactly as for the original.
 */
export function formForDisplay(form: FormModel): { form: FormModel; notes: FormWarning[] } {
  const notes: FormWarning[] = [];
  const fields = form.fields.map((field): Field => {
    const title = shown(field.title, MAX_LABEL_CHARS);
    const description = field.description === undefined ? undefined : shown(field.description, MAX_DESCRIPTION_CHARS);
    let labelsCut = false;
    const base = { ...field, title: title.text, description: description?.text };
    const out: Field =
      field.kind === 'singleSelect' || field.kind === 'multiSelect'
        ? {
            ...(base as typeof field),
            options: field.options.map((o) => {
              const label = shown(o.label, MAX_LABEL_CHARS);
              labelsCut ||= label.truncated;
              return { value: o.value, label: label.text };
            }),
          }
        : base;
    if (title.truncated) notes.push({ code: 'shortened', field: title.text, part: 'title' });
    if (description?.truncated) notes.push({ code: 'shortened', field: title.text, part: 'description' });
    if (labelsCut) notes.push({ code: 'shortened', field: title.text, part: 'optionLabels' });
    return out;
  });
  return { form: { fields, schema: form.schema }, notes };
}
