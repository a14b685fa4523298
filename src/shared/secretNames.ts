/**
 * Whether a name reads like a secret: the one rule behind the form's secret-field warning, the
 * log's redaction and the rule that a remembered answer never holds a secret. Pure; in shared/ so
 * every layer uses the same rule.
 */

// Whole words that on their own mean a secret. `token` is handled separately (see below).
const SECRET_WORDS = new Set([
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'passcode',
  'pwd',
  'secret',
  'secrets',
  'credential',
  'credentials',
  'cvv',
  'cvc',
  'cvv2',
  'ssn',
  'otp',
  'apikey',
  'iban',
  'mnemonic',
]);
// Adjacent word pairs, checked after splitting camelCase, snake_case and kebab-case.
const SECRET_PAIRS = new Set([
  'api key',
  'access key',
  'private key',
  'secret key',
  'signing key',
  'encryption key',
  'ssh key',
  'card number',
  'cc number',
  'credit card',
  'security code',
  'social security',
  'seed phrase',
  'recovery phrase',
  'client secret',
  'bearer token',
  'pin code',
  'pin number',
]);
// Squashed forms that show up as one lower-case word (`userpassword`, `x_apikey`, `privatekey`).
const SECRET_SUBSTRINGS = [
  'password',
  'passwd',
  'apikey',
  'privatekey',
  'secretkey',
  'accesskey',
  'accesstoken',
  'authtoken',
  'refreshtoken',
  'clientsecret',
  'creditcard',
  'cardnumber',
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
