// Production code has no test backdoor (issues 20 and 22): it reads no test environment variable,
// imports nothing from test/, and the bundle users get carries neither. The in-host tests reach
// the services through the test build (test/host/), which the package never contains.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.posix.join(dir, name);
    return statSync(path.join(root, rel)).isDirectory() ? files(rel) : rel.endsWith('.ts') ? [rel] : [];
  });
}

/** What a test seam in shipped code would contain. */
const SEAMS = [/MCP_TEST_/, /MCP_BENCH_/, /__testing/, /mcpElicitationTest\./, /TestServices|TestHooks/];

void describe('no test seams in production code', () => {
  void it('no source file reads a test variable, names a test hook or imports from test/', () => {
    const offenders = files('src').flatMap((f) => {
      const text = readFileSync(path.join(root, f), 'utf8');
      const hits = SEAMS.filter((re) => re.test(text)).map(String);
      if (/from\s+['"](\.\.\/)+test\//.test(text)) hits.push('imports from test/');
      return hits.map((h) => `${f}: ${h}`);
    });
    assert.deepEqual(offenders, []);
  });

  void it('the bundle of src/extension.ts carries none of them', async () => {
    // Every module the extension can load, lazy ones included (no lazy split here), unminified.
    const r = await esbuild.build({
      absWorkingDir: root,
      entryPoints: ['src/extension.ts'],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
      logLevel: 'silent',
    });
    const production = r.outputFiles.map((f) => f.text).join('\n');
    assert.ok(production.length > 100_000, 'the whole extension was bundled');
    assert.deepEqual(SEAMS.filter((re) => re.test(production)).map(String), []);
    // The check can fail: the test build's entry has its seams.
    const testBuild = ['test/host/extension.ts', 'test/host/access.ts', 'test/host/testServices.ts']
      .map((f) => readFileSync(path.join(root, f), 'utf8'))
      .join('\n');
    for (const re of [/mcpElicitationTest\./, /TestServices|TestHooks/]) assert.match(testBuild, re);
  });
});
