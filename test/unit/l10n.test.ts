import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { extractMessages, missingTranslations } from '../../scripts/l10n.mjs';
import { analyseUrl } from '../../src/elicitation/safety/url';
import type { FormWarning } from '../../src/elicitation/safety/text';
import type { SchemaNote } from '../../src/elicitation/form/schemaRules';
import type { ValidationIssue } from '../../src/elicitation/form/issues';
import { formWarningText } from '../../src/ui/wording/formText';
import { issueText, schemaNoteText } from '../../src/elicitation/form/sentences';
import { urlReasonText } from '../../src/ui/wording/urlReasons';
import { displayText } from '../../src/shared/displayText';
import { whereDefinedText } from '../../src/ui/wording/serverSource';
import { bundleLocale } from './support/localize';

describe('localization bundles', () => {
  it('l10n/bundle.l10n.json lists exactly the messages in src, as @vscode/l10n-dev extracts them (run node scripts/l10n.mjs)', async () => {
    const onDisk = JSON.parse(readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
    const extracted = await extractMessages();
    assert.deepEqual(Object.keys(onDisk).sort(), Object.keys(extracted).sort());
  });

  it('every message and manifest string has a German translation', async () => {
    assert.deepEqual(await missingTranslations(), { de: [] });
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

// The wording modules are where codes from the pure modules become sentences: every code path
// must find its German text (the bundle locale throws on a message it lacks).
describe('wording in German', () => {
  const de = bundleLocale('de');

  it('names every place a server is defined, as the file a user would open', () => {
    const en = { t: (m: string) => m };
    const folder = '/w/app';
    assert.equal(whereDefinedText({ kind: 'workspaceFile', file: `${folder}/.vscode/mcp.json`, folder }, en), '.vscode/mcp.json');
    assert.equal(whereDefinedText({ kind: 'workspaceFile', file: `${folder}/.mcp.json`, folder, format: 'portable' }, en), '.mcp.json');
    assert.equal(
      whereDefinedText({ kind: 'workspaceFile', file: 'C:\\w\\team.code-workspace', folder, format: 'workspaceSettings' }, en),
      'team.code-workspace',
    );
    assert.equal(
      whereDefinedText({ kind: 'userFile', file: '/h/.config/Code/User/mcp.json', origin: 'profile' }, de),
      'Benutzerdatei mcp.json',
    );
    assert.equal(
      whereDefinedText({ kind: 'userFile', file: '/h/.copilot/mcp-config.json', origin: 'copilot' }, de),
      'Copilot-Datei mcp-config.json',
    );
    assert.equal(whereDefinedText({ kind: 'setting', scope: 'workspace' }, de), 'Einstellung mcpElicitation.servers');
  });

  it('words every url finding', () => {
    const urls = [
      '',
      'x'.repeat(3000),
      '//example.com/',
      '/oauth',
      'https://[',
      'https://a..b/',
      'ftp://example.com/',
      'http://example.com/',
      ' https://example.com/',
      'https://exa mple.com/',
      'https://exa\u200bmple.com/',
      'https://example.com\\a',
      'https:example.com/',
      'https://ex%61mple.com/',
      'https://127.0.0.1/',
      'https://10.0.0.1/',
      'https://169.254.1.1/',
      'https://100.64.0.1/',
      'https://0.0.0.0/',
      'https://169.254.169.254/',
      'https://224.0.0.1/',
      'https://8.8.8.8/',
      'https://[::ffff:10.0.0.1]/',
      'https://printer.local/',
      'https://intranet/',
      'https://localhost/',
      'https://metadata.google.internal/',
      'https://u@example.com/',
      'https://@example.com/',
      'https://\u0430pple.com/',
      'https://ｅxample.com/',
      'https://example.com:8443/',
    ];
    const codes = new Set<string>();
    for (const url of urls) {
      for (const r of analyseUrl(url).reasons) {
        codes.add(r.code);
        assert.notEqual(urlReasonText(r, de, undefined), '');
      }
    }
    for (const because of ['setting', 'localServer'] as const) {
      for (const remote of [undefined, displayText('ssh-remote')]) {
        assert.equal(
          urlReasonText({ code: 'httpLoopbackAllowed', severity: 'warn', host: 'localhost', because }, de, remote).includes('localhost'),
          true,
        );
      }
    }
    assert.ok(codes.size >= 20, [...codes].join(', '));
  });

  it('words every form warning, schema note and validation issue', () => {
    const warnings: FormWarning[] = [
      { code: 'linkInMessage', url: 'u' },
      ...(['title', 'description', 'optionLabel'] as const).map((place): FormWarning => ({
        code: 'linkInField',
        field: 'f',
        place,
        url: 'u',
      })),
      { code: 'secretField', field: 'f' },
      ...(['title', 'description', 'optionLabels'] as const).map((part): FormWarning => ({ code: 'shortened', field: 'f', part })),
    ];
    for (const w of warnings) assert.match(formWarningText(w, de), w.code === 'linkInMessage' ? /\(u\)/ : /„f“/);
    const notes: SchemaNote[] = [
      { code: 'enumNamesDeprecated', path: 'p' },
      { code: 'notAString', path: 'p', keyword: 'title' },
      { code: 'duplicateLabel', path: 'p', label: '"x"' },
    ];
    for (const n of notes) assert.match(schemaNoteText(n, de), /^p: /);
    const issues: ValidationIssue[] = [
      { code: 'required' },
      ...(['text', 'number', 'integer', 'boolean', 'option', 'options'] as const).map((expected): ValidationIssue => ({
        code: 'type',
        expected,
      })),
      ...(['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const).flatMap((code): ValidationIssue[] => [
        { code, limit: 1 },
        { code, limit: 3 },
      ]),
      ...['email', 'uri', 'date', 'date-time', 'ipv4'].map((format): ValidationIssue => ({ code: 'format', format })),
      { code: 'pattern', pattern: '^a$' },
      { code: 'pattern', pattern: undefined },
      { code: 'enum' },
      { code: 'notInList' },
      { code: 'uniqueItems' },
      { code: 'tooComplex' },
      { code: 'unexpectedFields', keys: ['k'] },
      { code: 'unknownField', key: 'k' },
      { code: 'notANumber', integer: true },
      { code: 'notANumber', integer: false },
      { code: 'numberTooLarge' },
      { code: 'fraction' },
      { code: 'inexact' },
      { code: 'noSuchOption', options: ['a'], more: true, part: undefined },
      { code: 'noSuchOption', options: ['a'], more: false, part: 'b' },
    ];
    for (const i of issues) assert.notEqual(issueText(i, de), '');
    assert.equal(issueText({ code: 'minLength', limit: 3 }, de), 'Muss mindestens 3 Zeichen lang sein');
  });
});
