/**
 * One factory per engine (issue 20): Ajv is built in one file, so the answer validator, Run Tool
 * and the SDK shims judge JSON with the same options, and a new use cannot drift into its own; and
 * JSONC has one parser, VS Code's jsonc-parser.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createAjv } from '../../src/elicitation/form/ajvFactory';

const root = path.resolve(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(rel);
    return name.endsWith('.ts') ? [rel] : [];
  });
}

const sources = [...sourceFiles('src'), ...sourceFiles('webview')].map((f) => ({
  file: f,
  text: readFileSync(path.join(root, f), 'utf8'),
}));

void describe('one engine per job', () => {
  void it('`new Ajv` appears in one file only: the factory', () => {
    assert.deepEqual(
      sources.filter((s) => /\bnew\s+Ajv\b/.test(s.text)).map((s) => s.file),
      ['src/elicitation/form/ajvFactory.ts'],
    );
  });

  void it('only the factory loads ajv or ajv-formats as values (an import or its lazy require)', () => {
    const valueImport = /^\s*import\s+(?!type\b)[^;]*from\s+['"](ajv|ajv-formats)['"]/m;
    const lazyRequire = /\brequire\(\s*['"](ajv|ajv-formats)['"]\s*\)/;
    assert.deepEqual(
      sources.filter((s) => valueImport.test(s.text) || lazyRequire.test(s.text)).map((s) => s.file),
      ['src/elicitation/form/ajvFactory.ts'],
    );
  });

  void it('one JSONC parser: jsonc-parser, imported only by src/config/parse/ (parseJsonc and the comment-keeping edits)', () => {
    const importers = sources
      .filter((s) => /from\s+['"]jsonc-parser['"]/.test(s.text))
      .map((s) => s.file)
      .sort();
    assert.deepEqual(importers, ['src/config/parse/jsonc.ts', 'src/config/parse/serverMove.ts']);
    const otherParsers = sources
      .filter((s) => /from\s+['"](json5|comment-json|strip-json-comments|jsonc-eslint-parser)['"]/.test(s.text))
      .map((s) => s.file);
    assert.deepEqual(otherParsers, []);
  });

  void it('the factory engine ignores unknown keywords, checks formats and reads legacy-syntax patterns (\\_)', () => {
    const validate = createAjv().compile({
      type: 'object',
      properties: { mail: { type: 'string', format: 'email' }, id: { type: 'string', pattern: '^a\\_b$' } },
      'x-unknown': true,
    });
    assert.equal(validate({ mail: 'a@example.com', id: 'a_b' }), true);
    assert.equal(validate({ mail: 'not mail', id: 'a_b' }), false);
    assert.equal(validate({ mail: 'a@example.com', id: 'ab' }), false);
  });
});
