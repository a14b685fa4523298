#!/usr/bin/env node
// Extracts every `vscode.l10n.t('…')` message in src/ into l10n/bundle.l10n.json (the English
// bundle, the shape @vscode/l10n-dev produces) and reports translations that are missing.
//   node scripts/l10n.mjs            write the bundle, list missing German strings
//   node scripts/l10n.mjs --check    exit 1 if the bundle is stale or a translation is missing
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './hostPaths.mjs';
import { readJson } from './lib/json.mjs';

export const LOCALES = ['de'];

/**
 * @param {string} dir
 * @returns {Generator<string>}
 */
function* sources(dir) {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) yield* sources(p);
    else if (name.endsWith('.ts')) yield p;
  }
}

/** The messages, in first-seen order. Only string literals: a computed message cannot be translated. */
export function extractMessages() {
  const re = /l10n\.t\(\s*'((?:[^'\\]|\\.)*)'/g;
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const file of sources(path.join(repoRoot, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(re)) {
      const msg = /** @type {string} */ (m[1]).replace(/\\'/g, "'").replace(/\\\\/g, '\\');
      if (!out.has(msg)) out.set(msg, msg);
    }
  }
  return Object.fromEntries([...out.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

export function missingTranslations() {
  const bundle = extractMessages();
  const nls = /** @type {Record<string, string>} */ (readJson(path.join(repoRoot, 'package.nls.json')));
  /** @type {Record<string, string[]>} */
  const missing = {};
  for (const loc of LOCALES) {
    /**
     * @param {string} f
     * @returns {Record<string, unknown>}
     */
    const read = (f) => {
      try {
        return /** @type {Record<string, unknown>} */ (readJson(path.join(repoRoot, f)));
      } catch {
        return {};
      }
    };
    const t = read(`l10n/bundle.l10n.${loc}.json`);
    const tn = read(`package.nls.${loc}.json`);
    missing[loc] = [
      ...Object.keys(bundle).filter((k) => typeof t[k] !== 'string' || t[k] === ''),
      ...Object.keys(nls).filter((k) => typeof tn[k] !== 'string' || tn[k] === '').map((k) => `package.nls: ${k}`),
    ];
  }
  return missing;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bundlePath = path.join(repoRoot, 'l10n', 'bundle.l10n.json');
  const fresh = JSON.stringify(extractMessages(), null, 2) + '\n';
  const check = process.argv.includes('--check');
  let stale = false;
  try {
    stale = readFileSync(bundlePath, 'utf8') !== fresh;
  } catch {
    stale = true;
  }
  if (!check) writeFileSync(bundlePath, fresh);
  const missing = missingTranslations();
  let bad = check && stale;
  if (check && stale) process.stdout.write('l10n/bundle.l10n.json is stale: run node scripts/l10n.mjs\n');
  for (const [loc, list] of Object.entries(missing)) {
    if (list.length) {
      bad = true;
      process.stdout.write(`${loc}: ${list.length} missing\n${list.map((m) => `  ${m}`).join('\n')}\n`);
    }
  }
  process.exit(check && bad ? 1 : 0);
}
