/**
 * The one clock of the latency figures, and a check that the processes stamping it agree.
 *
 * A latency sample subtracts a bench server's send stamp from the page's "visible" stamp (and
 * from the extension host's show() stamp). With Date.now() on both sides each stamp is cut to a
 * whole millisecond, which is 6 to 10 % of a 10 to 16 ms figure. Every process that stamps uses
 * `performance.timeOrigin + performance.now()` instead: a monotonic, sub-millisecond time that
 * each process aligns with the wall clock once, when it starts. Two processes agree only if those
 * alignments do, hence `checkClocks`.
 */
import * as vscode from 'vscode';
import { harnessClock, pageClock } from './control';

/** Wall-clock-aligned, sub-millisecond time in ms: the stamp every latency figure is made of. */
export const now = (): number => performance.timeOrigin + performance.now();

/** How far a peer process's clock is ahead of the extension host's. */
export interface Skew {
  readonly peer: string;
  /** Peer stamp minus the midpoint of the host's send and receive, at the shortest round trip. */
  readonly skewMs: number;
  /** That round trip: the skew is known to ±half of it. */
  readonly rttMs: number;
}

/**
 * Asks `stamp` for the peer's time `probes` times and keeps the probe with the shortest round
 * trip: that one bounds the error best, since the peer stamped somewhere between send and receive.
 */
async function estimate(peer: string, stamp: () => Promise<number>, probes: number): Promise<Skew> {
  let best: Skew | undefined;
  for (let i = 0; i < probes; i++) {
    const t0 = now();
    const at = await stamp();
    const t1 = now();
    if (!best || t1 - t0 < best.rttMs) best = { peer, skewMs: at - (t0 + t1) / 2, rttMs: t1 - t0 };
  }
  if (!best) throw new Error('no clock probes');
  return best;
}

function toolStamp(result: unknown): number {
  const r = result as { content?: { type: string; text?: string }[] } | undefined;
  const at = (JSON.parse(r?.content?.[0]?.text ?? '{}') as { at?: unknown }).at;
  if (typeof at !== 'number') throw new Error(`the bench server's clock tool returned no stamp: ${JSON.stringify(result)}`);
  return at;
}

/**
 * The skew of each stamping process against this extension host:
 * - `bench server`: a process of bench/fixtures/benchServer.mjs (the baseline's), asked through
 *   its `clock` tool over the baseline's SDK client;
 * - `page`: the workbench page in Chromium, where "visible" is stamped. It is measured in two hops,
 *   host → harness (bench/run.mjs, over the control channel) and harness → page (Playwright), each
 *   at its own shortest round trip; its `rttMs` is the sum of both.
 */
export async function checkClocks(probes = 30): Promise<Skew[]> {
  const server = await estimate('bench server', async () => toolStamp(await vscode.commands.executeCommand('benchBaseline.callTool', 'clock', {})), probes);
  const harness = await estimate('harness', async () => (await harnessClock()).at, probes);
  const page = await pageClock(probes);
  return [server, { peer: 'page', skewMs: harness.skewMs + page.skewMs, rttMs: harness.rttMs + page.rttMs }];
}

export const describeSkews = (skews: readonly Skew[]): string =>
  skews.map((s) => `${s.peer} ${s.skewMs >= 0 ? '+' : ''}${s.skewMs.toFixed(2)} ms (±${(s.rttMs / 2).toFixed(2)})`).join(', ');
