/**
 * Pure helpers for showing server-supplied text safely: URL detection (forms must not carry links),
 * secret-like field detection (forms must not ask for secrets), and display sanitising against
 * bidi spoofing and control characters.
 */
import type { Field, FormModel } from '../../shared/fieldModel';
import {
  displayText,
  hasHiddenCharacters,
  MAX_DESCRIPTION_CHARS,
  MAX_LABEL_CHARS,
  MAX_MESSAGE_CHARS,
  sanitiseForDisplay,
} from '../../shared/displayText';

// The neutraliser and the secret-name rule live in shared/ so that config/ and util/ (below
// elicitation/ in the layers) use the very same rules; re-exported for the form code.
export { MAX_DESCRIPTION_CHARS, MAX_LABEL_CHARS, MAX_MESSAGE_CHARS, sanitiseForDisplay, type DisplayText } from '../../shared/displayText';
export { looksSecret } from '../../shared/secretNames';

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
  /** A text field's suggested value holds characters that are invisible or reorder it; `shown` has them as markers. */
  | { readonly code: 'hiddenInDefault'; readonly field: string; readonly shown: string }
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
    // The edit box pre-fills the exact value, where a right-to-left override makes `001 USD` read `DSU 100`.
    if (field.kind === 'string' && field.default !== undefined && hasHiddenCharacters(field.default)) {
      warnings.push({ code: 'hiddenInDefault', field: fieldName(field), shown: displayText(field.default, MAX_DESCRIPTION_CHARS) });
    }
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
