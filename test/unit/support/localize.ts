/**
 * `vscode.l10n` stand-ins for the wording modules in plain Node: English, as VS Code words a
 * message without a translation, and a bundle's locale that fails on any message it lacks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { english, type Localize } from '../../../src/shared/localize';

export { english };

/** Translates through `l10n/bundle.l10n.<locale>.json`; throws for a message the bundle lacks. */
export function bundleLocale(locale: string): Localize {
  const file = path.join(__dirname, '..', '..', '..', 'l10n', `bundle.l10n.${locale}.json`);
  const bundle = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  return {
    t: (message, ...args) => {
      const translated = bundle[message];
      if (typeof translated !== 'string' || translated === '') throw new Error(`no ${locale} translation for: ${message}`);
      return english.t(translated, ...args);
    },
  };
}
