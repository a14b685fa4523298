/**
 * Look-alike detection for internationalised host names. Pure: no `vscode`, no Node-only imports.
 *
 * This is a deliberately small version of what browsers do (Chromium's IDN spoof checker,
 * UTS #39): per-label script mixing, plus a hand-made table of characters that pass for ASCII
 * letters. It only decides how strongly to warn; IDN hosts are never blocked.
 */

/** Scripts we name in messages. Anything else with a script of its own is reported as "Other". */
const SCRIPTS: readonly (readonly [name: string, test: RegExp])[] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Bopomofo', /\p{Script=Bopomofo}/u],
];

// Digits, hyphens and combining marks belong to no script of their own, so they never mix.
const SCRIPTLESS = /[\p{Script=Common}\p{Script=Inherited}]/u;

/**
 * Script sets that are normal within one label: East Asian writing combines several scripts,
 * and Latin letters routinely appear beside them (the same exceptions as UTS #39
 * "Highly Restrictive").
 */
const ALLOWED_MIXES: readonly ReadonlySet<string>[] = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** Returns the scripts used by the letters of one label, in order of first use. */
export function labelScripts(label: string): string[] {
  const found: string[] = [];
  for (const char of label) {
    if (SCRIPTLESS.test(char)) continue;
    const script = SCRIPTS.find(([, test]) => test.test(char))?.[0] ?? 'Other';
    if (!found.includes(script)) found.push(script);
  }
  return found;
}

/** True when a label combines scripts in a way ordinary names do not. */
export function isMixedScript(scripts: readonly string[]): boolean {
  if (scripts.length < 2) return false;
  return !ALLOWED_MIXES.some((allowed) => scripts.every((script) => allowed.has(script)));
}

/**
 * Lower-case characters that render like an ASCII letter in common fonts. Host names are
 * lower-cased by IDNA before we see them, so upper-case look-alikes are not needed.
 */
const CONFUSABLES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    // Cyrillic
    а: 'a',
    в: 'b',
    ь: 'b',
    с: 'c',
    ԁ: 'd',
    е: 'e',
    ҽ: 'e',
    һ: 'h',
    і: 'i',
    ј: 'j',
    к: 'k',
    ӏ: 'l',
    м: 'm',
    п: 'n',
    о: 'o',
    р: 'p',
    ԛ: 'q',
    г: 'r',
    ѕ: 's',
    т: 't',
    ѵ: 'v',
    ԝ: 'w',
    ш: 'w',
    х: 'x',
    у: 'y',
    ү: 'y',
    // Greek
    α: 'a',
    ϲ: 'c',
    ε: 'e',
    ι: 'i',
    ϳ: 'j',
    κ: 'k',
    ν: 'v',
    ο: 'o',
    ρ: 'p',
    τ: 't',
    υ: 'u',
    ω: 'w',
    χ: 'x',
    γ: 'y',
    // Armenian
    ա: 'w',
    հ: 'h',
    ո: 'n',
    ս: 'u',
    օ: 'o',
    ց: 'g',
    զ: 'q',
    // Latin letters outside ASCII that drop the feature telling them apart
    ı: 'i',
    ɩ: 'i',
    ȷ: 'j',
    ɑ: 'a',
    ɡ: 'g',
    ǀ: 'l',
  }),
);

/** Replaces each look-alike character with the ASCII letter it imitates. */
export function skeleton(text: string): string {
  let out = '';
  for (const char of text) out += CONFUSABLES.get(char) ?? char;
  return out;
}

/**
 * True when a label contains non-ASCII characters but reads as a plain ASCII label once the
 * look-alikes are substituted, e.g. `аpple` (Cyrillic а) or all-Cyrillic `раураӏ`. Ordinary
 * words in other scripts (`пример`) are not flagged: they cannot pass for an ASCII name.
 */
export function isConfusableLabel(label: string): boolean {
  // eslint-disable-next-line no-control-regex -- the range is "anything outside ASCII"
  if (!/[^\x00-\x7f]/.test(label)) return false;
  return /^[a-z0-9-]+$/.test(skeleton(label));
}
