#!/usr/bin/env node
// One esbuild call per target: the extension (CJS, vscode external), the webview (browser IIFE),
// and the in-host test suite (CJS, vscode and mocha external). `--watch` rebuilds on change,
// `--production` minifies without source maps (used by `npm run package`).
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './hostPaths.mjs';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

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
 * The Public Suffix List (tldts, ~130 KB minified) is required lazily by urlNames.ts and lives in
 * dist/tldts.js, so dist/extension.js stays under its size budget and activation does not parse it.
 */
/** @type {esbuild.Plugin} */
const tldtsApart = {
  name: 'tldts-apart',
  setup(build) {
    build.onResolve({ filter: /^tldts$/ }, () => ({ path: './tldts.js', external: true }));
  },
};

/** @type {esbuild.BuildOptions[]} */
const targets = [
  {
    entryPoints: { extension: 'src/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // jsonc-parser's `main` is a UMD build whose dynamic requires esbuild cannot follow.
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    plugins: [zodEnglishOnly, tldtsApart, mcpClientShims],
  },
  {
    entryPoints: { tldts: 'node_modules/tldts/dist/cjs/index.js' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
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
};

if (watch) {
  for (const t of targets) {
    const ctx = await esbuild.context({ ...common, ...t, logLevel: 'info' });
    await ctx.watch();
  }
  process.stdout.write('[build] watching for changes\n');
} else {
  const t0 = Date.now();
  const results = await Promise.all(targets.map((t) => esbuild.build({ ...common, ...t })));
  const sizes = results.flatMap((r) =>
    Object.entries(r.metafile?.outputs ?? {})
      .filter(([f]) => f.endsWith('.js'))
      .map(([f, o]) => `${f} ${(o.bytes / 1024).toFixed(0)} KB`),
  );
  process.stdout.write(`[build] ${production ? 'production ' : ''}${sizes.join(', ')} in ${Date.now() - t0} ms\n`);
}
