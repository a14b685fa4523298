/**
 * What never reaches the log, at any level (Trace included): every known secret value (password
 * inputs, header values, env values, answers to secret-like fields), the value of any JSON key
 * that names a credential (by the form's own secret rule, plus header and OAuth names), and the
 * password, query string and fragment of every URL. Pure, so the rules are unit-tested.
 */
import { looksSecret } from '../shared/secretNames';

export const REDACTED = '[redacted]';

// Headers and OAuth fields whose names the form's rule (made for field names) does not cover.
const CREDENTIAL_KEYS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'code_verifier',
  'id_token',
  'assertion',
  'client_assertion',
  'mcp-session-id',
  'env',
]);
// Named like a secret by the form's rule, but protocol bookkeeping that a trace needs.
const NOT_SECRET = new Set(['progresstoken', 'progress_token']);

/** `whole`: the value goes, whatever its shape (headers, env). `primitive`: a string, number or list goes. */
function keyKind(key: string): 'whole' | 'primitive' | undefined {
  const lower = key.toLowerCase();
  if (CREDENTIAL_KEYS.has(lower)) return 'whole';
  if (NOT_SECRET.has(lower)) return undefined;
  return looksSecret(key) ? 'primitive' : undefined;
}

// A JSON string: the quotes and everything between them, escapes included.
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
// `"key": value` where the value is a string, a number, a literal, or a flat object or array
// (`"headers": {...}`, `"env": {...}`): enough for the messages we log, and linear.
const KEY_VALUE = new RegExp(
  String.raw`(${JSON_STRING})(\s*:\s*)(${JSON_STRING}|-?\d[\d.eE+-]*|true|false|null|\{[^{}]*\}|\[[^[\]]*\])`,
  'g',
);

/** How deep JSON written inside a JSON string is looked into (a tool's text result that is JSON is one level). */
const MAX_STRING_DEPTH = 3;

function redactJsonKeys(text: string, depth = 0): string {
  return text.replace(KEY_VALUE, (whole, rawKey: string, colon: string, value: string) => {
    let key: string;
    try {
      key = JSON.parse(rawKey) as string;
    } catch {
      return whole;
    }
    const kind = keyKind(key);
    const nested = value.startsWith('{');
    if (kind === 'whole' || (kind === 'primitive' && !nested)) return `${rawKey}${colon}"${REDACTED}"`;
    // A schema's `"password": {"type": "string"}`, or an answer's `"content": {...}`: look inside.
    if (nested) return `${rawKey}${colon}${redactJsonKeys(value.slice(1, -1), depth).replace(/^/, '{')}}`;
    // A list of objects (a tool result's `"content": [{…}]`): its members' keys count too.
    if (value.startsWith('[')) return `${rawKey}${colon}[${redactJsonKeys(value.slice(1, -1), depth)}]`;
    // JSON inside a string: tools return JSON as text (`"text": "{\"access_token\": …}"`), and
    // its keys are escaped out of reach of the pattern above. Look inside the decoded string.
    if (value.startsWith('"') && value.includes('\\"') && depth < MAX_STRING_DEPTH) {
      let inner: string;
      try {
        inner = JSON.parse(value) as string;
      } catch {
        return whole;
      }
      const cleaned = redactJsonKeys(inner, depth + 1);
      return cleaned === inner ? whole : `${rawKey}${colon}${JSON.stringify(cleaned)}`;
    }
    return whole;
  });
}

// The query (`?…`) and fragment (`#…`) of a URL: tokens, codes and keys travel there. It runs to
// the first space, quote or angle bracket; a backslash ends it only before a quote (`\"`, the end
// of the JSON string the URL is logged in), so `?k=a\b&token=…` and `\u0026token=…` go whole.
const URL_TAIL = /(\b[a-z][a-z0-9+.-]{1,31}:\/\/[^\s"'<>?#\\]*)[?#](?:[^\s"'<>\\]|\\(?!"))*/gi;

// The user-info of a URL (`postgres://user:pass@host`, `https://ghp_…@github.com`): up to the
// authority's last `@`, since a password may hold an unescaped one.
const URL_USER_INFO = /(\b[a-z][a-z0-9+.-]{1,31}:\/\/)([^\s"'<>/?#\\]*)@/gi;
/** A user name this long is a token used as one (`https://<token>@host`), not a login. */
const TOKEN_AS_USER_CHARS = 16;

function redactUserInfo(_m: string, scheme: string, info: string): string {
  const colon = info.indexOf(':');
  if (colon >= 0) return `${scheme}${info.slice(0, colon)}:${REDACTED}@`;
  return `${scheme}${info.length >= TOKEN_AS_USER_CHARS ? REDACTED : info}@`;
}

/** Every URL in `text` without its password (or a token in the user name), query string and fragment. */
export function redactUrls(text: string): string {
  return text.replace(URL_USER_INFO, redactUserInfo).replace(URL_TAIL, (_m, base: string) => `${base}?${REDACTED}`);
}

// `KEY=value`, `key: value`, `--key value` and `Bearer value` in free text (stderr, error messages, command lines).
// A value ends where a URL's tail does: a backslash before a quote closes the JSON string it is in.
const ASSIGNMENT = /\b([A-Za-z_][A-Za-z0-9_.-]{1,63})(=)((?:[^\s"',;&\\]|\\(?!"))+)/g;
const COLON = /\b([A-Za-z_][A-Za-z0-9_.-]{1,63})(:[ \t]*)((?:[^\s"',;&\\]|\\(?!"))+)/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi;
// `--api-key sk-…` on a logged command line: the flag names the secret, the next word is it.
const FLAG_VALUE = /(^|\s)(--?[A-Za-z][A-Za-z0-9_-]{1,63})(\s+)([^\s"'-][^\s"']*)/g;

function redactFreeText(text: string): string {
  return text
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(FLAG_VALUE, (whole, lead: string, flag: string, gap: string) =>
      looksSecret(flag.replace(/^-+/, '')) ? `${lead}${flag}${gap}${REDACTED}` : whole,
    )
    .replace(ASSIGNMENT, secretAssignment)
    .replace(COLON, secretAssignment);
}

function secretAssignment(whole: string, key: string, sep: string, value: string): string {
  // `Authorization: Bearer …`: the scheme stays readable, BEARER has taken the credential.
  if (/^(Bearer|Basic)$/i.test(value)) return whole;
  return looksSecret(key) && !key.includes('.') ? `${key}${sep}${REDACTED}` : whole;
}

/** One log line as it may be written: see the module comment. */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = redactUrls(redactFreeText(redactJsonKeys(text)));
  for (const s of secrets) {
    if (s && out.includes(s)) out = out.split(s).join(REDACTED);
    // The same value as it appears inside a JSON string (quotes, backslashes, newlines escaped).
    const escaped = JSON.stringify(s).slice(1, -1);
    if (escaped !== s && out.includes(escaped)) out = out.split(escaped).join(REDACTED);
  }
  return out;
}

/**
 * The env values of a launch to keep out of the log. A value under a secret-looking name always;
 * any other value long enough to be a credential (8+ characters), so a token under a plain name
 * (`GH=ghp_…`) is covered too, while `1`, `true` or `info` do not blank those words everywhere.
 */
export function envSecrets(env: Readonly<Record<string, string | null>>): string[] {
  return Object.entries(env).flatMap(([key, value]) => (value !== null && (looksSecret(key) || value.length >= 8) ? [value] : []));
}
