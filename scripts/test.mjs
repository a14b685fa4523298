#!/usr/bin/env node
// The whole test suite, layer by layer: static checks, unit tests in plain Node, the in-host
// integration suite in code-server's real extension host, and Playwright end-to-end tests against
// the real workbench, and the official MCP conformance suite's client scenarios against our
// connection and sign-in code (scripts/conformance.mjs). Prints per-layer counts and ends with
// `N passed, N failed`. Exits non-zero if anything failed or if a layer ran no test.
//   --only unit|conformance|integration|e2e|static   run one layer (repeatable)
//   --grep TEXT                          filter in-host and e2e tests by name
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './hostPaths.mjs';

const argv = process.argv.slice(2);
const only = argv.flatMap((a, i) => (a === '--only' ? [argv[i + 1]] : []));
const grepIdx = argv.indexOf('--grep');
const grep = grepIdx >= 0 ? argv[grepIdx + 1] : undefined;
const wants = (/** @type {string} */ layer) => only.length === 0 || only.includes(layer);

/**
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ capture?: boolean, env?: Record<string, string> }} [opts]
 * @returns {Promise<{ code: number, out: string }>}
 */
function run(cmd, args, { capture = false, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    /** @param {Buffer} d */
    const onData = (d) => {
      const s = d.toString();
      out += s;
      if (!capture || process.env['MCP_TEST_VERBOSE']) process.stdout.write(s);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

/** @param {string} dir */
function testFiles(dir) {
  const abs = path.join(repoRoot, dir);
  return readdirSync(abs)
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * Counts from node:test's TAP summary lines.
 * @param {string} out
 */
function tapCounts(out) {
  const num = (/** @type {string} */ k) => Number(new RegExp(`^# ${k} (\\d+)$`, 'm').exec(out)?.[1] ?? 0);
  return { passed: num('pass'), failed: num('fail') + num('cancelled') };
}

/**
 * @param {string} dir
 * @param {string[]} [extra]
 */
async function nodeTests(dir, extra = []) {
  const files = testFiles(dir);
  if (files.length === 0) return { passed: 0, failed: 0 };
  const args = ['--import', 'tsx', '--test', '--test-reporter=tap', ...extra, ...(grep ? ['--test-name-pattern', grep] : []), ...files];
  const { code, out } = await run(process.execPath, args, { capture: true });
  const counts = tapCounts(out);
  // Print only failures and the summary: TAP for hundreds of passing cases is noise.
  // Each failing test with its YAML block (message, expected/actual, location), up to its `...`.
  const failures = [];
  let inBlock = false;
  for (const l of out.split('\n')) {
    if (/^\s*not ok /.test(l)) inBlock = true;
    if (inBlock) failures.push(l);
    if (inBlock && /^\s*\.\.\.$/.test(l)) inBlock = false;
  }
  if (failures.length) process.stdout.write(failures.join('\n') + '\n');
  if (code !== 0 && counts.failed === 0) {
    process.stdout.write(out.slice(-4000));
    counts.failed = 1;
  }
  return counts;
}

/** @typedef {{ passed: number, failed: number }} Counts */
/** @type {(Counts & { name: string, seconds: number })[]} */
const layers = [];
/**
 * @param {string} name
 * @param {() => Promise<Counts>} fn
 */
async function layer(name, fn) {
  const t0 = Date.now();
  process.stdout.write(`\n=== ${name} ===\n`);
  /** @type {Counts} */
  let r;
  try {
    r = await fn();
  } catch (err) {
    process.stdout.write(`${name} crashed: ${err instanceof Error ? err.stack : String(err)}\n`);
    r = { passed: 0, failed: 1 };
  }
  layers.push({ name, ...r, seconds: (Date.now() - t0) / 1000 });
  process.stdout.write(`--- ${name}: ${r.passed} passed, ${r.failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (wants('static')) {
  await layer('static (typecheck + lint + format)', async () => {
    const checks = [];
    for (const script of ['typecheck', 'lint', 'format:check']) checks.push(await run(npm, ['run', '-s', script]));
    return { passed: checks.filter((c) => c.code === 0).length, failed: checks.filter((c) => c.code !== 0).length };
  });
}

if (wants('unit')) await layer('unit (plain Node)', () => nodeTests('test/unit'));

if (wants('conformance')) {
  // One count per scenario as the runner judges it: expected to pass and passes, or listed in
  // test/conformance/knownFailures.json and still fails.
  await layer('conformance (MCP conformance suite, client)', async () => {
    const { code, out } = await run(process.execPath, ['scripts/conformance.mjs']);
    const m = /^(\d+) passed, (\d+) failed$/m.exec(out);
    const counts = { passed: Number(m?.[1] ?? 0), failed: Number(m?.[2] ?? 0) };
    if (code !== 0 && counts.failed === 0) counts.failed = 1;
    return counts;
  });
}

if (wants('integration') || wants('e2e')) {
  const prov = await run(process.execPath, ['scripts/provision.mjs']);
  const build = await run(process.execPath, ['scripts/build.mjs']);
  if (prov.code !== 0 || build.code !== 0) {
    layers.push({ name: 'host provisioning and build', passed: 0, failed: 1, seconds: 0 });
  } else {
    if (wants('integration')) {
      await layer('integration (real extension host)', async () => {
        const { runInHostSuite } = await import('./lib/inHost.mjs');
        const r = await runInHostSuite({ grep });
        return { passed: r.passed, failed: r.failed };
      });
    }
    if (wants('e2e')) await layer('e2e (Playwright, real workbench)', () => nodeTests('test/e2e', ['--test-concurrency=1']));
  }
}

const total = layers.reduce((a, l) => ({ passed: a.passed + l.passed, failed: a.failed + l.failed }), { passed: 0, failed: 0 });
const empty = layers.filter((l) => l.passed + l.failed === 0);
process.stdout.write('\n| layer | passed | failed | seconds |\n|---|---:|---:|---:|\n');
for (const l of layers) process.stdout.write(`| ${l.name} | ${l.passed} | ${l.failed} | ${l.seconds.toFixed(1)} |\n`);
if (empty.length) process.stdout.write(`\nno test ran in: ${empty.map((l) => l.name).join(', ')}\n`);
process.stdout.write(`\n${total.passed} passed, ${total.failed} failed\n`);
process.exit(total.failed > 0 || empty.length > 0 || layers.length === 0 ? 1 : 0);
