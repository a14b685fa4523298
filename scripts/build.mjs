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
import { loadCheck } from './lib/loadCheck.mjs';

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

/**
 * The module the MCP SDK's console calls go to instead (src/util/sdkConsole.ts), by a name of its
 * own so that the lazy files can take it from dist/extension.js (FROM_EXTENSION): one instance,
 * whose route the composition root sets.
 */
const SDK_CONSOLE = 'mcp-sdk-console';
/** The same module as our own code imports it (ajv's logger, src/elicitation/form/ajvFactory.ts); see fromExtensionKey. */
const SDK_CONSOLE_SOURCE = path.join(repoRoot, 'src', 'util', 'sdkConsole.ts');
const SDK_FILE = /[\\/]node_modules[\\/]@modelcontextprotocol[\\/][^\\/]+[\\/]dist[\\/].*\.m?js$/;
const CONSOLE_CALL = /(?<![\w$.])console\.(log|info|debug|trace|warn|error)\(/g;

/**
 * An SDK file's text with its `console.<method>(` calls made calls of src/util/sdkConsole.ts. The
 * SDK's sign-in and refresh warnings quote what the authorization server said (codes, tokens), and
 * the host's console is an unredacted log that other extensions share, so we neither let them
 * reach it nor patch it. The import goes on the first line, so the source maps' lines still match.
 * @param {string} text
 */
function sdkConsoleCalls(text) {
  const out = text.replace(CONSOLE_CALL, '__mcpSdkConsole.$1(');
  return out === text ? text : `import { sdkConsole as __mcpSdkConsole } from ${JSON.stringify(SDK_CONSOLE)};${out}`;
}

/**
 * Applies sdkConsoleCalls to the SDK's files (CLIENT_AUTH's chunk gets it in clientAuthApart) and
 * resolves SDK_CONSOLE where no lazy file's rule took it first.
 * @type {esbuild.Plugin}
 */
const mcpSdkConsole = {
  name: 'mcp-sdk-console',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${SDK_CONSOLE}$`) }, () => ({ path: path.join(repoRoot, 'src', 'util', 'sdkConsole.ts') }));
    build.onLoad({ filter: SDK_FILE }, (args) => ({
      contents: sdkConsoleCalls(readFileSync(args.path, 'utf8')),
      resolveDir: path.dirname(args.path),
      loader: 'js',
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
 * A library our code loads with `require()` on first use (ajv, tldts, dotenv) stays unread until
 * then. A shared file holds the whole library: nothing tells it which parts its users need. That
 * costs nothing for these (CommonJS, never tree-shaken); for the ES-module libraries that
 * dist/extension.js needs at activation anyway, see FROM_EXTENSION.
 *
 * `source`: our own code that only a command or a later step needs, required on first use:
 * - the agent gateway's server side: the MCP SDK's server, its HTTP transport and our relay (gateway.ts);
 * - the client's Streamable HTTP and SSE transports with the SDK's OAuth client and EventSource,
 *   when the first HTTP server starts (transports.ts; about 50 KB, never read with stdio servers only);
 * - the sign-in service with its loopback redirect listener, when the first remote server starts
 *   or sign-in is asked for (lazySignIn.ts);
 * - the runtime of the 2025-11-25 `tasks` capability, at a server's first task (capabilities/tasks.ts);
 * - Route / Give Back and the comment-keeping JSON editor they use (commands.ts);
 * - Preview Elicitation Form's payload checker (previewForm.ts);
 * - the consent dialog's sentences for what the url analysis found (urlConsent.ts);
 * - the url analysis itself, for a URL-mode request or a preview (urlAnalysis.ts).
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
  { entry: 'httpTransports', source: 'src/servers/httpTransports.ts' },
  { entry: 'signIn', source: 'src/servers/auth/signIn.ts' },
  { entry: 'clientTasks', source: 'src/servers/capabilities/clientTasks.ts' },
  { entry: 'routing', source: 'src/commands/routeCommands.ts' },
  { entry: 'runTool', source: 'src/commands/runTool.ts' },
  { entry: 'preview', source: 'src/elicitation/form/preview.ts' },
  { entry: 'urlReasons', source: 'src/ui/wording/urlReasons.ts' },
  { entry: 'urlSafety', source: 'src/elicitation/safety/url.ts' },
];

/**
 * ES-module libraries that dist/extension.js holds for activation and the lazy files need too: zod
 * and the MCP protocol schemas (the client here, the server in dist/gateway.js, the HTTP transports
 * in dist/httpTransports.js) and jsonc-parser (mcp.json here; Route / Give Back's edits and the
 * preview's parser). A lazy file takes them from dist/extension.js, already loaded, instead of
 * carrying a copy (zod alone is 103 KB; with them, the gateway went from 260 to 153 KB).
 *
 * They are not LAZY `modules`: a file of their own would hold the whole library, since nothing
 * tells it which parts its users need, so it would hold all of zod (193 KB, not 103 KB) and
 * activation would load it. Instead, a first pass (namesLazyFilesTake) builds the lazy files with
 * these modules left out and reads which of their exports the lazy files use; dist/extension.js
 * exports just those (extensionEntry) and still tree-shakes the rest. Measured (2026-11-25): what
 * the gateway uses of zod beyond what the client uses is under 1 KB, and Route / Give Back's edits
 * add 7 KB of jsonc-parser to it. The exports go by position, so their names (mostly the 186
 * protocol schema names the gateway's server uses, about 5 KB) are in the lazy files, not here.
 */
// SDK_CONSOLE too: the route of the SDK's console lines is state, and a copy per file would not have it.
const FROM_EXTENSION = ['zod/v4', 'jsonc-parser', '@modelcontextprotocol/core', '@modelcontextprotocol/core/internal', SDK_CONSOLE];

/**
 * The MCP client SDK's shared chunks (the protocol, the Client class and its OAuth code), which
 * its entry (`@modelcontextprotocol/client`) imports by relative path. The lazy files take them
 * from dist/extension.js too, so dist/httpTransports.js holds only the HTTP and SSE transports
 * themselves, with one exception (CLIENT_AUTH).
 */
const CLIENT_CHUNK = /^\.\/(src|public|chunk|dialects)-[\w-]+\.mjs$/;
const CLIENT_DIST = `${path.sep}@modelcontextprotocol${path.sep}client${path.sep}dist${path.sep}`;

/**
 * The SDK's OAuth client (discovery, registration, PKCE, token requests, step-up; about 20 KB
 * minified) shares a chunk with the Client class, which activation needs. Only the HTTP transports
 * and sign-in run it, so the lazy file `entry` carries it itself: it builds that chunk (`chunk`)
 * with only the OAuth client's region (`region`) and takes the rest from dist/extension.js (see
 * onlyRegion), and dist/extension.js, asked for no OAuth names, tree-shakes the OAuth client away.
 */
/** How withoutRegion names a client chunk as dist/extension.js holds it. */
const FROM_EXTENSION_CHUNK = 'client-chunk-from-extension:';
const CLIENT_AUTH = { entry: 'httpTransports', chunk: /^\.\/public-[\w-]+\.mjs$/, region: 'src/client/auth.ts' };

/**
 * The FROM_EXTENSION name an import resolves to, if any: a module name as written, or a client
 * chunk as `@modelcontextprotocol/client/dist/<file>`.
 * @param {esbuild.OnResolveArgs} args
 * @param {string | undefined} self the LAZY entry being built
 */
function fromExtensionKey(args, self) {
  if (FROM_EXTENSION.includes(args.path)) return args.path;
  // Our own import of the route (ajvFactory.ts, in the lazy files that build an Ajv): the one
  // instance too, or a lazy file's copy would hold its lines where no route ever reads them.
  if (args.path.startsWith('.') && path.resolve(args.resolveDir, args.path) + '.ts' === SDK_CONSOLE_SOURCE) return SDK_CONSOLE;
  if (args.path.startsWith(FROM_EXTENSION_CHUNK)) {
    return `@modelcontextprotocol/client/dist/${args.path.slice(FROM_EXTENSION_CHUNK.length)}`;
  }
  if (!args.importer.includes(CLIENT_DIST) || !CLIENT_CHUNK.test(args.path)) return undefined;
  if (self === CLIENT_AUTH.entry && CLIENT_AUTH.chunk.test(args.path)) return undefined;
  return `@modelcontextprotocol/client/dist/${args.path.slice(2)}`;
}

/**
 * An SDK chunk's text with only one of its `//#region <name>` … `//#endregion` blocks (and its
 * imports). What the other regions declared and the chunk exports comes from dist/extension.js's
 * copy instead (FROM_EXTENSION_CHUNK): the kept region's own uses and the chunk's exports alike.
 * Fails the build if the kept code names something of the other regions that the chunk does not
 * export, since esbuild would take such a name for a global.
 * @param {string} text
 * @param {string} keep the region kept
 * @param {string} file the chunk's path
 */
function onlyRegion(text, keep, file) {
  const changed = `: the SDK's chunks changed, see CLIENT_AUTH in scripts/build.mjs`;
  const exportsAt = /^export \{([^}]*)\};?$/m;
  const clause = exportsAt.exec(text)?.[1];
  const first = text.indexOf('//#region ');
  const start = text.indexOf(`//#region ${keep}\n`);
  const end = text.indexOf('//#endregion', start);
  if (clause === undefined || first < 0 || start < 0 || end < 0) {
    throw new Error(`[build] ${file}: no region ${keep} or no export list${changed}`);
  }
  const kept = text.slice(start, end);
  const dropped = text.slice(first, start) + text.slice(end).replace(exportsAt, '');
  const declaredIn = (/** @type {string} */ t) =>
    new Set([...t.matchAll(/^(?:var|let|const|class|function|async function)\s+([\w$]+)/gm)].map((m) => m[1] ?? ''));
  const own = declaredIn(kept);
  const elsewhere = declaredIn(dropped);
  /** @type {[string, string][]} [local name, export name] */
  const specs = clause.split(',').map((spec) => {
    const [local = '', exported = local] = spec.trim().split(/\s+as\s+/);
    return [local, exported];
  });
  const fromExtension = specs.filter(([local]) => elsewhere.has(local));
  const exportedNames = new Set(fromExtension.map(([local]) => local));
  // Comments and string literals name things in prose; only code counts.
  const code = kept
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
    .replace(/`(?:[^`\\]|\\.)*`|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
  for (const name of elsewhere) {
    if (own.has(name) || exportedNames.has(name)) continue;
    if (new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(code)) {
      throw new Error(`[build] ${file}: ${keep} uses ${name}, which the chunk does not export${changed}`);
    }
  }
  return [
    text.slice(0, first),
    `import { ${fromExtension.map(([local, exported]) => `${exported} as ${local}`).join(', ')} } from ${JSON.stringify(`${FROM_EXTENSION_CHUNK}${path.basename(file)}`)};`,
    kept,
    `export { ${specs.map(([local, exported]) => `${local} as ${exported}`).join(', ')} };`,
    '',
  ].join('\n');
}

/**
 * CLIENT_AUTH's chunk, only its OAuth region, for the lazy file that owns the OAuth client. A
 * namespace of its own, so that `--analyze` tells it from the rest of the chunk in dist/extension.js.
 * @param {string | undefined} self the LAZY entry being built
 * @returns {esbuild.Plugin}
 */
function clientAuthApart(self) {
  return {
    name: 'client-auth-apart',
    setup(build) {
      if (self !== CLIENT_AUTH.entry) return;
      build.onResolve({ filter: CLIENT_AUTH.chunk }, (args) =>
        args.importer.includes(CLIENT_DIST)
          ? { path: path.join(path.dirname(args.importer), args.path), namespace: 'client-auth' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'client-auth' }, (args) => ({
        contents: onlyRegion(sdkConsoleCalls(readFileSync(args.path, 'utf8')), CLIENT_AUTH.region, args.path),
        resolveDir: path.dirname(args.path),
        loader: 'js',
      }));
    },
  };
}

/** Where dist/extension.js imports a FROM_EXTENSION name from. @param {string} key */
const fromExtensionSpecifier = (key) => (key.includes('/dist/') ? path.join(repoRoot, 'node_modules', key) : key);

/**
 * Leaves FROM_EXTENSION's modules out of a build, as imports of their FROM_EXTENSION name.
 * @param {string | undefined} self the LAZY entry being built
 * @returns {esbuild.Plugin}
 */
function fromExtensionExternal(self) {
  return {
    name: 'from-extension-external',
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        const key = fromExtensionKey(args, self);
        return key === undefined ? undefined : { path: key, external: true };
      });
    },
  };
}

/**
 * Which exports of each FROM_EXTENSION module the lazy files use: their ES-module build, with
 * those modules left out, keeps the imports of them, which name what is used.
 * @returns {Promise<Map<string, Set<string>>>}
 */
async function namesLazyFilesTake() {
  const sources = LAZY.filter((l) => l.source !== undefined);
  // CLIENT_AUTH's owner apart: it resolves the SDK's chunks as no other lazy file does.
  const groups = [sources.filter((l) => l.entry !== CLIENT_AUTH.entry), sources.filter((l) => l.entry === CLIENT_AUTH.entry)];
  const builds = await Promise.all(
    groups
      .filter((g) => g.length > 0)
      .map((g) => {
        const self = g.length === 1 ? g[0]?.entry : undefined;
        return esbuild.build({
          ...common,
          minify: false,
          sourcemap: false,
          metafile: false,
          write: false,
          entryPoints: Object.fromEntries(g.map((l) => [l.entry, l.source ?? ''])),
          outdir: 'names-probe',
          // Its warnings are the real builds' to give.
          logLevel: 'error',
          platform: 'node',
          format: 'esm',
          target: 'node20',
          external: ['vscode'],
          plugins: [fromExtensionExternal(self), clientAuthApart(self), zodEnglishOnly, lazyApart(undefined), mcpSdkShims, mcpSdkConsole],
        });
      }),
  );
  /** @type {Map<string, Set<string>>} */
  const names = new Map();
  for (const out of builds.flatMap((r) => r.outputFiles)) {
    const imports = [...out.text.matchAll(/^import\s+([^;]*?)\s+from\s+"([^"]+)";$/gm)];
    const body = out.text.replace(/^import\s[^;]*;$/gm, '');
    for (const [statement, clause = '', spec = ''] of imports) {
      if (!FROM_EXTENSION.includes(spec) && !spec.includes('/dist/')) continue;
      const used = names.get(spec) ?? new Set();
      names.set(spec, used);
      const named = /^\{([^}]*)\}$/.exec(clause);
      const namespace = /^\*\s+as\s+([\w$]+)$/.exec(clause);
      if (named) {
        // An import the file never reads (the SDK imports more than it uses) is not kept.
        for (const part of (named[1] ?? '').split(',').map((p) => p.trim().split(/\s+as\s+/))) {
          const local = (part[1] ?? part[0] ?? '').replace(/\$/g, '\\$');
          if (part[0] && new RegExp(`(?<![\\w$.])${local}(?![\\w$])`).test(body)) used.add(part[0]);
        }
      } else if (namespace) {
        const id = (namespace[1] ?? '').replace(/\$/g, '\\$');
        for (const m of body.matchAll(new RegExp(`(?<![\\w$.])${id}\\.([\\w$]+)`, 'g'))) used.add(m[1] ?? '');
        // The namespace as a value (spread, passed, indexed) would need all of it: fail rather than guess.
        if (new RegExp(`[(,=:[]\\s*${id}\\s*[),;\\]]|\\.\\.\\.${id}(?![\\w$])|(?<![\\w$.])${id}\\s*\\[`).test(body)) {
          throw new Error(`[build] ${out.path} uses all of ${spec} (${statement}); it cannot take a part of it from dist/extension.js`);
        }
      } else {
        throw new Error(`[build] ${out.path}: an import scripts/build.mjs does not read: ${statement}`);
      }
    }
  }
  return names;
}

/**
 * The extension's entry, wrapped: `entry`'s exports (activate, deactivate) and, under each
 * FROM_EXTENSION module's name, an array of the exports the lazy files use, in the sorted order of
 * their names (see lazyApart, whose stand-ins name them).
 * @param {string} entry
 * @param {Map<string, Set<string>>} names from namesLazyFilesTake
 * @returns {esbuild.Plugin}
 */
function extensionEntry(entry, names) {
  return {
    name: 'extension-entry',
    setup(build) {
      build.onResolve({ filter: /^extension-entry$/ }, () => ({ path: 'extension-entry', namespace: 'extension-entry' }));
      build.onLoad({ filter: /.*/, namespace: 'extension-entry' }, () => {
        const lines = [`export * from ${JSON.stringify(path.join(repoRoot, entry))};`];
        /** @type {string[]} */
        const objects = [];
        [...names].forEach(([module, used], i) => {
          const list = [...used].sort();
          if (list.length === 0) return;
          lines.push(
            `import { ${list.map((n, j) => `${n} as s${i}_${j}`).join(', ')} } from ${JSON.stringify(fromExtensionSpecifier(module))};`,
          );
          objects.push(`s${i} as ${JSON.stringify(module)}`);
          // By position, in sorted order: the names are the lazy files' to carry (lazyApart), not ours.
          lines.push(`const s${i} = [${list.map((_, j) => `s${i}_${j}`).join(', ')}];`);
        });
        lines.push(`export { ${objects.join(', ')} };`);
        return { contents: lines.join('\n') + '\n', resolveDir: repoRoot, loader: 'js' };
      });
    },
  };
}

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
        const [entry = '', module = ''] = args.path.split('|');
        if (entry === 'extension') {
          // dist/extension.js exports a FROM_EXTENSION module's parts by position (extensionEntry).
          const list = [...(fromExtension.get(module) ?? [])].sort();
          return {
            contents: `const shared = require("./extension.js")[${JSON.stringify(module)}];\nmodule.exports = { ${list.map((n, j) => `${JSON.stringify(n)}: shared[${j}]`).join(', ')} };\n`,
            loader: 'js',
          };
        }
        return { contents: `module.exports = require(${JSON.stringify(`./${entry}.js`)})[${JSON.stringify(module)}];\n`, loader: 'js' };
      });
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        // A lazy file's zod, protocol schemas and jsonc-parser: dist/extension.js's (FROM_EXTENSION).
        const shared = self === undefined ? undefined : fromExtensionKey(args, self);
        // The trailing `|`: a stand-in named `….mjs` would be read as an ES module, where `module` is no CommonJS variable.
        if (shared !== undefined) return { path: `extension|${shared}|`, namespace: 'lazy-stub' };
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

/** What the lazy files take from dist/extension.js (FROM_EXTENSION). */
const fromExtension = await namesLazyFilesTake();

/** @type {esbuild.BuildOptions[]} */
const targets = [
  {
    entryPoints: { extension: 'extension-entry' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    plugins: [extensionEntry('src/extension.ts', fromExtension), zodEnglishOnly, lazyApart(undefined), mcpSdkShims, mcpSdkConsole],
  },
  // The extension as the in-host tests and the benchmark load it (see writeTestExtension).
  ...(testEntry
    ? [
        {
          entryPoints: { extension: 'extension-entry' },
          outdir: path.join(testExtensionDir, 'dist'),
          platform: /** @type {const} */ ('node'),
          format: /** @type {const} */ ('cjs'),
          target: 'node20',
          external: ['vscode'],
          plugins: [
            extensionEntry('test/host/extension.ts', fromExtension),
            zodEnglishOnly,
            lazyApart(undefined),
            mcpSdkShims,
            mcpSdkConsole,
          ],
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
    plugins: [clientAuthApart(l.entry), zodEnglishOnly, lazyApart(l.entry), mcpSdkShims, mcpSdkConsole],
  })),
  // What VS Code runs to reach the gateway over stdio (src/gateway/stdioRelay.ts): Node's net, fs and path alone.
  {
    entryPoints: { stdioRelay: 'src/gateway/stdioRelay.ts' },
    outdir: 'dist',
    platform: /** @type {const} */ ('node'),
    format: /** @type {const} */ ('cjs'),
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
  // The console route is state (SDK_CONSOLE): a lazy file with a copy of its own would keep its
  // lines (the SDK's, ajv's) where the route set at activation never reads them. (The in-host
  // suite's bundle may hold one: its tests are not what routes anything.)
  const routeInput = path.relative(repoRoot, SDK_CONSOLE_SOURCE).split(path.sep).join('/');
  for (const [file, out] of results.flatMap((r) => Object.entries(r.metafile?.outputs ?? {}))) {
    if (/^dist\/(?!extension\.js$).*\.js$/.test(file) && (out.inputs[routeInput]?.bytesInOutput ?? 0) > 0) {
      process.stderr.write(`[build] ${file} holds a copy of ${routeInput}: it must take the one in dist/extension.js (FROM_EXTENSION)\n`);
      process.exitCode = 1;
    }
  }
  // What ships must load as the extension host loads it: the extension alone first, each lazy file after.
  if (production) {
    for (const problem of loadCheck(
      path.join(repoRoot, 'dist'),
      LAZY.map((l) => l.entry),
    )) {
      process.stderr.write(`[build] ${problem}\n`);
      process.exitCode = 1;
    }
  }
  // `--analyze`: each shipped file's size and biggest contributors, and what still ships twice.
  if (process.argv.includes('--analyze')) process.stdout.write(bundleReport(results.flatMap((r) => (r.metafile ? [r.metafile] : []))));
}
