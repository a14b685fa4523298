// What activation does not need is loaded on first use (issue 20, item 7): loading the extension's
// code reads none of the libraries that live in files of their own (scripts/build.mjs, LAZY), and
// Ajv is read when the first schema is compiled.
import assert from 'node:assert/strict';
import Module from 'node:module';
import path from 'node:path';
import { describe, it } from 'node:test';
import vm from 'node:vm';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '..', '..');

/** The libraries scripts/build.mjs ships in files of their own, loaded on first use. */
const LAZY_LIBRARIES = ['ajv', 'ajv-formats', 'tldts', 'dotenv'];

/**
 * A stand-in for the `vscode` module that answers every property, call and `new` with itself:
 * enough for module-level code (`class … extends vscode.TreeItem`, enum reads) to run.
 */
function anything(): unknown {
  const target = function () {
    return undefined;
  };
  const proxy: unknown = new Proxy(target, {
    get: (_t, key) => (key === Symbol.toPrimitive ? () => '' : proxy),
    apply: () => proxy,
    construct: () => proxy as object,
  });
  return proxy;
}

/**
 * Bundles `entry` as the build does (vscode and the lazy libraries external), evaluates it with a
 * stubbed `vscode`, and returns its exports and the lazy libraries required so far.
 */
async function load(entry: string): Promise<{ exports: Record<string, unknown>; loaded: string[] }> {
  const r = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    external: ['vscode', ...LAZY_LIBRARIES],
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    logLevel: 'silent',
  });
  const loaded: string[] = [];
  const vscode = anything();
  const mod = new Module(path.join(root, 'dist', 'probe.js'));
  mod.filename = path.join(root, 'dist', 'probe.js');
  mod.paths = [path.join(root, 'node_modules')];
  const realRequire = Module.createRequire(mod.filename);
  const requireHook = (id: string): unknown => {
    if (id === 'vscode') return vscode;
    if (LAZY_LIBRARIES.includes(id)) loaded.push(id);
    return realRequire(id);
  };
  const text = r.outputFiles[0]?.text ?? '';
  // The bundle under test, wrapped as Node wraps a CommonJS file, with our own require.
  const run = vm.compileFunction(text, ['module', 'exports', 'require', '__filename', '__dirname'], { filename: mod.filename }) as (
    ...args: unknown[]
  ) => void;
  run(mod, mod.exports, requireHook, mod.filename, path.dirname(mod.filename));
  return { exports: mod.exports as Record<string, unknown>, loaded };
}

void describe('lazy loads', () => {
  void it('loading the extension reads none of Ajv, the Public Suffix List or dotenv', async () => {
    const { exports, loaded } = await load('src/extension.ts');
    assert.equal(typeof exports['activate'], 'function', 'the whole extension was loaded');
    assert.deepEqual(loaded, []);
  });

  void it('Ajv and its formats are read when the first engine is made, once', async () => {
    const { exports, loaded } = await load('src/elicitation/form/ajvFactory.ts');
    assert.deepEqual(loaded, []);
    const createAjv = exports['createAjv'] as () => { validate(schema: unknown, data: unknown): boolean };
    assert.equal(createAjv().validate({ type: 'string', format: 'email' }, 'not an address'), false);
    createAjv();
    assert.deepEqual(loaded, ['ajv', 'ajv-formats']);
  });
});
