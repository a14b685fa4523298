#!/usr/bin/env node
// One esbuild call per target: the extension (CJS, vscode external), the webview (browser IIFE),
// and the in-host test suite (CJS, vscode and mocha external). `--watch` rebuilds on change,
// `--production` minifies without source maps (used by `npm run package`). Builds other than
// `--production` also make the extension's test build (see writeTestExtension); `--production
// --test-entry` makes it minified, for the benchmark.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, testExtensionDir } from './hostPaths.mjs';

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
        const files = readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort();
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
 * The MCP client's Node shim exists to hand the SDK a JSON Schema validator, and brings a second
 * copy of ajv for it; src/servers/sdkShims.ts provides the same on the ajv we already bundle.
 */
/** @type {esbuild.Plugin} */
const mcpClientShims = {
  name: 'mcp-client-shims',
  setup(build) {
    build.onResolve({ filter: /^@modelcontextprotocol\/client\/_shims$/ }, () => ({ path: path.join(repoRoot, 'src', 'servers', 'sdkShims.ts') }));
  },
};

/** @type {esbuild.BuildOptions} */
const integrationSuite = {
  entryPoints: { index: 'test/integration/index.ts' },
  outdir: 'out/test/integration',
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', 'mocha'],
  plugins: [integrationEntry(), mcpClientShims],
};

/**
 * Code that activation does not need lives in files of its own, required on first use, so
 * dist/extension.js stays under its size budget (600 KB) and activation does not parse it:
 * - the Public Suffix List (tldts, ~130 KB), for the consent dialog's site name (urlNames.ts);
 * - dotenv, for servers with an `envFile` (envFile.ts);
 * - the agent gateway's server side: the MCP SDK's server, its HTTP transport and our relay (gateway.ts);
 * - Route / Give Back and the comment-keeping JSON editor they use (commands.ts);
 * - Preview Elicitation Form's payload checker (previewForm.ts);
 * - the consent dialog's sentences for what the url analysis found (urlConsent.ts).
 * Only modules without state of their own belong here: a lazy file gets its own copy of whatever
 * it imports.
 * `module` is a package name; `source` alone is one of our files, matched by its resolved path.
 */
/** 600 KB: the budget of dist/extension.js, minified (bench/run.mjs reports it too). */
const EXTENSION_BUDGET_BYTES = 600 * 1024;

const LAZY = [
  { entry: 'tldts', source: 'node_modules/tldts/dist/cjs/index.js', module: 'tldts' },
  { entry: 'dotenv', source: 'node_modules/dotenv/dist/index.cjs', module: 'dotenv' },
  { entry: 'gateway', source: 'src/gateway/endpoint.ts' },
  { entry: 'routing', source: 'src/gateway/routeCommands.ts' },
  { entry: 'preview', source: 'src/elicitation/form/preview.ts' },
  { entry: 'urlReasons', source: 'src/ui/wording/urlReasons.ts' },
];

/** @type {esbuild.Plugin} */
const lazyApart = {
  name: 'lazy-apart',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      const hit = LAZY.find((l) =>
        l.module ? args.path === l.module : args.path.startsWith('.') && path.resolve(args.resolveDir, args.path) + '.ts' === path.join(repoRoot, l.source),
      );
      return hit ? { path: `./${hit.entry}.js`, external: true } : undefined;
    });
  },
};

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
    plugins: [zodEnglishOnly, lazyApart, mcpClientShims],
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
          plugins: [zodEnglishOnly, lazyApart, mcpClientShims],
        },
      ]
    : []),
  ...LAZY.map((l) => ({
    entryPoints: { [l.entry]: l.source },
    outdir: 'dist',
    platform: /** @type {const} */ ('node'),
    format: /** @type {const} */ ('cjs'),
    target: 'node20',
    external: ['vscode'],
    // jsonc-parser's `main` is a UMD build whose dynamic requires esbuild cannot follow.
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    plugins: [zodEnglishOnly],
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
    process.stderr.write(`[build] dist/extension.js is ${mainBytes} bytes, over its budget of ${EXTENSION_BUDGET_BYTES}: move code that activation does not need into LAZY (or run with --analyze to see what grew)\n`);
    process.exitCode = 1;
  }
  // `--analyze`: what each module adds to dist/extension.js, largest first (for the size budget).
  if (process.argv.includes('--analyze') && results[0]?.metafile) process.stdout.write(await esbuild.analyzeMetafile(results[0].metafile, { verbose: false }));
}
