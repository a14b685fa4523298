#!/usr/bin/env node
// Extracts every `vscode.l10n.t('…')` message in src/ into l10n/bundle.l10n.json (the English
// bundle) with @vscode/l10n-dev, the extractor `npx @vscode/l10n-dev export` runs, and reports
// translations that are missing.
//   node scripts/l10n.mjs            write the bundle, list missing German strings
//   node scripts/l10n.mjs --check    exit 1 if the bundle is stale or a translation is missing
import { getL10nJson } from '@vscode/l10n-dev';
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

/**
 * A source file as the extractor reads it. The wording modules take `vscode.l10n` as a parameter
 * named `l10n` (src/shared/localize.ts), so that they run in plain Node; l10n-dev only knows
 * `l10n.t` through an import from 'vscode', so such a file is shown the import its parameter
 * stands for. A file calling `safe.l10n.t` is shown it as `vscode.l10n.t`.
 * @param {string} file
 */
function scriptFile(file) {
  let contents = readFileSync(file, 'utf8');
  // `safe.l10n.t` (src/util/safeText.ts) is `vscode.l10n.t` restricted to neutralised arguments.
  if (/\bsafe\.l10n\.t\(/.test(contents)) {
    contents = contents.replace(/\bsafe\.l10n\.t\(/g, 'vscode.l10n.t(');
    if (!/^import \* as vscode from 'vscode';$/m.test(contents)) contents = `import * as vscode from 'vscode';\n${contents}`;
  }
  const injected = /\bLocalize\b/.test(contents) && !/^import [^;]*\bfrom 'vscode';$/m.test(contents);
  return { extension: '.ts', contents: injected ? `import { l10n } from 'vscode';\n${contents}` : contents };
}

/** @type {Promise<Record<string, string>> | undefined} */
let extracted;

/**
 * The messages, sorted, each its own English text. Only string literals: l10n-dev refuses a
 * message built from a template with substitutions, which could not be translated. Extracted once
 * per process (parsing every file takes seconds).
 * @returns {Promise<Record<string, string>>}
 */
export function extractMessages() {
  extracted ??= extract();
  return extracted;
}

async function extract() {
  const bundle = await getL10nJson([...sources(path.join(repoRoot, 'src'))].map(scriptFile));
  /** @type {[string, string][]} */
  const entries = [];
  for (const [key, value] of Object.entries(bundle)) {
    // A `{ message, comment }` entry would need the comment kept for translators; none is used yet.
    if (typeof value !== 'string') {
      throw new Error(`l10n message with a translator comment is not supported by scripts/l10n.mjs yet: ${key}`);
    }
    entries.push([key, value]);
  }
  return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
}

export async function missingTranslations() {
  const bundle = await extractMessages();
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
      ...Object.keys(nls)
        .filter((k) => typeof tn[k] !== 'string' || tn[k] === '')
        .map((k) => `package.nls: ${k}`),
    ];
  }
  return missing;
}

/**
 * Writes the bundle (or, with `--check`, only compares it) and lists missing translations.
 * @returns {Promise<number>} the exit code
 */
async function main() {
  const bundlePath = path.join(repoRoot, 'l10n', 'bundle.l10n.json');
  const fresh = JSON.stringify(await extractMessages(), null, 2) + '\n';
  const check = process.argv.includes('--check');
  let stale = false;
  try {
    stale = readFileSync(bundlePath, 'utf8') !== fresh;
  } catch {
    stale = true;
  }
  if (!check) writeFileSync(bundlePath, fresh);
  const missing = await missingTranslations();
  let bad = check && stale;
  if (check && stale) process.stdout.write('l10n/bundle.l10n.json is stale: run node scripts/l10n.mjs\n');
  for (const [loc, list] of Object.entries(missing)) {
    if (list.length) {
      bad = true;
      process.stdout.write(`${loc}: ${list.length} missing\n${list.map((m) => `  ${m}`).join('\n')}\n`);
    }
  }
  return check && bad ? 1 : 0;
}

// No top-level await: the unit tests load this module through tsx as CommonJS.
if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${String(err)}\n`);
      process.exit(1);
    },
  );
}
