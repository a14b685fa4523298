#!/usr/bin/env node
// `npm run bench`: performance of the extension in the real host (code-server + Chromium), in one
// run on one machine, against a minimal baseline extension measured in the same host and page.
//   1. prompt latency (server send → widget visible in the page), ours vs the baseline, and ours
//      asked through a 2026-07-28 `input_required` result (MRTR) vs a pushed 2025 request, in
//      several independent code-servers (rounds); each ratio with a 95 % bootstrap interval
//   2. a 1,000-request burst from 10 servers under the default policy and rate limit
//   3. cold activation time (one figure per code-server start, median with its interval) and bundle sizes
//   4. keystrokes + clicks to accept the demo's 12-field form with its defaults
//   5. the agent gateway: added time per tools/call as the agent sees it (vscode.lm.invokeTool on a
//      server VS Code runs itself, a copy VS Code calls over HTTP directly, a copy offered
//      through our gateway, and the gateway in front of that same HTTP process), and an upstream
//      tools/list_changed → vscode.lm.tools; and sampling through our path with "allow" against
//      vscode.lm directly (bench/host/sampling.ts); in a code-server of its own with VS Code's chat on
//   6. reading and resolving configuration for 1, 50 and 500 servers over 4 folders and every
//      source, in plain Node (bench/config/configLoad.ts: the loader's pure pipeline)
//   7. sign-in: 401 → first successful call with a cached token, on loopback, in plain Node
//      (bench/signIn/signInLatency.ts: the real connection, OAuth client and store)
//   8. reading one 1 MB and one 10 MB message in 64 KB chunks, as an HTTP answer's event stream and
//      as a stdio line, in plain Node (bench/framing/framing.ts): cost per MB must not grow with size
//   9. what the gateway's relay process costs an agent session, in plain Node
//      (bench/relay/relayCost.ts): start → first answer against the HTTP door, and its memory
//  10. the default revision choice at a server's start (bench/era/eraStart.ts): start → tool list
//      against the revision pinned, for 2025-only, dual-era and 2026-only servers over stdio and HTTP
// Writes bench/results.json and prints a markdown table. Exits non-zero when the harness itself
// fails (a host that does not start, a run that times out, missing results), naming the step and
// the cause; a missed target is a result, printed ✗ (or ? when undecided), and does not fail the
// run. However it ends (error, timeout, Ctrl+C, SIGTERM), every code-server is killed with its
// process group, and anything this run started that is still alive is killed by pid
// (lib/leftovers.mjs).
//
// Knobs (environment): MCP_BENCH_SAMPLES (20 per round), MCP_BENCH_ROUNDS (3), MCP_BENCH_WARMUP (3),
// MCP_BENCH_STARTS (9), MCP_BENCH_BURST_SERVERS (10), MCP_BENCH_BURST_PER_SERVER (100),
// MCP_BENCH_BURSTS (3), MCP_BENCH_GATEWAY_CALLS (100), MCP_BENCH_GATEWAY_LIST_RUNS (7), MCP_BENCH_VERBOSE,
// MCP_BENCH_ONLY=activation|latency|gateway|config|signin|framing|relay|era (that step alone, for diagnosis: its rows printed, its
// figures into test-results/bench-<step>-results.json), MCP_BENCH_PROFILE=1 (CPU profile of the first
// burst into test-results/bench-burst.cpuprofile, on an unminified bundle; its figures are not results).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { format, isDeepStrictEqual } from 'node:util';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { CODE_SERVER_VERSION, repoRoot } from '../scripts/hostPaths.mjs';
import { launchBrowser } from '../scripts/lib/browser.mjs';
import { startCodeServer, workbenchUrl } from '../scripts/lib/codeServer.mjs';
import { everythingDefaults } from '../scripts/lib/demoDefaults.mjs';
import { listeningPort, makeWorkspace } from '../scripts/lib/fixtures.mjs';
import { SeenBoard, startControl } from './lib/control.mjs';
import {
  acceptButton,
  armWatch,
  collectPageGarbage,
  pageClockSkew,
  startCanceller,
  waitClean,
  waitForForm,
  waitForFormFocus,
} from './lib/page.mjs';
import { parseJson, readJson } from '../scripts/lib/json.mjs';
import { now } from './lib/wallClock.mjs';
import { fmt, kib, markdownTable, mib, summarise } from './lib/stats.mjs';
import {
  activationFigure,
  configLoadFigures,
  framingFigures,
  gatewayFigures,
  latencyFigures,
  relayFigures,
  eraStartFigures,
  signInFigures,
} from './lib/figures.mjs';
import { RUN_ENV, RUN_ID, findLeftovers, killLeftoversSync, killPid } from './lib/leftovers.mjs';

/** @typedef {import('./host/index').PostedResults} PostedResults */
/** @typedef {import('./host/index').MainResults} MainResults */
/** @typedef {import('./host/index').LatencyRunResults} LatencyRunResults */
/** @typedef {import('./host/activation').ActivationResult} ActivationResult */
/** @typedef {import('./host/gateway').GatewayResult} GatewayResult */
/** @typedef {import('./host/control').WatchSpec} WatchSpec */
/** @typedef {import('./host/control').PromptKind} PromptKind */
/** @typedef {{ code: number, results: PostedResults | undefined, hostLog: string, csOutput: string }} HostRun */
/** A line a bench server records (bench/fixtures/benchServer.mjs). */
/** @typedef {{ kind: 'sent' | 'response' | 'protocolError', id?: string | number, action?: string }} BenchRecord */
/** A line the demo server records. */
/** @typedef {{ tool: string, result: unknown }} DemoRecord */

const num = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 ? v : fallback;
};
const SAMPLES = Math.max(1, num('MCP_BENCH_SAMPLES', 20));
/** Independent code-servers the latency rows are measured in: their spread is most of the noise. */
const ROUNDS = Math.max(1, num('MCP_BENCH_ROUNDS', 3));
const WARMUP = num('MCP_BENCH_WARMUP', 3);
const STARTS = Math.max(1, num('MCP_BENCH_STARTS', 9));
const BURST_SERVERS = num('MCP_BENCH_BURST_SERVERS', 10);
const PER_SERVER = num('MCP_BENCH_BURST_PER_SERVER', 100);
const BURSTS = Math.max(1, num('MCP_BENCH_BURSTS', 3));
const GATEWAY_CALLS = Math.max(1, num('MCP_BENCH_GATEWAY_CALLS', 100));
const GATEWAY_LIST_RUNS = Math.max(1, num('MCP_BENCH_GATEWAY_LIST_RUNS', 7));
/** `stdio` or `http`: how VS Code reaches the gateway in the gateway rows (the setting's default when unset). */
const GATEWAY_TRANSPORT = process.env['MCP_BENCH_GATEWAY_TRANSPORT'];
if (GATEWAY_TRANSPORT !== undefined && GATEWAY_TRANSPORT !== 'stdio' && GATEWAY_TRANSPORT !== 'http') {
  throw new Error(`MCP_BENCH_GATEWAY_TRANSPORT must be stdio or http, not ${GATEWAY_TRANSPORT}`);
}
/** Diagnosis: one step alone (its rows printed, figures in test-results/; not a full result). */
const ONLY = process.env['MCP_BENCH_ONLY'];
if (ONLY !== undefined && !['activation', 'latency', 'gateway', 'config', 'signin', 'framing', 'relay', 'era'].includes(ONLY)) {
  process.stderr.write(
    `[bench] MCP_BENCH_ONLY must be activation, latency, gateway, config, signin, framing, relay or era, not ${JSON.stringify(ONLY)}\n`,
  );
  process.exit(2);
}
/** Diagnosis: a CPU profile of the first burst, written to test-results/ (figures are then not results). */
const PROFILE = process.env['MCP_BENCH_PROFILE'] === '1';
const RESULTS = PROFILE ? path.join(repoRoot, 'test-results', 'bench-profile-results.json') : path.join(repoRoot, 'bench', 'results.json');
/** The whole benchmark; past this something is stuck, and everything started is killed. */
const HARD_LIMIT_MS = 45 * 60_000;

const TARGETS = {
  nativeRatio: 1.25,
  webviewRatio: 1.5,
  mrtrRatio: 1.1,
  eventLoopP99Ms: 50,
  heapGrowthBytes: 30 * 1024 * 1024,
  activationMs: 20,
  bundleBytes: 600 * 1024,
  acceptActions: 1,
};

/** A clock skew between stamping processes at least this large is printed under the table. */
const CLOCK_NOTICEABLE_MS = 0.1;

const FIXTURES = path.join(repoRoot, 'bench', 'fixtures');
const BENCH_SERVER = path.join(FIXTURES, 'benchServer.mjs');
const MRTR_SERVER = path.join(FIXTURES, 'mrtrBenchServer.mjs');
const DEMO_SERVER = path.join(repoRoot, 'demo', 'servers', 'demoServer.mjs');
const GATEWAY_SERVER = path.join(FIXTURES, 'gatewayServer.mjs');
const TCP_PIPE_PROCESS = path.join(FIXTURES, 'tcpPipeProcess.mjs');
const IN_HOST_ENTRY = path.join(repoRoot, 'out', 'bench', 'index.js');

const t0 = Date.now();
const log = (/** @type {string} */ m) => process.stdout.write(`[bench] ${m}  (+${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
/** @type {string[]} */
const scratch = [];
process.on('exit', () => {
  // codeServer.mjs has killed every code-server's process group by now (its exit handler runs
  // first); this catches whatever escaped a group.
  const left = killLeftoversSync();
  if (left.length) {
    process.stderr.write(
      `[bench] killed ${left.length} process(es) still running at exit: ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}\n`,
    );
  }
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** The step under way, named in every failure. */
let currentStep = 'start';
/** A harness failure that says in which step it happened. */
class StepFailure extends Error {
  /**
   * @param {string} stepName
   * @param {unknown} cause
   */
  constructor(stepName, cause) {
    super(`step "${stepName}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.step = stepName;
  }
}
/**
 * Runs one step of the benchmark; a failure in it becomes a StepFailure naming it.
 * @template T
 * @param {string} name
 * @param {() => T | Promise<T>} fn
 * @returns {Promise<T>}
 */
async function step(name, fn) {
  currentStep = name;
  try {
    return await fn();
  } catch (err) {
    throw err instanceof StepFailure ? err : new StepFailure(name, err);
  }
}
setTimeout(() => {
  process.stderr.write(`[bench] still running after ${HARD_LIMIT_MS / 60_000} min, in step "${currentStep}": giving up\n`);
  process.exit(2); // codeServer.mjs kills every code-server process group on exit, lib/leftovers.mjs the rest
}, HARD_LIMIT_MS).unref();

/** @param {string} prefix */
function tempDir(prefix) {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(d);
  return d;
}

/**
 * @param {string[]} args
 * @param {string} [cwd]
 * @param {(stderr: string) => boolean} [tolerate]  a failure to go on from (its stderr is logged)
 */
function runNode(args, cwd = repoRoot, tolerate = () => false) {
  const r = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0 && !tolerate(r.stderr)) throw new Error(`node ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  if (r.status !== 0) log(`going on after: ${r.stderr.trim()}`);
  return r.stdout;
}

/**
 * The production bundle, built by the project's own build script in a private copy of the tree.
 * Building in place would swap dist/ under other engineers' running tests; the copy also pins
 * the code the benchmark measures to one moment. The host runs the copy's test build
 * (`extensionDir`: out/testExtension, the same activation and bundles, minified, over the test
 * factory that lets the in-host benchmark observe prompts), so latency is measured on the
 * minified code users get; `sizes` are those of the production bundle itself.
 */
function productionCopy() {
  const dir = tempDir('mcp-eh-bench-ext-');
  const skip = new Set(['node_modules', '.git', '.vscode-test', 'out', 'dist', 'test-results', 'demo', 'bench', 'docs']);
  cpSync(repoRoot, dir, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(repoRoot, src);
      const [top = '', second] = rel.split(path.sep);
      // Of the tests, only the test build's entry and factory (test/host/).
      if (top === 'test' && second !== undefined && second !== 'host') return false;
      return (
        !skip.has(top) && !rel.endsWith('.vsix') && rel !== path.join('media', 'webview.js') && rel !== path.join('media', 'webview.js.map')
      );
    },
  });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  // The build refuses a dist/extension.js over its size budget, after a successful build that wrote
  // it. The bundle row measures that same budget: over it is a result (✗), not a reason to measure
  // nothing else.
  const overBudgetOnly = (/** @type {string} */ stderr) =>
    /over its budget/.test(stderr) && existsSync(path.join(dir, 'dist', 'extension.js'));
  const out = runNode([path.join(dir, 'scripts', 'build.mjs'), '--production', '--test-entry'], dir, overBudgetOnly).trim();
  const size = (/** @type {string} */ rel) => {
    const buf = readFileSync(path.join(dir, rel));
    return { bytes: buf.length, gzipBytes: gzipSync(buf).length };
  };
  const sizes = { extension: size('dist/extension.js'), webview: size('media/webview.js') };
  return { dir, extensionDir: path.join(dir, 'out', 'testExtension'), buildOutput: out, sizes };
}

/**
 * A CPU profile needs function names: for one, the host runs an unminified bundle instead.
 * @param {string} dir
 */
async function unminifiedExtension(dir) {
  await esbuild.build({
    absWorkingDir: dir,
    entryPoints: { extension: 'test/host/extension.ts' },
    outdir: 'out/testExtension/dist',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

/** The in-host benchmark (into out/bench) and the baseline extension (into an extensions folder). */
async function bundles() {
  /** @type {esbuild.BuildOptions} */
  const common = {
    absWorkingDir: repoRoot,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
    legalComments: 'none',
  };
  await esbuild.build({
    ...common,
    entryPoints: { index: 'bench/host/index.ts' },
    outdir: path.join(repoRoot, 'out', 'bench'),
    sourcemap: 'linked',
  });
  const extensionsDir = tempDir('mcp-eh-bench-exts-');
  const pkg = /** @type {{ publisher: string, name: string, version: string }} */ (
    readJson(path.join(FIXTURES, 'baselineExtension', 'package.json'))
  );
  const target = path.join(extensionsDir, `${pkg.publisher}.${pkg.name}-${pkg.version}`);
  mkdirSync(target, { recursive: true });
  writeFileSync(path.join(target, 'package.json'), JSON.stringify(pkg, null, 2));
  await esbuild.build({
    ...common,
    entryPoints: { extension: 'bench/fixtures/baselineExtension/extension.ts' },
    outdir: target,
    minify: true,
  });
  return { extensionsDir };
}

/**
 * @param {string} file
 * @returns {unknown[]}
 */
const readJsonl = (file) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => parseJson(l))
    : [];

/**
 * @param {string} file
 * @param {number} count
 * @param {number} timeoutMs
 */
async function waitForLines(file, count, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (readJsonl(file).length >= count) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

const benchEntry = (/** @type {string} */ name, /** @type {string} */ recordDir) => ({
  type: 'stdio',
  command: 'node',
  args: [BENCH_SERVER, name],
  env: { BENCH_RECORD: path.join(recordDir, `${name}.jsonl`) },
});

/**
 * One code-server with the production copy as the development extension and the in-host
 * benchmark as its tests module, one page, one control channel. Resolves when the host reports
 * its exit code (or after `timeoutMs`, as 124).
 * @param {import('playwright-core').Browser} browser
 * @param {{ mode: 'main' | 'latency' | 'activation' | 'gateway', servers: Record<string, unknown>, env?: Record<string, string>, extensionsDir: string,
 *           extensionDir: string, timeoutMs: number, demoRecord?: string, settings?: Record<string, unknown>,
 *           workspaceSettings?: Record<string, unknown> }} opts  `settings`: the user's, `workspaceSettings`: .vscode/settings.json
 * @returns {Promise<HostRun>}
 */
async function runHost(
  browser,
  { mode, servers, env = {}, extensionsDir, extensionDir, timeoutMs, demoRecord, settings = {}, workspaceSettings },
) {
  const ws = makeWorkspace({ servers, ...(workspaceSettings ? { settings: workspaceSettings } : {}) });
  const seen = new SeenBoard();
  /** @type {import('playwright-core').Page} */
  let page;
  /** @type {PostedResults | undefined} */
  let results;
  /** @type {ReturnType<typeof startCanceller> | undefined} */
  let canceller;
  // The bodies are what bench/host/control.ts sends.
  const control = await startControl({
    '/arm': async (/** @type {WatchSpec} */ spec) => {
      await waitClean(page);
      await armWatch(page, spec);
    },
    '/seen': async (/** @type {{ token: string, timeoutMs?: number }} */ { token, timeoutMs: ms }) => ({
      at: await seen.wait(token, ms ?? 30_000),
    }),
    '/accept-defaults': async (/** @type {{ method: 'click' | 'ctrlEnter' }} */ { method }) => {
      if (!demoRecord) throw new Error(`no demo server in the ${mode} run`);
      return acceptDefaults(page, method, demoRecord);
    },
    '/page-gc': async () => collectPageGarbage(page),
    '/clock': () => ({ at: now() }),
    '/page-clock': async (/** @type {{ probes: number }} */ { probes }) => pageClockSkew(page, probes),
    '/canceller': async (/** @type {{ on: boolean }} */ { on }) => {
      if (on) {
        await canceller?.stop();
        canceller = startCanceller(page);
        return { clicks: 0, misses: 0 };
      }
      const counts = (await canceller?.stop()) ?? { clicks: 0, misses: 0 };
      canceller = undefined;
      return counts;
    },
    '/results': (/** @type {PostedResults} */ body) => {
      results = body;
    },
  });
  /** @type {import('../scripts/lib/codeServer.mjs').CodeServer | undefined} */
  let cs;
  /** @type {import('playwright-core').BrowserContext | undefined} */
  let context;
  let hostLog = '';
  try {
    cs = await startCodeServer({
      workspace: ws.dir,
      extensionsDir,
      quiet: true,
      // The form is what is measured; an empty secondary side bar only costs layout time.
      settings: { 'workbench.secondarySideBar.defaultVisibility': 'hidden', ...settings },
      env: { MCP_BENCH_MODE: mode, MCP_BENCH_CONTROL: control.url, [RUN_ENV]: RUN_ID, ...env },
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    /** @type {(code: number) => void} */
    let resolveExit = () => undefined;
    const exit = /** @type {Promise<number>} */ (new Promise((r) => (resolveExit = r)));
    await page.exposeFunction('codeAutomationExit', (/** @type {unknown} */ code) => resolveExit(Number(code)));
    await page.exposeFunction('codeAutomationLog', (/** @type {string} */ _type, /** @type {unknown} */ args) => {
      const line = format(...(Array.isArray(args) ? /** @type {unknown[]} */ (args) : [args]));
      hostLog += `${line}\n`;
      if (line.startsWith('[bench]') || /in-host failure/.test(line)) process.stdout.write(`    ${line}\n`);
    });
    await page.exposeFunction('__benchSeen', (/** @type {string} */ token, /** @type {number} */ at) => seen.report(token, at));
    const started = Date.now();
    await page.goto(workbenchUrl(cs, ws.dir, { extensionDevelopmentPath: extensionDir, extensionTestsPath: IN_HOST_ENTRY }));
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    const code = await Promise.race([
      exit,
      /** @type {Promise<number>} */ (new Promise((r) => (timer = setTimeout(() => r(124), timeoutMs)))),
    ]);
    clearTimeout(timer);
    if (process.env['MCP_BENCH_VERBOSE']) log(`${mode} host: page to exit ${Date.now() - started} ms`);
    return { code, results, hostLog, csOutput: cs.output };
  } finally {
    // A host that failed mid-burst leaves its canceller clicking: it must stop before the page goes.
    await canceller?.stop();
    await context?.close().catch(() => undefined);
    await cs?.stop();
    await control.close();
    ws.dispose();
    // The group kill reaches the extension host and the MCP servers; anything that left the group
    // would outlive the step unseen.
    // The gateway's HTTP fixture and TCP pipe belong to the harness, which stops them after the host.
    const strays = () => findLeftovers().filter((p) => !p.command.includes(GATEWAY_SERVER) && !p.command.includes(TCP_PIPE_PROCESS));
    if (strays().length) await new Promise((r) => setTimeout(r, 1000)); // a killed process may take a moment to go
    const left = strays();
    for (const p of left) killPid(p.pid);
    if (left.length) {
      log(`killed ${left.length} process(es) left behind by the ${mode} host: ${left.map((p) => `${p.pid} ${p.command}`).join('; ')}`);
    }
  }
}

/**
 * Interactions after the 12-field form appears: one action, then check what the demo recorded.
 * Should one action not be enough, keep clicking Accept (up to three) so the count says how many
 * it took; if even that fails, Escape releases the host. A key can only be pressed once the form
 * has keyboard focus (a user sees the caret in the first field); how long that takes after the
 * form is visible is reported too, because a key pressed earlier goes to the workbench.
 * @param {import('playwright-core').Page} page
 * @param {'click' | 'ctrlEnter'} method
 * @param {string} demoRecord
 */
async function acceptDefaults(page, method, demoRecord) {
  const before = readJsonl(demoRecord).length;
  const formShownAt = await waitForForm(page, 12);
  const focusAt = method === 'ctrlEnter' ? await waitForFormFocus(page).catch(() => undefined) : undefined;
  let actions = 0;
  let recorded = false;
  while (!recorded && actions < 3) {
    if (method === 'ctrlEnter' && actions === 0) await page.keyboard.press('Control+Enter');
    else await acceptButton(page).click({ timeout: 10_000 });
    actions++;
    recorded = await waitForLines(demoRecord, before + 1, 10_000);
  }
  if (!recorded) await page.keyboard.press('Escape');
  return { actions, formShownAt, ...(focusAt ? { focusDelayMs: focusAt - formShownAt } : {}) };
}

/**
 * The cause of a host run that ended without results, on its first line (the in-host error when
 * there is one), then the tails of the host's log and code-server's output; both in full in
 * test-results/bench-host.log.
 * @param {string} what
 * @param {HostRun} run
 */
function hostFailure(what, run) {
  const inHost = run.results?.error;
  const cause =
    run.code === 124
      ? 'the in-host benchmark did not finish in time (timed out)'
      : inHost
        ? `in-host error: ${inHost}`
        : run.code === 0
          ? 'the host exited 0 without posting results'
          : `the extension host's test run exited with code ${run.code}`;
  const tail = `--- host log (tail) ---\n${run.hostLog.slice(-4000)}\n--- code-server (tail) ---\n${run.csOutput.slice(-2000)}`;
  const logFile = path.join(repoRoot, 'test-results', 'bench-host.log');
  mkdirSync(path.dirname(logFile), { recursive: true });
  writeFileSync(logFile, `${what}\n${run.hostLog}\n--- code-server ---\n${run.csOutput}`);
  return new Error(`${what}: ${cause}\n${tail}\n(full log: ${path.relative(repoRoot, logFile)})`);
}

/**
 * Per request id, how many responses each burst server saw on its own transport.
 * @param {string} recordDir
 * @param {string[]} names
 */
function responseCounts(recordDir, names) {
  let sent = 0;
  let exactlyOne = 0;
  let none = 0;
  let more = 0;
  let protocolErrors = 0;
  /** @type {Record<string, number>} */
  const actions = {};
  for (const name of names) {
    const lines = /** @type {BenchRecord[]} */ (readJsonl(path.join(recordDir, `${name}.jsonl`)));
    /** @type {Map<string | number | undefined, number>} */
    const counts = new Map();
    for (const l of lines) {
      if (l.kind === 'sent') counts.set(l.id, counts.get(l.id) ?? 0);
      else if (l.kind === 'response') {
        counts.set(l.id, (counts.get(l.id) ?? 0) + 1);
        actions[String(l.action)] = (actions[String(l.action)] ?? 0) + 1;
      } else if (l.kind === 'protocolError') protocolErrors++;
    }
    for (const c of counts.values()) {
      sent++;
      if (c === 1) exactlyOne++;
      else if (c === 0) none++;
      else more++;
    }
  }
  return { sent, exactlyOne, none, more, protocolErrors, actions };
}

/**
 * Runs a Node script of the harness that prints `LISTENING <port>` (the gateway fixture, the TCP
 * pipe), marked as this run's and killed on exit.
 * @returns {Promise<{ port: number, stop: () => void }>}
 */
async function startListener(/** @type {string[]} */ args, /** @type {string} */ label) {
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, [RUN_ENV]: RUN_ID },
  });
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.on('exit', stop);
  return { port: await listeningPort(child, label), stop };
}

/**
 * Starts the gateway fixture over Streamable HTTP on a free loopback port; killed on exit.
 * @returns {Promise<{ url: string, stop: () => void }>}
 */
async function startGatewayHttpServer(/** @type {string} */ name) {
  const { port, stop } = await startListener([GATEWAY_SERVER, name, 'http'], `${name}: the HTTP gateway fixture`);
  return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

/** The raw TCP pipe of bench/lib/tcpPipe.mjs as a process of its own, in front of `targetPort`. */
function startTcpPipeProcess(/** @type {number} */ targetPort) {
  return startListener([TCP_PIPE_PROCESS, String(targetPort)], 'the TCP pipe process');
}

/**
 * A loopback port free at the moment of asking, for a listener the extension host opens later.
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const addr = probe.address();
      probe.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
    });
  });
}

/** The name the sampling row's requests carry as their server (bench/host/sampling.ts). */
const SAMPLING_SERVER = 'benchsampler';

/**
 * An extensions folder holding only the test's language models (test/fixtures/samplingModelExtension),
 * which the sampling row needs: VS Code has no model offline.
 */
function samplingModelExtensions() {
  const dir = tempDir('mcp-eh-bench-models-');
  cpSync(path.join(repoRoot, 'test', 'fixtures', 'samplingModelExtension'), path.join(dir, 'mcp-test.sampling-model-0.0.1'), {
    recursive: true,
  });
  return dir;
}

/**
 * The gateway rows need VS Code's chat on (`chat.disableAIFeatures: false`), which the latency
 * rows must not have: chat adds its own work to the workbench and extension host, and with it on
 * the main run's mcp.json servers would be VS Code's rather than ours. So they get a code-server
 * of their own: one copy of the fixture in .vscode/mcp.json, left to VS Code
 * (`mcpElicitation.workspaceMcpJson: vscode`), one there as `"type": "http"` that VS Code calls over
 * Streamable HTTP (started here), one in `mcpElicitation.servers`, run by us and offered through
 * the gateway; `chat.mcp.autostart: never` so that VS Code starts only what the
 * in-host side asks for.
 * @param {import('playwright-core').Browser} browser
 * @param {string} extensionDir
 * @returns {Promise<GatewayResult>}
 */
async function gatewayRun(browser, extensionDir) {
  const server = (/** @type {string} */ name) => ({ type: 'stdio', command: 'node', args: [GATEWAY_SERVER, name] });
  const overHttp = await startGatewayHttpServer('gwhttp');
  // The floor of any relay (bench/lib/tcpPipe.mjs), in front of that same HTTP process: one pipe in a
  // process of its own, one the in-host side opens in the extension host on a port chosen here.
  const upstreamPort = Number(new URL(overHttp.url).port);
  const pipeProcess = await startTcpPipeProcess(upstreamPort);
  const hostPipePort = await freePort();
  const viaPipe = (/** @type {number} */ port, /** @type {string} */ name) => ({
    type: 'http',
    url: `http://127.0.0.1:${port}/mcp?name=${name}`,
  });
  const run = await runHost(browser, {
    mode: 'gateway',
    servers: {
      gwdirect: server('gwdirect'),
      gwhttp: { type: 'http', url: overHttp.url },
      gwpipehost: viaPipe(hostPipePort, 'gwpipehost'),
      gwpipeproc: viaPipe(pipeProcess.port, 'gwpipeproc'),
    },
    workspaceSettings: {
      'mcpElicitation.workspaceMcpJson': 'vscode',
      // The offer to route VS Code's servers would be a notification nobody answers.
      'mcpElicitation.offerRouting': false,
      'mcpElicitation.servers': { gwrelay: server('gwrelay'), gwrelayhttp: { type: 'http', url: `${overHttp.url}?name=gwrelayhttp` } },
      // How VS Code reaches the gateway: the default (stdio, through our relay) unless asked.
      ...(GATEWAY_TRANSPORT ? { 'mcpElicitation.gateway.transport': GATEWAY_TRANSPORT } : {}),
    },
    settings: {
      'chat.disableAIFeatures': false,
      'chat.mcp.autostart': 'never',
      // The sampling row's server: the user's own choice to skip the consent, so our path runs without a prompt.
      'mcpElicitation.sampling.skipReview': { [SAMPLING_SERVER]: true },
    },
    env: {
      MCP_BENCH_GATEWAY_DIRECT: 'gwdirect',
      MCP_BENCH_GATEWAY_HTTP: 'gwhttp',
      MCP_BENCH_GATEWAY_RELAYED: 'gwrelay',
      MCP_BENCH_GATEWAY_RELAYED_HTTP: 'gwrelayhttp',
      MCP_BENCH_GATEWAY_PROBE_URL: `${overHttp.url}?name=gwprobe`,
      MCP_BENCH_GATEWAY_PIPE_HOST: 'gwpipehost',
      MCP_BENCH_GATEWAY_PIPE_HOST_PORT: String(hostPipePort),
      MCP_BENCH_GATEWAY_PIPE_PROCESS: 'gwpipeproc',
      MCP_BENCH_GATEWAY_UPSTREAM_PORT: String(upstreamPort),
      ...(process.env['MCP_BENCH_PROFILE'] ? { MCP_BENCH_PROFILE: path.resolve(process.env['MCP_BENCH_PROFILE']) } : {}),
      MCP_BENCH_GATEWAY_CALLS: String(GATEWAY_CALLS),
      MCP_BENCH_GATEWAY_LIST_RUNS: String(GATEWAY_LIST_RUNS),
      MCP_BENCH_WARMUP: String(WARMUP),
      MCP_BENCH_SAMPLING_SERVER: SAMPLING_SERVER,
    },
    extensionsDir: samplingModelExtensions(),
    extensionDir,
    timeoutMs: 5 * 60_000,
  }).finally(() => {
    overHttp.stop();
    pipeProcess.stop();
  });
  if (run.code !== 0 || !run.results?.results) throw hostFailure('gateway run', run);
  return /** @type {GatewayResult} */ (run.results.results);
}

/**
 * Cold activation: a fresh code-server (and extension host) per figure. The extension activates by
 * itself (the workspace has a .vscode/mcp.json); the host reports the time it measured.
 * @param {import('playwright-core').Browser} browser
 * @param {string} extensionDir
 * @returns {Promise<number[]>}
 */
async function activationStarts(browser, extensionDir) {
  /** @type {number[]} */
  const coldMs = [];
  for (let i = 0; i < STARTS; i++) {
    const what = `activation start ${i + 1}/${STARTS}`;
    await step(what, async () => {
      const run = await runHost(browser, {
        mode: 'activation',
        servers: { bench: benchEntry('bench', tempDir('mcp-eh-bench-act-')) },
        extensionsDir: tempDir('mcp-eh-bench-noexts-'),
        extensionDir,
        timeoutMs: 4 * 60_000,
      });
      if (run.code !== 0 || !run.results?.results) throw hostFailure(what, run);
      const { coldMs: ms } = /** @type {ActivationResult} */ (run.results.results);
      coldMs.push(ms);
      log(`${what}: ${fmt(ms, 1)} ms`);
    });
  }
  return coldMs;
}

/**
 * The latency rows, `ROUNDS` times, each in a code-server of its own with the baseline installed
 * beside us: a round's figures move with that host's drawing speed, so the interval needs several.
 * @param {import('playwright-core').Browser} browser
 * @param {string} extensionDir
 * @param {string} extensionsDir  with the baseline extension
 * @returns {Promise<LatencyRunResults[]>}
 */
async function latencyRounds(browser, extensionDir, extensionsDir) {
  /** @type {LatencyRunResults[]} */
  const rounds = [];
  for (let i = 0; i < ROUNDS; i++) {
    const what = `latency round ${i + 1}/${ROUNDS}`;
    await step(what, async () => {
      log(`${what}: ${SAMPLES} samples (+${WARMUP} warm-up) × 3 widgets × 2 clients, then MRTR vs pushed`);
      const recordDir = tempDir('mcp-eh-bench-lat-');
      const run = await runHost(browser, {
        mode: 'latency',
        servers: {
          bench: benchEntry('bench', recordDir),
          benchMrtr: {
            type: 'stdio',
            command: 'node',
            args: [MRTR_SERVER, 'benchMrtr'],
            env: { BENCH_RECORD: path.join(recordDir, 'benchMrtr.jsonl') },
          },
        },
        env: {
          MCP_BENCH_SAMPLES: String(SAMPLES),
          MCP_BENCH_WARMUP: String(WARMUP),
          MCP_BENCH_BASELINE_SERVER: JSON.stringify({
            command: 'node',
            args: [BENCH_SERVER, 'baseline'],
            env: { BENCH_RECORD: path.join(recordDir, 'baseline.jsonl') },
          }),
        },
        extensionsDir,
        extensionDir,
        timeoutMs: 10 * 60_000,
      });
      if (run.code !== 0 || !run.results?.results) throw hostFailure(what, run);
      rounds.push(/** @type {LatencyRunResults} */ (run.results.results));
    });
  }
  return rounds;
}

/**
 * A plain-Node step's module (bench/<dir>/<name>.ts), bundled with the sources it measures and
 * imported into this process.
 * @param {string} entry the module's path under bench/
 * @returns {Promise<unknown>}
 */
async function plainNodeStep(entry) {
  const out = path.join(tempDir(`mcp-eh-bench-${path.basename(entry, '.ts')}-build-`), `${path.basename(entry, '.ts')}.mjs`);
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'bench', entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // jsonc-parser's UMD `main` requires its parts dynamically: its ESM build, as scripts/build.mjs takes it.
    mainFields: ['module', 'main'],
    // The SDK's CommonJS dependencies require Node built-ins, which an ESM bundle must be given.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    outfile: out,
    logLevel: 'silent',
  });
  /** @type {unknown} */
  const imported = await import(out);
  return imported;
}

/**
 * Step 6: bench/config/configLoad.ts, run in this process.
 * @returns {Promise<{ servers: number, medianMs: number, runsMs: number[] }[]>}
 */
async function configLoadRun() {
  const mod = /** @type {typeof import('./config/configLoad')} */ (await plainNodeStep('config/configLoad.ts'));
  return mod.measureConfigLoad([1, 50, 500]);
}

/**
 * Step 7: bench/signIn/signInLatency.ts, run in this process against test/fixtures/oauthServer.mjs.
 * @returns {Promise<{ refreshedMs: number[], plainMs: number[] }>}
 */
async function signInRun() {
  const mod = /** @type {typeof import('./signIn/signInLatency')} */ (await plainNodeStep('signIn/signInLatency.ts'));
  return mod.measureSignIn(path.join(repoRoot, 'test', 'fixtures', 'oauthServer.mjs'));
}

/**
 * Step 8: bench/framing/framing.ts, run in this process.
 * @returns {Promise<import('./framing/framing').FramingFigure[]>}
 */
async function framingRun() {
  const mod = /** @type {typeof import('./framing/framing')} */ (await plainNodeStep('framing/framing.ts'));
  return mod.measureFraming();
}

/**
 * Step 9: bench/relay/relayCost.ts, run in this process; it bundles the relay as the build does.
 * @returns {Promise<import('./relay/relayCost').RelayCostFigure>}
 */
async function relayRun() {
  const mod = /** @type {typeof import('./relay/relayCost')} */ (await plainNodeStep('relay/relayCost.ts'));
  const relay = path.join(tempDir('mcp-eh-bench-relay-'), 'stdioRelay.js');
  await esbuild.build({
    entryPoints: [path.join(repoRoot, 'src', 'gateway', 'stdioRelay.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    outfile: relay,
    logLevel: 'silent',
  });
  return mod.measureRelayCost(relay);
}

/**
 * Step 10: bench/era/eraStart.ts, run in this process: the default revision choice at a server's
 * start against the revision pinned (issue 40).
 * @returns {Promise<import('./era/eraStart').EraStartFigure[]>}
 */
async function eraRun() {
  const mod = /** @type {typeof import('./era/eraStart')} */ (await plainNodeStep('era/eraStart.ts'));
  return mod.measureEraStart(repoRoot);
}

/**
 * MCP_BENCH_ONLY=<step>: one step alone, for diagnosis; its rows are printed and its figures go to
 * test-results/bench-<step>-results.json; bench/results.json is left alone.
 * @param {string} only
 * @param {string} extensionDir
 * @param {string} extensionsDir
 */
async function oneStep(only, extensionDir, extensionsDir) {
  if (only === 'signin') {
    const figs = await step('sign-in', () => signInRun());
    return writeOneStep(only, { signIn: figs }, signInFigures(figs).rows);
  }
  if (only === 'era') {
    const figs = await step('revision choice', () => eraRun());
    return writeOneStep(only, { era: figs }, eraStartFigures(figs).rows);
  }
  if (only === 'relay') {
    const figs = await step('gateway relay', () => relayRun());
    return writeOneStep(only, { relay: figs }, relayFigures(figs).rows);
  }
  if (only === 'framing') {
    const figs = await step('message framing', () => framingRun());
    return writeOneStep(only, { framing: figs }, framingFigures(figs).rows);
  }
  if (only === 'config') {
    const figs = await step('configuration load', () => configLoadRun());
    const f = configLoadFigures(figs);
    return writeOneStep(only, { config: figs, growth: f.growth }, f.rows);
  }
  const browser = await step('browser launch', () => launchBrowser());
  /** @type {import('./lib/stats.mjs').Row[]} */
  let rows;
  /** @type {Record<string, unknown>} */
  let figures;
  try {
    if (only === 'activation') {
      const coldMs = await activationStarts(browser, extensionDir);
      const f = activationFigure(coldMs, TARGETS.activationMs);
      rows = [f.row];
      figures = { activation: { cold: f.cold, interval: f.interval, ok: f.ok, coldMs } };
    } else if (only === 'latency') {
      const rounds = await latencyRounds(browser, extensionDir, extensionsDir);
      const f = latencyFigures(
        rounds.map((r) => ({ latency: r.latency.samples, mrtr: r.mrtr.samples })),
        TARGETS,
      );
      rows = f.rows;
      figures = { latency: f.latency, mrtrLatency: f.mrtr, rounds };
    } else {
      const g = await step('gateway run', () => gatewayRun(browser, extensionDir));
      const f = gatewayFigures(g);
      rows = f.rows;
      figures = { ...f.figures, calls: g.calls, listChanged: g.listChanged, probe: g.probe, tools: g.tools };
    }
  } finally {
    await browser.close().catch(() => undefined);
  }
  writeOneStep(only, figures, rows, ` (${Math.round((Date.now() - t0) / 1000)} s)`);
}

/**
 * One step's figures into test-results/bench-<step>-results.json, and its rows printed.
 * @param {string} only
 * @param {Record<string, unknown>} figures
 * @param {import('./lib/stats.mjs').Row[]} rows
 * @param {string} [took] the run's duration, for the steps that start a host
 */
function writeOneStep(only, figures, rows, took = '') {
  const out = path.join(repoRoot, 'test-results', `bench-${only}-results.json`);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), loadavg: os.loadavg(), ...figures, table: rows }, null, 2));
  process.stdout.write(`\n${markdownTable(rows)}\n\n${only} step only; figures in ${path.relative(repoRoot, out)}${took}.\n`);
}

async function main() {
  // Plain Node: no host, no build of the extension needed.
  if (ONLY === 'config' || ONLY === 'signin' || ONLY === 'framing' || ONLY === 'relay' || ONLY === 'era') return oneStep(ONLY, '', '');
  const load0 = os.loadavg();
  log(`provisioning check and production build (private copy of the tree)`);
  await step('provisioning check', () => runNode([path.join(repoRoot, 'scripts', 'provision.mjs')]));
  const prod = await step('production build', () => productionCopy());
  log(`${prod.buildOutput.replace(/^\[build\] /, '')}`);
  if (PROFILE) await step('unminified build', () => unminifiedExtension(prod.dir));
  const { extensionsDir } = await step('bench bundles', () => bundles());
  if (ONLY) return oneStep(ONLY, prod.extensionDir, extensionsDir);
  const defaults = await step('demo defaults', () => everythingDefaults());
  const browser = await step('browser launch', () => launchBrowser());
  /** @type {number[]} */
  let coldMs;
  /** @type {LatencyRunResults[]} */
  let rounds;
  /** @type {MainResults} */
  let mainRun;
  /** @type {GatewayResult} */
  let gatewayResult;
  const recordDir = tempDir('mcp-eh-bench-rec-');
  const burstNames = Array.from({ length: BURST_SERVERS }, (_, i) => `burst${i}`);
  const demoRecord = path.join(recordDir, 'demo.jsonl');
  try {
    // 3. Activation: a fresh code-server per cold figure.
    coldMs = await activationStarts(browser, prod.extensionDir);

    // 1. Latency, in ROUNDS code-servers of its own, with the baseline installed beside us.
    rounds = await latencyRounds(browser, prod.extensionDir, extensionsDir);

    // 2, 4. Interactions and the burst in one host.
    mainRun = await step('main run (interactions, burst)', async () => {
      log(`main run: interactions, then ${BURSTS} bursts of ${BURST_SERVERS} × ${PER_SERVER} requests`);
      const run = await runHost(browser, {
        mode: 'main',
        servers: {
          demo: { type: 'stdio', command: 'node', args: [DEMO_SERVER], env: { DEMO_RECORD: demoRecord } },
          ...Object.fromEntries(burstNames.map((n) => [n, benchEntry(n, recordDir)])),
        },
        env: {
          MCP_BENCH_BURST_SERVERS: burstNames.join(','),
          MCP_BENCH_BURST_PER_SERVER: String(PER_SERVER),
          MCP_BENCH_BURSTS: String(BURSTS),
          ...(PROFILE ? { MCP_BENCH_PROFILE: path.join(repoRoot, 'test-results', 'bench-burst.cpuprofile') } : {}),
        },
        extensionsDir: tempDir('mcp-eh-bench-noexts-'),
        extensionDir: prod.extensionDir,
        demoRecord,
        timeoutMs: 15 * 60_000,
      });
      if (run.code !== 0 || !run.results?.results) throw hostFailure('main run', run);
      return /** @type {MainResults} */ (run.results.results);
    });

    // 5. The agent gateway, in a host of its own (see gatewayRun).
    gatewayResult = await step('gateway run', () => {
      log(`gateway run: ${GATEWAY_CALLS} echo calls (+${WARMUP} warm-up) × 4 paths, then ${GATEWAY_LIST_RUNS} list_changed × 2 paths`);
      return gatewayRun(browser, prod.extensionDir);
    });
  } finally {
    await browser.close().catch(() => undefined);
  }
  currentStep = 'figures';

  // ---- figures ----
  const lat = latencyFigures(
    rounds.map((r) => ({ latency: r.latency.samples, mrtr: r.mrtr.samples })),
    TARGETS,
  );
  const activation = activationFigure(coldMs, TARGETS.activationMs);
  const { idle, bursts, pages, heapFirstBeforeBytes, heapLastAfterBytes } = mainRun.burst;
  const wire = responseCounts(recordDir, burstNames);
  const perBurst = BURST_SERVERS * PER_SERVER;
  const total = perBurst * bursts.length;
  const lost = total - wire.exactlyOne;
  const loopP99 = summarise(bursts.map((b) => b.eventLoop.p99));
  const loopMax = Math.max(...bursts.map((b) => b.eventLoop.max));
  const heapGrowth = summarise(bursts.map((b) => b.heap.growthBytes));
  const drain = summarise(bursts.map((b) => b.drainMs));
  const shownOk = bursts.every((b) => b.promptsShown === BURST_SERVERS * 10);
  const declinesExpected = bursts.length * (perBurst - BURST_SERVERS * 10);
  const demoLines = /** @type {DemoRecord[]} */ (readJsonl(demoRecord)).filter((r) => r.tool === 'everything');
  const interactions = mainRun.interactions.map((r, i) => {
    const rec = demoLines[i]?.result;
    return {
      method: r.method,
      actions: r.actions,
      focusDelayMs: r.focusDelayMs,
      recorded: rec,
      acceptedDefaults: isDeepStrictEqual(rec, { action: 'accept', content: defaults }),
    };
  });
  const actionsOk = interactions.length > 0 && interactions.every((r) => r.acceptedDefaults && r.actions <= TARGETS.acceptActions);

  /** @type {import('./lib/stats.mjs').Row[]} */
  const rows = [...lat.rows];
  /**
   * @template T
   * @param {T[]} values
   * @param {(value: T) => string | number} f
   */
  const runs = (values, f) => values.map(f).join(', ');
  rows.push({
    measure: `Burst: ${perBurst} requests at once (${BURST_SERVERS} servers × ${PER_SERVER}), ${bursts.length} bursts: requests with exactly one response`,
    result: `${wire.exactlyOne} / ${total} (${lost} lost${wire.more ? `, ${wire.more} answered twice` : ''})`,
    target: '0 lost',
    ok: lost === 0 && wire.more === 0,
  });
  rows.push({
    measure: 'Burst: prompts shown / declined by the rate limit, per burst',
    result: `${runs(bursts, (b) => b.promptsShown)} / ${fmt((wire.actions['decline'] ?? 0) / bursts.length)}`,
    target: `${BURST_SERVERS * 10} / ${perBurst - BURST_SERVERS * 10}`,
    ok: shownOk && (wire.actions['decline'] ?? 0) === declinesExpected,
  });
  // The max is the arrival of the requests (one stall per burst); the p99 covers the whole drain.
  rows.push({
    measure: 'Burst: extension-host event-loop delay p99 / max (per burst)',
    result: `${runs(bursts, (b) => fmt(b.eventLoop.p99, 1))} ms / ${runs(bursts, (b) => fmt(b.eventLoop.max, 1))} ms (idle host: p99 ${fmt(idle.p99, 1)}, max ${fmt(idle.max, 1)} ms)`,
    target: `p99 < ${TARGETS.eventLoopP99Ms} ms`,
    ok: loopP99.median < TARGETS.eventLoopP99Ms,
  });
  rows.push({
    measure: `Burst: heap growth per burst (heapUsed after − before${bursts[0]?.heap.gc ? ', after gc' : ', no gc'})`,
    result: `${runs(bursts, (b) => mib(b.heap.growthBytes))}; all ${bursts.length} bursts: ${mib(heapLastAfterBytes - heapFirstBeforeBytes)}`,
    target: `< ${mib(TARGETS.heapGrowthBytes)}`,
    ok: heapGrowth.max < TARGETS.heapGrowthBytes,
  });
  rows.push({
    measure: 'Burst: time until the queue drained (per prompt: shown → answered, median)',
    result: `${runs(bursts, (b) => `${fmt(b.drainMs / 1000, 1)} s`)} (${runs(bursts, (b) => fmt(b.cycle.showToAnswerMs))} ms)`,
    target: '–',
  });
  rows.push(activation.row);
  rows.push({
    measure: 'Bundle dist/extension.js (production, minified)',
    result: `${kib(prod.sizes.extension.bytes)} (${kib(prod.sizes.extension.gzipBytes)} gzip)`,
    target: `< ${kib(TARGETS.bundleBytes)}`,
    ok: prod.sizes.extension.bytes < TARGETS.bundleBytes,
  });
  rows.push({
    measure: 'Bundle media/webview.js (production, minified)',
    result: `${kib(prod.sizes.webview.bytes)} (${kib(prod.sizes.webview.gzipBytes)} gzip)`,
    target: '–',
  });
  rows.push({
    measure: 'Actions to accept the 12-field "everything" form with its defaults',
    result: interactions
      .map(
        (r) =>
          `${r.actions} (${r.method === 'click' ? 'click Accept' : `Ctrl+Enter, once the form had keyboard focus ${fmt(r.focusDelayMs)} ms after it appeared`}${r.acceptedDefaults ? '' : ', NOT accepted with defaults'})`,
      )
      .join(', '),
    target: `${TARGETS.acceptActions}`,
    ok: actionsOk,
  });
  const gateway = gatewayFigures(gatewayResult);
  rows.push(...gateway.rows);
  const configFigs = await step('configuration load', () => configLoadRun());
  const configLoad = configLoadFigures(configFigs);
  rows.push(...configLoad.rows);
  const signInFigs = await step('sign-in', () => signInRun());
  const signIn = signInFigures(signInFigs);
  rows.push(...signIn.rows);
  const framingFigs = await step('message framing', () => framingRun());
  const framing = framingFigures(framingFigs);
  rows.push(...framing.rows);
  const relayFigs = await step('gateway relay', () => relayRun());
  rows.push(...relayFigures(relayFigs).rows);
  const eraFigs = await step('revision choice', () => eraRun());
  rows.push(...eraStartFigures(eraFigs).rows);

  const load1 = os.loadavg();
  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memGB: +(os.totalmem() / 2 ** 30).toFixed(1),
      loadavgStart: load0,
      loadavgEnd: load1,
      node: process.version,
      codeServer: CODE_SERVER_VERSION,
    },
    config: {
      samples: SAMPLES,
      rounds: ROUNDS,
      warmup: WARMUP,
      starts: STARTS,
      burstServers: BURST_SERVERS,
      perServer: PER_SERVER,
      bursts: BURSTS,
    },
    targets: TARGETS,
    latency: lat.latency,
    mrtrLatency: lat.mrtr,
    // Every sample, per round: enough to recompute each figure and interval (lib/figures.mjs).
    latencyRounds: rounds.map((r) => ({
      samples: r.latency.samples,
      failures: r.latency.failures,
      mrtrSamples: r.mrtr.samples,
      mrtrFailures: r.mrtr.failures,
      clock: r.clock,
    })),
    burst: { idle, bursts, pages, heapFirstBeforeBytes, heapLastAfterBytes, wire, lost, loopP99, loopMax, heapGrowth, drain },
    activation: { cold: activation.cold, interval: activation.interval, ok: activation.ok, coldMs },
    bundles: prod.sizes,
    interactions,
    gateway: {
      ...gateway.figures,
      tools: gatewayResult.tools,
      calls: gatewayResult.calls,
      listChanged: gatewayResult.listChanged,
      probe: gatewayResult.probe,
    },
    configLoad: { loads: configFigs, growth: configLoad.growth },
    signIn: { ...signInFigs, refreshed: signIn.refreshed, plain: signIn.plain },
    framing: { runs: framingFigs, growth: framing.growth },
    relay: relayFigs,
    era: eraFigs,
    table: rows,
    durationSeconds: Math.round((Date.now() - t0) / 1000),
  };
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, JSON.stringify(results, null, 2));
  process.stdout.write(`\n${markdownTable(rows)}\n\n`);
  process.stdout.write(
    `${SAMPLES} samples per cell and round after ${WARMUP} warm-up, ${ROUNDS} rounds; load average ${load0.map((x) => x.toFixed(2)).join(' ')} at start, ${load1.map((x) => x.toFixed(2)).join(' ')} at end on ${os.cpus().length} CPUs. ` +
      `Latency failures: ${rounds.reduce((n, r) => n + r.latency.failures.length + r.mrtr.failures.length, 0)}. Results: ${path.relative(repoRoot, RESULTS)} (${results.durationSeconds} s).\n`,
  );
  // The latency rows subtract stamps of different processes: a skew as large as the 0.1 ms they
  // are printed with would be in them. The offset skew is the precise one; a round trip only
  // shows a skew beyond its own half-width.
  const skews = rounds.flatMap((r) => [...r.clock.before, ...r.clock.after]);
  const noticeable = skews.some(
    (k) => Math.abs(k.offsetSkewMs) >= CLOCK_NOTICEABLE_MS || Math.abs(k.skewMs) - k.rttMs / 2 >= CLOCK_NOTICEABLE_MS,
  );
  if (noticeable) {
    const one = (/** @type {import('./host/clock').Skew} */ k) =>
      `${k.peer} ${fmt(k.offsetSkewMs, 2)} ms (round trip ${fmt(k.skewMs, 2)} ± ${fmt(k.rttMs / 2, 2)})`;
    process.stdout.write(
      `Clock skew against the extension host, before / after the latency rows of each round: ${skews.map(one).join(', ')}. The latency figures contain it.\n`,
    );
  }
  const missed = rows.filter((r) => r.ok === false).length;
  const undecided = rows.filter((r) => r.ok === 'undecided').length;
  const verdicts = [
    missed ? `${missed} target(s) missed` : '',
    undecided ? `${undecided} undecided (the 95 % interval contains the target)` : '',
  ].filter(Boolean);
  process.stdout.write(verdicts.length ? `${verdicts.join(', ')}: results, not a harness failure.\n` : 'All targets met.\n');
}

main().then(
  () => process.exit(0),
  (/** @type {unknown} */ err) => {
    // The step and the cause on the first line; the host's log tail and the stack below it.
    const cause = err instanceof StepFailure && err.cause instanceof Error ? err.cause : err;
    process.stderr.write(`[bench] harness failure: ${err instanceof Error ? err.message : String(err)}\n`);
    if (cause instanceof Error && cause.stack) {
      process.stderr.write(
        `${cause.stack
          .split('\n')
          .filter((l) => /^\s+at /.test(l))
          .join('\n')}\n`,
      );
    }
    process.exit(1);
  },
);
