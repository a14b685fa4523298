/**
 * Whether a name reads like a secret: the one rule behind masking, the form's secret-field
 * warning, `sensitiveFields: decline`, the rule that a remembered answer never holds a secret, and
 * the redaction of the log, the Trace and the audit file. Pure; in shared/ so every layer uses the
 * same rule.
 *
 * Names are split into words (camelCase, PascalCase, snake, kebab, spaces, letters and digits) and
 * matched as words and phrases, never as substrings of longer words: `tokenizer`, `secretary`,
 * `passport`, `compass` and `pinned` are other words. Squashed forms (`userpassword`) and scripts
 * written without spaces (密码, パスワード) are the two places where a part of a word counts.
 */

import {
  SECRET_WORDS,
  SECRET_STEMS,
  SECRET_PHRASES,
  FILLER,
  SECRET_SUBSTRINGS,
  NOT_SQUASHED,
  UNSPACED_TERMS,
  TOKEN_QUANTITY_WORDS,
  ABOUT_NEXT,
  FLAG_BEFORE,
  PASS_NOT,
  PIN_OWNERS,
  WHOLE_NAMES,
  SENT_CODE_CONTEXT,
} from './secretVocabulary';

interface Words {
  /** Lower-case words, in order. */
  readonly lower: readonly string[];
  /** The same words as written (for the `PIN` acronym). */
  readonly original: readonly string[];
}

function splitWords(text: string): Words {
  const original = text
    .normalize('NFC')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((w) => w.length > 0);
  return { lower: original.map((w) => w.toLowerCase()), original };
}

function startsPhrase(words: readonly string[], i: number): readonly string[] | undefined {
  return SECRET_PHRASES.find((p) => p.every((part, k) => words[i + k] === part));
}

function isSecretWord(w: string): boolean {
  if (SECRET_WORDS.has(w) || SECRET_STEMS.some((s) => w.startsWith(s))) return true;
  return SECRET_SUBSTRINGS.some((s) => w.includes(s)) && !NOT_SQUASHED.some((n) => w.includes(n));
}

function isTokenCredential(words: readonly string[], i: number): boolean {
  const w = words[i];
  if (w !== 'token' && w !== 'tokens') return false;
  const prev = words[i - 1];
  const next = words[i + 1];
  return !((prev !== undefined && TOKEN_QUANTITY_WORDS.has(prev)) || (next !== undefined && TOKEN_QUANTITY_WORDS.has(next)));
}

/**
 * The index just past a secret found at word `i`, or undefined. Phrases first, so that
 * `secret_key_id` is judged on the word after `secret key`.
 */
function secretAt(words: readonly string[], i: number): number | undefined {
  const phrase = startsPhrase(words, i);
  if (phrase) return i + phrase.length;
  const w = words[i] ?? '';
  return isSecretWord(w) || isTokenCredential(words, i) ? i + 1 : undefined;
}

/** Free text (a description, a message): every secret word or phrase counts. */
function textLooksSecret(text: string): boolean {
  if (UNSPACED_TERMS.some((t) => text.includes(t))) return true;
  const { lower, original } = splitWords(text);
  const words = lower.filter((w) => !FILLER.has(w));
  // "PIN" in capitals is the acronym; "pin" is also a verb ("Pin this note").
  if (original.includes('PIN')) return true;
  return words.some((_, i) => secretAt(words, i) !== undefined);
}

/**
 * A name (a property key or a field's title): the words above, unless the name is about the
 * secret (`password_length`, `has_password`), plus the short forms people use for names only.
 */
function nameLooksSecret(name: string): boolean {
  if (UNSPACED_TERMS.some((t) => name.includes(t))) return true;
  const { lower, original } = splitWords(name);
  if (original.includes('PIN')) return true;
  const words = lower.filter((w) => !FILLER.has(w));
  // Trailing digits are numbering: `pass1`, `pin_2`.
  let end = words.length;
  while (end > 0 && /^\p{N}+$/u.test(words[end - 1] ?? '')) end--;
  const core = words.slice(0, end);
  if (core.length === 0) return false;
  if (WHOLE_NAMES.has(core.join(' '))) return true;
  for (let i = 0; i < core.length; i++) {
    const past = secretAt(core, i);
    if (past === undefined) continue;
    const next = core[past];
    const prev = core[i - 1];
    const about = (next !== undefined && ABOUT_NEXT.has(next)) || (prev !== undefined && FLAG_BEFORE.has(prev));
    if (!about) return true;
  }
  const last = core[core.length - 1] ?? '';
  const beforeLast = core[core.length - 2];
  if (core.includes('pw') || core.includes('bearer')) return true;
  if (last === 'pass' && (beforeLast === undefined || !PASS_NOT.has(beforeLast))) return true;
  if (last === 'pin' && beforeLast !== undefined && PIN_OWNERS.has(beforeLast)) return true;
  return last === 'cookie' || last === 'authorization';
}

/**
 * True when a field's key, title or description suggests it asks for a secret: a password (in
 * any style or common language), a token, an API/access/private key, a credential, a one-time or
 * recovery code, a session cookie, a connection string, a card number, CVV, SSN or PIN.
 * Word-based, so `tokenizer`, `max_tokens`, `secretary` or `passwordless` do not match.
 */
export function looksSecret(key: string, title?: string, description?: string): boolean {
  return (
    nameLooksSecret(key) || (title !== undefined && nameLooksSecret(title)) || (description !== undefined && textLooksSecret(description))
  );
}

/**
 * True when a form's message asks for a secret: the words above, or a code that was sent to the
 * person ("Enter the 6-digit code we texted you"). For a form with one field, whose name may say
 * nothing (`value`, `code`) while the message says what it is.
 */
export function messageAsksSecret(message: string): boolean {
  if (textLooksSecret(message)) return true;
  const { lower } = splitWords(message);
  return (lower.includes('code') || lower.includes('codes')) && lower.some((w) => SENT_CODE_CONTEXT.has(w));
}
