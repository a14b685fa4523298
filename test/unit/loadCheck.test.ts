// The production build's last check (scripts/lib/loadCheck.mjs): what ships loads as the extension
// host loads it, the extension alone first, each lazy file after it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadCheck } from '../../scripts/lib/loadCheck.mjs';

const dirs: string[] = [];
/** A dist folder holding `files` (name → CommonJS source). */
function dist(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'load-check-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const lazyAjv = 'exports.ajv = { engine: true };\n';
const sharesFromExtension = "module.exports = { create: () => require('./extension.js').zod };\n";

void describe('load check (npm run build -- --production)', () => {
  void it('passes an extension that reads vscode at load and leaves its lazy files for later', () => {
    const dir = dist({
      'extension.js':
        "const vscode = require('vscode'); vscode.window.x; exports.zod = {}; exports.activate = () => require('./ajv.js');\n",
      'ajv.js': lazyAjv,
      'gateway.js': sharesFromExtension,
    });
    assert.deepEqual(loadCheck(dir, ['ajv', 'gateway']), []);
  });

  void it('fails an extension that reads a lazy file at load, and a lazy file that does not load', () => {
    const dir = dist({
      'extension.js': "require('./ajv.js'); exports.activate = () => undefined;\n",
      'ajv.js': lazyAjv,
      'gateway.js': "module.exports = require('./extension.js')['zod/v4'].object;\n",
    });
    const problems = loadCheck(dir, ['ajv', 'gateway']);
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0] ?? '', /^a lazy file does not load after dist\/extension\.js: gateway: /);
    assert.equal(problems[1], 'loading dist/extension.js already reads ajv.js: those are meant to load on first use');
  });
});
