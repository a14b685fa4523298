#!/usr/bin/env node
// Provisions the real-host test toolchain into an ignored cache folder.
// Idempotent: every step checks for its result first, so a warm run takes well under a second.
// Why each piece is needed: README.md, "How the real-host harness works".
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostPaths, repoRoot, CODE_SERVER_VERSION, NODE_MAJOR } from './hostPaths.mjs';
import { readJson } from './lib/json.mjs';

// python3 runs the stdlib-only MCP server fixture (test/fixtures/pyServer.py), the suite's server in another language;
// python3-venv holds the frameworks the fixtures in test/fixtures/py are written with (ensurePython).
const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'libxkbfile-dev', 'libsecret-1-dev', 'python3', 'python3-venv', 'iproute2'];

/**
 * The Python frameworks the era fixtures (test/fixtures/py, issue 40) are written with, pinned.
 * They come from this machine's local package indexes: plain `pip install` tries pypi.org first and
 * retries slowly where there is no internet.
 */
const PY_PACKAGES = ['fastmcp==4.0.10', 'mcp==2.3.0'];
const PIP_SOURCES = [
  '--index-url',
  'file:///opt/pypi/simple',
  '--extra-index-url',
  'file:///opt/pypi-more/simple',
  '--find-links',
  '/opt/wheels',
];

/** @param {string} msg */
function log(msg) {
  process.stdout.write(`[provision] ${msg}\n`);
}

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [opts]
 */
function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
  }
}

function missingAptPackages() {
  return APT_PACKAGES.filter((p) => {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', p], { encoding: 'utf8' });
    return r.status !== 0 || !r.stdout.includes('install ok installed');
  });
}

function ensureApt() {
  const missing = missingAptPackages();
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).status === 0;
  if (!isRoot || !hasApt) {
    throw new Error(
      `missing system packages: ${missing.join(', ')}.\n` +
        `Install them with:\n  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing.join(' ')}\n` +
        (hasApt
          ? ''
          : '(this machine has no apt-get: install Chromium and the Kerberos, xkbfile and libsecret development headers with your package manager)\n'),
    );
  }
  log(`apt: installing ${missing.join(' ')}`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** @param {string} bin */
function nodeVersionOf(bin) {
  if (!existsSync(bin)) return undefined;
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

/** @param {import('./hostPaths.mjs').HostPaths} p */
function ensureNode24(p) {
  const v = nodeVersionOf(p.node);
  if (v?.startsWith(`v${NODE_MAJOR}.`)) return;
  log(`installing node@${NODE_MAJOR} from npm into ${p.nodeDir}`);
  mkdirSync(p.nodeDir, { recursive: true });
  writeFileSync(`${p.nodeDir}/package.json`, '{"private":true}\n');
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', `node@${NODE_MAJOR}`], { cwd: p.nodeDir });
  const after = nodeVersionOf(p.node);
  if (!after?.startsWith(`v${NODE_MAJOR}.`)) throw new Error(`node@${NODE_MAJOR} did not install at ${p.node}`);
}

/**
 * @param {import('./hostPaths.mjs').HostPaths} p
 * @returns {string | undefined}
 */
function installedCodeServerVersion(p) {
  try {
    return /** @type {{ version: string }} */ (readJson(`${p.codeServerDir}/node_modules/code-server/package.json`)).version;
  } catch {
    return undefined;
  }
}

/**
 * Under `npm test` or `npm start`, npm puts its own Node's folder first on PATH for lifecycle
 * scripts (from `npm_node_execpath` and friends), so code-server's postinstall would find Node 20
 * however we set PATH. Dropping npm's run-script variables makes the nested install see Node 24.
 * @param {NodeJS.ProcessEnv} env
 */
function withoutNpmRunEnv(env) {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !/^(npm_|NODE$|INIT_CWD$)/i.test(k)));
}

/** @param {import('./hostPaths.mjs').HostPaths} p */
function ensureCodeServer(p) {
  if (installedCodeServerVersion(p) === CODE_SERVER_VERSION && existsSync(p.codeServerStamp)) return;
  log(`installing code-server@${CODE_SERVER_VERSION} (native modules built against Node ${NODE_MAJOR}; ~2 min)`);
  mkdirSync(p.codeServerDir, { recursive: true });
  writeFileSync(`${p.codeServerDir}/package.json`, '{"private":true}\n');
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--foreground-scripts', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: p.codeServerDir,
    env: {
      ...withoutNpmRunEnv(process.env),
      PATH: `${p.nodeBinDir}:${process.env['PATH']}`,
      // The machine's npmrc points node-gyp at Node 20's headers; code-server needs Node 24's.
      npm_config_nodedir: p.nodeHeadersDir,
    },
  });
  if (installedCodeServerVersion(p) !== CODE_SERVER_VERSION) throw new Error('code-server did not install');
  writeFileSync(p.codeServerStamp, `${CODE_SERVER_VERSION}\n`);
}

/** @param {import('./hostPaths.mjs').HostPaths} p */
function ensurePython(p) {
  const want = `${PY_PACKAGES.join(' ')}\n`;
  if (existsSync(p.python) && existsSync(p.pyStamp) && readFileSync(p.pyStamp, 'utf8') === want) return;
  log(`python: creating ${p.pyDir} with ${PY_PACKAGES.join(', ')}`);
  if (!existsSync(p.python)) run('python3', ['-m', 'venv', p.pyDir]);
  run(p.python, ['-m', 'pip', 'install', '-qq', '--disable-pip-version-check', ...PIP_SOURCES, ...PY_PACKAGES]);
  writeFileSync(p.pyStamp, want);
}

function ensurePlaywright() {
  try {
    execFileSync(process.execPath, ['-e', "require.resolve('playwright-core')"], { stdio: 'ignore', cwd: repoRoot });
  } catch {
    throw new Error("playwright-core is missing: run 'npm install' in the project first (never 'npx playwright install').");
  }
}

/** Node 24 alone: what the conformance runner needs (scripts/conformance.mjs), without the host. */
export function provisionNode() {
  const p = hostPaths();
  ensureNode24(p);
  return p;
}

/** The Python venv alone: what the era fixtures need (test/fixtures/py, scripts/eraMatrix.mjs), without the host. */
export function provisionPython() {
  const p = hostPaths();
  ensurePython(p);
  return p;
}

export function provision() {
  const p = hostPaths();
  const t0 = Date.now();
  ensureApt();
  ensurePlaywright();
  ensureNode24(p);
  ensureCodeServer(p);
  ensurePython(p);
  log(
    `host ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (node ${nodeVersionOf(p.node)}, code-server ${CODE_SERVER_VERSION}, chromium ${p.chromium})`,
  );
  return p;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    provision();
  } catch (err) {
    process.stderr.write(`[provision] FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
