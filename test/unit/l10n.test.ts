import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { extractMessages, missingTranslations } from '../../scripts/l10n.mjs';

describe('localization bundles', () => {
  it('l10n/bundle.l10n.json lists exactly the messages in src (run node scripts/l10n.mjs)', () => {
    const onDisk = JSON.parse(readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
    const extracted = extractMessages() as Record<string, string>;
    assert.deepEqual(Object.keys(onDisk).sort(), Object.keys(extracted).sort());
  });

  it('every message and manifest string has a German translation', () => {
    assert.deepEqual(missingTranslations(), { de: [] });
  });

  it('translations keep every {n} placeholder', () => {
    const de = JSON.parse(readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.de.json'), 'utf8')) as Record<string, string>;
    for (const [en, t] of Object.entries(de)) {
      const want = (en.match(/\{\d+\}/g) ?? []).sort();
      const got = (t.match(/\{\d+\}/g) ?? []).sort();
      assert.deepEqual(got, want, `placeholders of "${en}"`);
    }
  });
});
