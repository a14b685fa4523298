// No MCP SDK line reaches the extension host's console from what we ship: after a production
// build (scripts/build.mjs, as `npm run package` and the benchmark run it), the SDK's warnings are
// still in the bundles, but as arguments of src/util/sdkConsole.ts's calls, which our redacting log
// receives, and no bundle with SDK code calls `console` at all. ajv's lines take the same route.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';

const root = path.resolve(__dirname, '..', '..');

/**
 * The tree in a folder of its own, as bench/run.mjs copies it: a production build empties dist/,
 * which in place would pull the bundles from under an in-host run of the same worktree.
 */
function copyOfTree(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcp-eh-sdkconsole-'));
  const skip = new Set(['node_modules', '.git', '.vscode-test', 'out', 'dist', 'test-results', 'demo', 'bench', 'docs']);
  cpSync(root, dir, {
    recursive: true,
    filter: (src) => {
      const [top = '', second] = path.relative(root, src).split(path.sep);
      // Of the tests, only the test build's entry and factory (test/host/), which `--test-entry` builds.
      return !skip.has(top) && !(top === 'test' && second !== undefined && second !== 'host');
    },
  });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

const dir = copyOfTree();
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every `.js` file of a build output folder, by name. */
function bundles(folder: string): Map<string, string> {
  return new Map(
    readdirSync(folder)
      .filter((f) => f.endsWith('.js'))
      .map((f) => [f, readFileSync(path.join(folder, f), 'utf8')]),
  );
}

/**
 * dotenv's file holds no SDK code; its own console calls are behind its `debug` option, which
 * `dotenv.parse` (src/config/parse/envFile.ts) never sets.
 */
const NOT_SDK = new Set(['dotenv.js']);
const CONSOLE_CALL = /(?<![\w$.])console\s*\.\s*\w+\s*\(/g;

void describe('the shipped bundles send no MCP SDK line to the console', () => {
  void it('a production build (with the benchmark’s test entry): the SDK’s warnings are there, but no bundle with SDK code calls console', () => {
    // `--test-entry`: the benchmark's build, which makes the test build's extension (out/testExtension) minified too.
    const r = spawnSync(process.execPath, [path.join(dir, 'scripts', 'build.mjs'), '--production', '--test-entry'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, `the build failed:\n${r.stdout}\n${r.stderr}`);

    const shipped = bundles(path.join(dir, 'dist'));
    const testBuild = path.join(dir, 'out', 'testExtension', 'dist');
    assert.ok(existsSync(path.join(testBuild, 'extension.js')), 'the benchmark’s test build was made');
    const files = [...shipped].concat([...bundles(testBuild)].map(([f, text]) => [`testExtension/${f}`, text]));

    // The SDK's own warnings still ship (its sign-in code in httpTransports.js, the Client in extension.js).
    const warnings = (text: string): number => text.split('[mcp-sdk]').length - 1;
    assert.ok(warnings(shipped.get('extension.js') ?? '') > 0, 'the Client’s warnings are in dist/extension.js');
    assert.ok(
      (shipped.get('httpTransports.js') ?? '').includes('[mcp-sdk] OAuth '),
      'the invalid_grant warning is in dist/httpTransports.js',
    );

    const calls = files.flatMap(([f, text]) =>
      NOT_SDK.has(path.basename(f)) ? [] : [...text.matchAll(CONSOLE_CALL)].map((m) => `${f}: ${text.slice(m.index, m.index + 90)}`),
    );
    assert.deepEqual(calls, [], 'console calls left in bundles with SDK code');
    // ajv ships once, in dist/ajv.js (its logger check's message is in its core), so the SDKs' own
    // validators, whose engines would warn to the console, are not shipped; and every file that
    // builds our engine (ajvFactory.ts: its `pattern` engine's name) gives ajv the route that
    // dist/extension.js holds, not a copy that no route reads (the build fails on a copy).
    const ajvCore = (text: string): boolean => text.includes('logger must implement log, warn and error methods');
    assert.deepEqual(
      files.filter(([, text]) => ajvCore(text)).map(([f]) => f),
      ['ajv.js', 'testExtension/ajv.js'],
    );
    const engines = files.filter(([f, text]) => text.includes('"compilePattern"') && path.basename(f) !== 'extension.js');
    assert.ok(
      engines.some(([f]) => f === 'preview.js'),
      `the preview builds an engine: ${engines.map(([f]) => f).join(', ')}`,
    );
    for (const [f, text] of engines) {
      assert.ok(text.includes('require("./extension.js")["mcp-sdk-console"]'), `${f} takes the console route from dist/extension.js`);
    }
    // And the warning above by name: an argument of the sdkConsole route, not of console.warn.
    const invalidGrant = /([\w$.]+)\(`\[mcp-sdk\] OAuth /.exec(shipped.get('httpTransports.js') ?? '');
    assert.match(invalidGrant?.[1] ?? '', /\.sdkConsole\.warn$/);
  });
});
