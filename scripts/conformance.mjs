#!/usr/bin/env node
// The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in package.json)
// against the extension's own connection and sign-in code: test/conformance/client.ts, bundled
// here with esbuild, is the client the suite drives. Runs every client scenario that the
// requirement sets of 2025-11-25 and 2026-07-28 score, each at its revision's wire (stateful
// initialize for 2025-11-25, per-request _meta for 2026-07-28), a few at a time, under Node 24
// (the 0.2 alphas need Node >= 22; provisioned like the real-host harness's).
//
// A scenario listed in test/conformance/knownFailures.json is expected to fail, for the reason
// given there; any other failure fails the run, and so does a listed scenario that passes (the
// list must shrink when we fix something). Prints the table and `N passed, N failed`.
//   --revision 2025-11-25|2026-07-28   only this requirement set (repeatable)
//   --scenario NAME                    only this scenario (repeatable)
//   --jobs N                           scenarios at a time (default: the number of cores)
//   --readme                           also rewrite the table in README.md
//   --keep                             keep each scenario's results (checks.json, the client's stderr)
import * as esbuild from 'esbuild';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './hostPaths.mjs';
import { provisionNode } from './provision.mjs';
import { readJson } from './lib/json.mjs';

const REVISIONS = ['2025-11-25', '2026-07-28'];
const CLI = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CLIENT_OUT = path.join(repoRoot, 'out', 'conformance', 'client.cjs');
const KNOWN_FAILURES = path.join(repoRoot, 'test', 'conformance', 'knownFailures.json');
/**
 * Scenarios run a second time with the client's default revision choice (`protocolVersion` absent):
 * the MRTR scenario (a 2026-07-28-only server) and an elicitation one (a 2025-only server).
 * @type {Record<string, string[]>}
 */
const DEFAULT_CHOICE_SCENARIOS = {
  '2026-07-28': ['sep-2322-client-request-state'],
  '2025-11-25': ['elicitation-sep1034-client-defaults'],
};
/** A scenario's client gets this long; a healthy one takes one to three seconds. */
const TIMEOUT_MS = 30_000;

const argv = process.argv.slice(2);
const many = (/** @type {string} */ flag) => argv.flatMap((a, i) => (a === flag && argv[i + 1] ? [argv[i + 1] ?? ''] : []));
const revisions = many('--revision').length ? many('--revision') : REVISIONS;
const only = many('--scenario');
const jobs = Number(many('--jobs')[0] ?? os.availableParallelism());
const keep = argv.includes('--keep');

/** @typedef {{ revision: string, scenario: string, passed: boolean, reason: string, seconds: number, dir: string }} Outcome */

/** @param {string} s */
const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The client, bundled: one file that starts in a fraction of tsx's time, and runs as the extension's code does. */
async function buildClient() {
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: ['test/conformance/client.ts'],
    outfile: CLIENT_OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    sourcemap: 'inline',
    logLevel: 'warning',
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  });
}

/**
 * The client scenarios `revision` scores, as the suite lists them (`not_scored` ones, the
 * optional extensions, are not run).
 * @param {string} node
 * @param {string} revision
 */
function scoredScenarios(node, revision) {
  const out = execFileSync(node, [CLI, 'list', '--client', '--requirements', revision], { encoding: 'utf8' });
  const section = out.split(/^Client scenarios.*$/m)[1] ?? '';
  return [...(section.split(/\n\s*\n/)[0]?.matchAll(/^\s+- (\S+)$/gm) ?? [])].map((m) => m[1] ?? '');
}

/** @returns {Record<string, Record<string, string>>} revision → scenario → why it does not pass */
function knownFailures() {
  return /** @type {Record<string, Record<string, string>>} */ (readJson(KNOWN_FAILURES));
}

/**
 * Why a run failed, in one line: the suite's failing checks, or what happened to the client.
 * @param {string} dir the scenario's results
 * @param {string} stdout the suite's output
 */
function failureReason(dir, stdout) {
  const checksFile = findFile(dir, 'checks.json');
  const checks = checksFile
    ? /** @type {{ id: string, status: string, errorMessage?: string, description?: string }[]} */ (readJson(checksFile))
    : [];
  const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  const parts = bad
    .slice(0, 2)
    .map((c) => `${c.id}${c.status === 'WARNING' ? ' (warning)' : ''}: ${c.errorMessage ?? c.description ?? ''}`);
  if (bad.length > 2) parts.push(`${bad.length - 2} more`);
  if (/CLIENT TIMED OUT/.test(stdout)) parts.push('the client timed out');
  const stderrFile = findFile(dir, 'stderr.txt');
  const last = stderrFile
    ? readFileSync(stderrFile, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('conformance client:'))
    : undefined;
  if (last) parts.push(last.replace(/^conformance client: (Error: )?/, 'client: '));
  return parts.join('; ').replace(/\s+/g, ' ').slice(0, 400) || 'failed (no failing check named)';
}

/**
 * @param {string} dir
 * @param {string} name
 * @returns {string | undefined}
 */
function findFile(dir, name) {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name === name) return path.join(entry.parentPath, entry.name);
  }
  return undefined;
}

/**
 * One scenario, through the suite's own runner: it starts the scenario's servers, runs our client
 * with their URL, and judges (exit 0: every check passed, no warning, the client exited cleanly).
 * @param {string} node
 * @param {string} revision
 * @param {string} scenario
 * @returns {Promise<Outcome>}
 */
function runScenario(node, revision, scenario, defaultChoice = false) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
  const args = [CLI, 'client', '--command', `${quote(node)} ${quote(CLIENT_OUT)}`, '--scenario', scenario];
  args.push('--spec-version', revision, '--timeout', String(TIMEOUT_MS), '-o', dir);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const env = defaultChoice ? { ...process.env, MCP_CONFORMANCE_DEFAULT_CHOICE: '1' } : process.env;
    const child = spawn(node, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('close', (code) => {
      const passed = code === 0;
      const seconds = (Date.now() - t0) / 1000;
      const label = defaultChoice ? `${revision}, default choice` : revision;
      process.stdout.write(`${passed ? 'pass' : 'FAIL'} ${label} ${scenario} (${seconds.toFixed(1)} s)\n`);
      resolve({ revision: label, scenario, passed, reason: passed ? '' : failureReason(dir, out), seconds, dir });
    });
  });
}

/**
 * Runs `tasks` `n` at a time.
 * @template T
 * @param {(() => Promise<T>)[]} tasks
 * @param {number} n
 * @returns {Promise<T[]>}
 */
async function pool(tasks, n) {
  /** @type {T[]} */
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await /** @type {() => Promise<T>} */ (tasks[i])();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, n) }, worker));
  return results;
}

/** @param {string} s */
const cell = (s) => s.replace(/\|/g, '\\|');

/**
 * The README's table: each scenario and whether it passes, with the reason where it does not.
 * @param {Outcome[]} outcomes
 * @param {Record<string, Record<string, string>>} known
 */
function table(outcomes, known) {
  const rows = ['| requirement set | scenario | result |', '|---|---|---|'];
  for (const o of outcomes) {
    const why = known[o.revision]?.[o.scenario];
    rows.push(`| ${o.revision} | \`${o.scenario}\` | ${o.passed ? 'pass' : `**fail**: ${cell(why ?? o.reason)}`} |`);
  }
  return rows.join('\n');
}

/**
 * Replaces the table between the README's markers.
 * @param {string} text
 */
function writeReadme(text) {
  const file = path.join(repoRoot, 'README.md');
  const readme = readFileSync(file, 'utf8');
  const start = '<!-- conformance-table:start -->\n';
  const end = '<!-- conformance-table:end -->';
  const from = readme.indexOf(start);
  const to = readme.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`README.md has no ${start.trim()} … ${end} block`);
  writeFileSync(file, `${readme.slice(0, from + start.length)}${text}\n${readme.slice(to)}`);
  // As `npm run format` would lay the table out, so `format:check` stays green.
  execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--write', file], {
    stdio: 'ignore',
  });
}

async function main() {
  const { node } = provisionNode();
  await buildClient();
  const known = knownFailures();
  /** @type {(() => Promise<Outcome>)[]} */
  const tasks = [];
  for (const revision of revisions) {
    const scored = scoredScenarios(node, revision);
    for (const scenario of scored) {
      if (only.length === 0 || only.includes(scenario)) tasks.push(() => runScenario(node, revision, scenario));
    }
    // The scenarios that ask, once more with the revision the client chooses by default (issue 40),
    // not the one the suite names: their questions must reach us either way.
    for (const scenario of DEFAULT_CHOICE_SCENARIOS[revision] ?? []) {
      if (scored.includes(scenario) && (only.length === 0 || only.includes(scenario))) {
        tasks.push(() => runScenario(node, revision, scenario, true));
      }
    }
  }
  const t0 = Date.now();
  const outcomes = await pool(tasks, jobs);
  let ok = 0;
  let bad = 0;
  process.stdout.write('\n| requirement set | scenario | result | expected | seconds |\n|---|---|---|---|---:|\n');
  for (const o of outcomes) {
    const why = known[o.revision]?.[o.scenario];
    // Expected: passes, unless listed. A listed scenario that passes is a stale entry.
    const asExpected = o.passed === (why === undefined);
    if (asExpected) ok++;
    else bad++;
    const result = o.passed ? 'pass' : `fail: ${o.reason}`;
    const expected = why === undefined ? 'pass' : 'fail (listed)';
    process.stdout.write(`| ${o.revision} | ${o.scenario} | ${cell(result)} | ${cell(expected)} | ${o.seconds.toFixed(1)} |\n`);
    if (!asExpected) {
      process.stdout.write(
        o.passed ? `  ^ passes now: remove it from test/conformance/knownFailures.json\n` : `  ^ unexpected failure; results in ${o.dir}\n`,
      );
    }
    if (!keep && asExpected) rmSync(o.dir, { recursive: true, force: true });
  }
  for (const [revision, scenarios] of Object.entries(known)) {
    for (const scenario of Object.keys(scenarios)) {
      if (!outcomes.some((o) => o.revision === revision && o.scenario === scenario) && only.length === 0 && revisions.includes(revision)) {
        process.stdout.write(`knownFailures.json lists ${revision} ${scenario}, which the suite no longer scores: remove it\n`);
        bad++;
      }
    }
  }
  const passing = outcomes.filter((o) => o.passed).length;
  process.stdout.write(
    `\nconformance: ${passing} of ${outcomes.length} scenarios pass (${outcomes.length - passing} listed with their reason) in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
  );
  if (argv.includes('--readme')) writeReadme(table(outcomes, known));
  process.stdout.write(`${ok} passed, ${bad} failed\n`);
  process.exit(bad > 0 || outcomes.length === 0 ? 1 : 0);
}

await main();
