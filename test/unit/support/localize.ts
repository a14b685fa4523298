/**
 * `vscode.l10n` stand-ins for the wording modules in plain Node: English, as VS Code words a
 * message without a translation, and a bundle's locale that fails on any message it lacks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Localize } from '../../../src/ui/wording/localize';

function format(message: string, args: readonly (string | number | boolean)[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

export const english: Localize = { t: (message, ...args) => format(message, args) };

/** Translates through `l10n/bundle.l10n.<locale>.json`; throws for a message the bundle lacks. */
export function bundleLocale(locale: string): Localize {
  const file = path.join(__dirname, '..', '..', '..', 'l10n', `bundle.l10n.${locale}.json`);
  const bundle = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  return {
    t: (message, ...args) => {
      const translated = bundle[message];
      if (typeof translated !== 'string' || translated === '') throw new Error(`no ${locale} translation for: ${message}`);
      return format(translated, args);
    },
  };
}
