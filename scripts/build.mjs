#!/usr/bin/env node
// One esbuild call per target: the extension (CJS, vscode external) and the files it loads apart
// (LAZY below), the webview (browser IIFE), and the in-host test suite (CJS, vscode and mocha
// external). `--watch` rebuilds on change, `--production` minifies without source maps (used by
// `npm run package`), `--analyze` prints what each shipped file holds (scripts/lib/bundleReport.mjs).
// Builds other than `--production` also make the extension's test build (see writeTestExtension);
// `--production --test-entry` makes it minified, for the benchmark.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, testExtensionDir } from './hostPaths.mjs';
import { bundleReport } from './lib/bundleReport.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');
const testEntry = !production || process.argv.includes('--test-entry');

/**
 * The in-host suite is one bundle; this plugin turns the folder listing into its entry.
 * @returns {esbuild.Plugin}
 */
function integrationEntry() {
  const dir = path.join(repoRoot, 'test', 'integration');
  return {
    name: 'integration-entry',
    setup(build) {
      build.onResolve({ filter: /^integration-tests$/ }, () => ({ path: 'integration-tests', namespace: 'it' }));
      build.onLoad({ filter: /.*/, namespace: 'it' }, () => {
        const files = readdirSync(dir)
          .filter((f) => f.endsWith('.test.ts'))
          .sort();
        return {
          // require() inside a function keeps each test module lazy, so mocha's globals exist
          // (pre-require) before any `suite(...)` call runs.
          contents: `export function loadTests() {\n${files.map((f) => `  require(${JSON.stringify(path.join(dir, f))});`).join('\n')}\n}\n`,
          resolveDir: dir,
          loader: 'ts',
          watchDirs: [dir],
        };
      });
    },
  };
}

/**
 * zod (pulled in by the MCP SDK) re-exports every locale as a namespace the SDK touches, so tree
 * shaking keeps ~50 languages of error messages we never show. Keep only English.
 */
/** @type {esbuild.Plugin} */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}zod${path.sep}`) ? { path: 'zod-locales-en', namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, () => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(repoRoot, 'node_modules', 'zod', 'v4', 'locales', 'en.js'))};`,
      resolveDir: repoRoot,
    }));
  },
};

/**
 * The MCP SDK's Node shims (client and server alike) exist to hand the SDK a JSON Schema validator,
 * and each brings its own copy of ajv for it (about 150 KB minified); src/servers/sdkShims.ts
 * provides the same on the ajv we already ship.
 */
/** @type {esbuild.Plugin} */
const mcpSdkShims = {
  name: 'mcp-sdk-shims',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/(client|server)\/_shims$/ }, () => ({
      path: path.join(repoRoot, 'src', 'servers', 'sdkShims.ts'),
    }));
  },
};

/** @type {esbuild.BuildOptions} */
const integrationSuite = {
  entryPoints: { index: 'test/integration/index.ts' },
  // Inside the test build's folder: the suite calls the public API as code of our own extension,
  // which tells its callers by the folder their code lies in (src/api/caller.ts).
  outdir: path.join(testExtensionDir, 'test'),
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', 'mocha'],
  plugins: [integrationEntry(), mcpSdkShims],
};

/** 600 KB: the budget of dist/extension.js, minified (bench/run.mjs reports it too). */
const EXTENSION_BUDGET_BYTES = 600 * 1024;

/**
 * Files beside dist/extension.js, each built once and required by every bundle that uses it, so
 * dist/extension.js stays well under its budget and a library shared by two bundles ships once.
 *
 * `modules`: libraries. Every bundle that imports one of these package names gets a two-line stub
 * that requires the shared file, so one copy of the library (and of its classes, for `instanceof`)
 * serves the extension and every lazy file:
 * - ajv with ajv-formats: the form validator, Run Tool's argument check, the SDKs' output-schema
 *   check (src/servers/sdkShims.ts) and the preview checker share it;
 * - the Public Suffix List (tldts, ~130 KB), for the consent dialog's site name (urlNames.ts) and
 *   the preview checker; dotenv, for servers with an `envFile` (envFile.ts).
 * A library our code loads with `require()` on first use (tldts, dotenv) stays unread until then.
 * A shared file holds the whole library: nothing tells it which parts its users need. That costs
 * nothing for these (CommonJS, never tree-shaken); for zod and the MCP protocol schemas, which the
 * client (here) and the gateway (dist/gateway.js) each keep as far as they use them, a shared file
 * would hold all of zod (193 KB instead of 103 KB) and be loaded with the client, so they stay twins.
 *
 * `source`: our own code that only a command or a later step needs, required on first use:
 * - the agent gateway's server side: the MCP SDK's server, its HTTP transport and our relay (gateway.ts);
 * - Route / Give Back and the comment-keeping JSON editor they use (commands.ts);
 * - Preview Elicitation Form's payload checker (previewForm.ts);
 * - the consent dialog's sentences for what the url analysis found (urlConsent.ts).
 * Only modules without state of their own belong under `source`: a lazy file gets its own copy of
 * whatever of our code it imports (the libraries above it requires, like everyone else).
 * `npm run build -- --analyze` shows what each file holds and what still ships twice.
 */
/** @type {readonly ({ entry: string, modules: readonly string[], source?: undefined } | { entry: string, source: string, modules?: undefined })[]} */
const LAZY = [
  { entry: 'ajv', modules: ['ajv', 'ajv-formats'] },
  { entry: 'tldts', modules: ['tldts'] },
  { entry: 'dotenv', modules: ['dotenv'] },
  { entry: 'gateway', source: 'src/gateway/endpoint.ts' },
  { entry: 'routing', source: 'src/commands/routeCommands.ts' },
  { entry: 'preview', source: 'src/elicitation/form/preview.ts' },
  { entry: 'urlReasons', source: 'src/ui/wording/urlReasons.ts' },
];

/**
 * Sends imports of a LAZY file's modules or source to that file (`./<entry>.js`, beside the
 * bundle), except inside the file that holds them.
 * @param {string | undefined} self the LAZY entry being built, if any
 * @returns {esbuild.Plugin}
 */
function lazyApart(self) {
  return {
    name: 'lazy-apart',
    setup(build) {
      // A shared library's file: one namespace per package name, under that name.
      build.onResolve({ filter: /^lazy-entry:/ }, (args) => ({ path: args.path.slice('lazy-entry:'.length), namespace: 'lazy-entry' }));
      build.onLoad({ filter: /.*/, namespace: 'lazy-entry' }, (args) => {
        const modules = LAZY.find((l) => l.entry === args.path)?.modules ?? [];
        const lines = modules.map((m, i) => `import * as m${i} from ${JSON.stringify(m)};`);
        return {
          contents: `${lines.join('\n')}\nexport { ${modules.map((m, i) => `m${i} as ${JSON.stringify(m)}`).join(', ')} };\n`,
          resolveDir: repoRoot,
        };
      });
      // Everyone else's stand-in for a package name: the namespace from the shared file.
      build.onResolve({ filter: /.*/, namespace: 'lazy-stub' }, (args) => ({ path: args.path, external: true }));
      build.onLoad({ filter: /.*/, namespace: 'lazy-stub' }, (args) => {
        const [entry, module] = args.path.split('|');
        return { contents: `module.exports = require(${JSON.stringify(`./${entry}.js`)})[${JSON.stringify(module)}];\n`, loader: 'js' };
      });
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const hit = LAZY.find(
          (l) =>
            l.entry !== self &&
            (l.modules
              ? l.modules.includes(args.path)
              : args.path.startsWith('.') && path.resolve(args.resolveDir, args.path) + '.ts' === path.join(repoRoot, l.source)),
        );
        if (!hit) return undefined;
        return hit.modules ? { path: `${hit.entry}|${args.path}`, namespace: 'lazy-stub' } : { path: `./${hit.entry}.js`, external: true };
      });
    },
  };
}

/**
 * out/testExtension/: the extension folder the in-host tests and the benchmark load as the
 * development extension. Its dist/extension.js is the test build (test/host/extension.ts: the same
 * activation over the test factory); everything else is the real thing: the lazy bundles are
 * copied beside it, and what else the package ships (the allow-list in .vscodeignore: the
 * manifest, media/, l10n/…) is linked. The bundles are copies, not links, because VS Code tells
 * which extension a `require('vscode')` comes from by the real path of the requiring file.
 */
function writeTestExtension() {
  const dir = testExtensionDir;
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  for (const f of readdirSync(path.join(repoRoot, 'dist'))) {
    if (!/^extension\.js(\.map)?$/.test(f)) copyFileSync(path.join(repoRoot, 'dist', f), path.join(dir, 'dist', f));
  }
  const shipped = readFileSync(path.join(repoRoot, '.vscodeignore'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => l.slice(1).split('/')[0] ?? '');
  for (const name of new Set(shipped)) {
    if (name === 'dist') continue;
    // A glob at the top (package.nls*.json) names every file it matches.
    const re = new RegExp(`^${name.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
    for (const f of readdirSync(repoRoot).filter((f) => re.test(f))) symlinkSync(path.join(repoRoot, f), path.join(dir, f));
  }
}

/** @type {esbuild.BuildOptions[]} */
const targets = [
  {
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [zodEnglishOnly, lazyApart(undefined), mcpSdkShims],
  },
  // The extension as the in-host tests and the benchmark load it (see writeTestExtension).
  ...(testEntry
    ? [
        {
          entryPoints: { extension: 'test/host/extension.ts' },
          outdir: path.join(testExtensionDir, 'dist'),
          platform: /** @type {const} */ ('node'),
          format: /** @type {const} */ ('cjs'),
          target: 'node20',
          external: ['vscode'],
          plugins: [zodEnglishOnly, lazyApart(undefined), mcpSdkShims],
        },
      ]
    : []),
  ...LAZY.map((l) => ({
    entryPoints: { [l.entry]: l.modules ? `lazy-entry:${l.entry}` : l.source },
    outdir: 'dist',
    platform: /** @type {const} */ ('node'),
    format: /** @type {const} */ ('cjs'),
    target: 'node20',
    external: ['vscode'],
    plugins: [zodEnglishOnly, lazyApart(l.entry), mcpSdkShims],
  })),
  {
    entryPoints: { webview: 'webview/main.ts' },
    outdir: 'media',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  ...(production ? [] : [integrationSuite]),
];

/** @type {esbuild.BuildOptions} */
const common = {
  absWorkingDir: repoRoot,
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  metafile: true,
  legalComments: 'none',
  // jsonc-parser's `main` is a UMD build whose dynamic requires esbuild cannot follow.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  // “quotes” and other non-ASCII text stay as UTF-8 instead of growing into \u escapes.
  charset: 'utf8',
};

// Made afresh each time: nothing of an older test build stays in it.
if (testEntry) rmSync(testExtensionDir, { recursive: true, force: true });
if (watch) {
  for (const t of targets) {
    const ctx = await esbuild.context({ ...common, ...t, logLevel: 'info' });
    await ctx.watch();
  }
  // Its copies of the lazy bundles are not refreshed by the watch: build again before an in-host run.
  if (testEntry) writeTestExtension();
  process.stdout.write('[build] watching for changes\n');
} else {
  const t0 = Date.now();
  // A package ships dist/*.js (.vscodeignore): a file left from an older LAZY list must not go with it.
  if (production) rmSync(path.join(repoRoot, 'dist'), { recursive: true, force: true });
  const results = await Promise.all(targets.map((t) => esbuild.build({ ...common, ...t })));
  if (testEntry) writeTestExtension();
  const sizes = results.flatMap((r) =>
    Object.entries(r.metafile?.outputs ?? {})
      .filter(([f]) => f.endsWith('.js'))
      .map(([f, o]) => `${f} ${(o.bytes / 1024).toFixed(0)} KB`),
  );
  process.stdout.write(`[build] ${production ? 'production ' : ''}${sizes.join(', ')} in ${Date.now() - t0} ms\n`);
  // The size budget is checked where the minified file is made, so packaging fails before it ships.
  const mainBytes = results[0]?.metafile?.outputs['dist/extension.js']?.bytes ?? 0;
  if (production && mainBytes > EXTENSION_BUDGET_BYTES) {
    process.stderr.write(
      `[build] dist/extension.js is ${mainBytes} bytes, over its budget of ${EXTENSION_BUDGET_BYTES}: move code that activation does not need into LAZY (or run with --analyze to see what grew)\n`,
    );
    process.exitCode = 1;
  }
  // `--analyze`: each shipped file's size and biggest contributors, and what still ships twice.
  if (process.argv.includes('--analyze')) process.stdout.write(bundleReport(results.flatMap((r) => (r.metafile ? [r.metafile] : []))));
}
