/**
 * Burst: every burst server sends `perServer` elicitation/create requests at once, under the
 * default policy and rate limit. The prompts that get through are cancelled by a click on their
 * Cancel button in the page as soon as the workbench has drawn them (a user as fast as the page
 * allows); everything else must be declined by the rate limit. Measured inside the extension host: event-loop delay, heap growth, drain time.
 * Whether each request got exactly one response is checked by the harness from the servers' own
 * records, not here.
 */
import * as vscode from 'vscode';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ExtensionUnderTest } from './extension';
import { waitUntil } from './wait';
import { canceller, collectPageGarbage } from './control';

/** How long a prompt may wait for the page's click before the host cancels it itself. */
const CLICK_GRACE_MS = 10_000;

/** Timer resolution of the event-loop monitor; its samples include this interval. */
const RESOLUTION_MS = 10;

/** Event-loop delay while the host is idle, the floor a burst is judged against. */
export interface LoopDelay {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly samples: number;
  readonly resolutionMs: number;
}

export interface BurstResult {
  readonly servers: number;
  readonly perServer: number;
  /** Tool results as the servers summarised them: action → count, per server. */
  readonly toolSummaries: unknown[];
  readonly toolErrors: string[];
  readonly promptsShown: number;
  /** Cancel clicks the page landed (one per prompt, unless a click hit a question already going). */
  readonly clicks: number;
  /**
   * Prompts the page's clicks did not cancel within {@link CLICK_GRACE_MS}, cancelled from the
   * host instead so the burst still drains; nonzero means the figures are not a user's.
   */
  readonly hostCancelled: number;
  /**
   * Medians over the prompts of one burst: shown → answered (the close travels to the page and
   * back) and answered → next prompt shown (the host alone).
   */
  readonly cycle: { readonly showToAnswerMs: number; readonly answerToNextShowMs: number };
  /** Every event-loop stall over 100 ms: when (ms after the burst started) and how long. */
  readonly stalls: { readonly atMs: number; readonly ms: number }[];
  readonly drainMs: number;
  /** Event-loop delay beyond the timer interval, ms. */
  readonly eventLoop: LoopDelay;
  readonly heap: { readonly beforeBytes: number; readonly afterBytes: number; readonly growthBytes: number; readonly gc: boolean };
}

/** A real collection when the host allows it, so heap figures are live objects, not garbage. */
function collector(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    // The extension host starts without --expose-gc; the flag still takes effect for a new context.
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

async function settledHeap(gc: (() => void) | undefined): Promise<number> {
  // Two rounds: the first may only finalise what the second then frees.
  for (let i = 0; i < 2; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 0));
  }
  return process.memoryUsage().heapUsed;
}

function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  return ((v[Math.floor((v.length - 1) / 2)] ?? NaN) + (v[Math.ceil((v.length - 1) / 2)] ?? NaN)) / 2;
}

const ms = (ns: number): number => Math.max(0, ns / 1e6 - RESOLUTION_MS);

function summary(h: ReturnType<typeof monitorEventLoopDelay>): LoopDelay {
  return { p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), samples: h.count, resolutionMs: RESOLUTION_MS };
}

/** The same monitor over `durationMs` of doing nothing: what the machine alone costs. */
export async function idleLoopDelay(durationMs: number): Promise<LoopDelay> {
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  h.enable();
  await new Promise((r) => setTimeout(r, durationMs));
  h.disable();
  return summary(h);
}

/**
 * `repeats` bursts in a row. Between bursts the servers' rate-limit state is reset, as if each
 * burst came in a fresh 60-s window, and the page collects its garbage (so every burst meets the
 * browser in the same state); everything in the host (history, audit, connections) carries over,
 * so the heap after the last burst also shows whether anything accumulates there.
 */
export interface BurstsResult {
  readonly idle: LoopDelay;
  readonly bursts: BurstResult[];
  readonly pages: { domNodes: number; jsHeapBytes: number }[];
  readonly heapFirstBeforeBytes: number;
  readonly heapLastAfterBytes: number;
}

export async function measureBursts(
  ext: ExtensionUnderTest,
  servers: readonly string[],
  perServer: number,
  repeats: number,
  log: (m: string) => void,
): Promise<BurstsResult> {
  const idle = await idleLoopDelay(3_000);
  log(`[bench] idle event-loop delay p99 ${idle.p99.toFixed(1)} ms, max ${idle.max.toFixed(1)} ms`);
  const bursts: BurstResult[] = [];
  /** The page (after a GC) before each burst and after the last one. */
  const pages: { domNodes: number; jsHeapBytes: number }[] = [];
  for (let i = 0; i < repeats; i++) {
    if (i > 0) for (const name of servers) ext.forgetRateLimit(name);
    // Diagnosis only (MCP_BENCH_PROFILE names a file): a CPU profile of the first burst. The
    // profiler slows the host, so figures from such a run are not results.
    const profile = i === 0 ? process.env['MCP_BENCH_PROFILE'] : undefined;
    pages.push(await collectPageGarbage());
    const b = await measureBurst(ext, servers, perServer, profile);
    log(
      `[bench] burst ${i + 1}/${repeats}: drained in ${b.drainMs} ms, ${b.promptsShown} prompts, ${b.clicks} Cancel clicks, ${b.hostCancelled} cancelled by the host (shown → answered ${b.cycle.showToAnswerMs} ms, answered → next shown ${b.cycle.answerToNextShowMs} ms), ` +
        `loop p99 ${b.eventLoop.p99.toFixed(1)} ms, heap ${(b.heap.growthBytes / 2 ** 20).toFixed(1)} MB`,
    );
    bursts.push(b);
  }
  pages.push(await collectPageGarbage());
  return {
    idle,
    bursts,
    pages,
    heapFirstBeforeBytes: bursts[0]?.heap.beforeBytes ?? 0,
    heapLastAfterBytes: bursts[bursts.length - 1]?.heap.afterBytes ?? 0,
  };
}

export async function measureBurst(
  ext: ExtensionUnderTest,
  servers: readonly string[],
  perServer: number,
  profileFile?: string,
): Promise<BurstResult> {
  const gc = collector();
  const beforeBytes = await settledHeap(gc);

  // The page cancels each prompt once it is drawn (bench/lib/page.mjs, startCanceller). The host
  // only watches: cancelling here, the moment show() is called, would answer prompts the workbench
  // never drew, and drain 100 of them in half a second, faster than anyone can read one.
  let promptsShown = 0;
  let onScreen: { id: string; shownAt: number } | undefined;
  let hostCancelled = 0;
  const showToAnswer: number[] = [];
  const answerToNextShow: number[] = [];
  let lastAnswerAt: number | undefined;
  const sub = ext.onDidShowPrompt((e) => {
    promptsShown++;
    const now = Date.now();
    onScreen = { id: e.id, shownAt: now };
    if (lastAnswerAt !== undefined) answerToNextShow.push(now - lastAnswerAt);
  });
  const finished = ext.onDidFinish((f) => {
    if (f.id !== onScreen?.id) return;
    lastAnswerAt = Date.now();
    showToAnswer.push(lastAnswerAt - onScreen.shownAt);
    onScreen = undefined;
  });
  // A safety net, not part of the figure: should the page's clicks stop landing, the burst still
  // drains, and the count says the run is not a user's.
  const watchdog = setInterval(() => {
    if (onScreen && Date.now() - onScreen.shownAt > CLICK_GRACE_MS) {
      hostCancelled++;
      ext.cancel(onScreen.id);
    }
  }, 500);
  await canceller(true);
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  const params = {
    message: 'Burst request',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'Keep going' } }, required: ['ok'] },
  };
  const session = profileFile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  h.enable();
  const t0 = Date.now();
  // Where the long stalls fall: at the start (1,000 requests arriving) or spread out (the machine).
  const stalls: { atMs: number; ms: number }[] = [];
  let tick = Date.now();
  const stallProbe = setInterval(() => {
    const now = Date.now();
    if (now - tick - 10 > 100) stalls.push({ atMs: now - t0, ms: now - tick - 10 });
    tick = now;
  }, 10);
  const toolErrors: string[] = [];
  const toolSummaries: unknown[] = [];
  let clicks = 0;
  try {
    const calls = servers.map((name) =>
      Promise.resolve(
        vscode.commands.executeCommand('mcpElicitation.runTool', name, 'burst', { count: perServer, params, tag: name }),
      ).then(
        (r) =>
          toolSummaries.push({ server: name, ...(JSON.parse((r as { content: { text: string }[] }).content[0]?.text ?? '{}') as object) }),
        (e: unknown) => toolErrors.push(`${name}: ${e instanceof Error ? e.message : String(e)}`),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(calls),
      new Promise(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`burst tool calls did not return within 180 s (queue ${ext.api.pending().length})`)),
            180_000,
          )),
      ),
    ]).finally(() => clearTimeout(timer));
    await waitUntil(() => ext.idle(), 'the queue to drain after the burst', 60_000);
  } finally {
    h.disable();
    clicks = (await canceller(false)).clicks;
    clearInterval(watchdog);
    clearInterval(stallProbe);
    sub.dispose();
    finished.dispose();
    if (session && profileFile) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(profileFile, JSON.stringify(profile));
      session.disconnect();
    }
  }
  const drainMs = Date.now() - t0;
  // Audit lines are written asynchronously; they are part of the work a burst causes.
  await ext.flushAudit();
  const afterBytes = await settledHeap(gc);
  return {
    servers: servers.length,
    perServer,
    toolSummaries,
    toolErrors,
    promptsShown,
    clicks,
    hostCancelled,
    cycle: { showToAnswerMs: median(showToAnswer), answerToNextShowMs: median(answerToNextShow) },
    stalls,
    drainMs,
    eventLoop: summary(h),
    heap: { beforeBytes, afterBytes, growthBytes: afterBytes - beforeBytes, gc: gc !== undefined },
  };
}
