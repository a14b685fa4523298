/**
 * The check that the processes stamping latency figures share one clock (bench/lib/wallClock.mjs):
 * each one's skew against this extension host, measured two independent ways.
 */
import * as vscode from 'vscode';
import { harnessClock, pageClock } from './control';
import { now, systemClockOffset } from '../lib/wallClock.mjs';

export { now };

/** How far a peer process's clock is ahead of the extension host's. */
export interface Skew {
  readonly peer: string;
  /** Peer stamp minus the midpoint of the host's send and receive, at the shortest round trip. */
  readonly skewMs: number;
  /** That round trip: `skewMs` is known to ±half of it. */
  readonly rttMs: number;
  /** The peer's offset from the system clock minus the host's: the skew without a round trip. */
  readonly offsetSkewMs: number;
}

interface Probe {
  readonly skewMs: number;
  readonly rttMs: number;
}

/**
 * Asks `stamp` for the peer's time `probes` times and keeps the probe with the shortest round
 * trip: that one bounds the error best, since the peer stamped somewhere between send and receive.
 */
async function roundTrip(stamp: () => Promise<number>, probes: number): Promise<Probe> {
  let best: Probe | undefined;
  for (let i = 0; i < probes; i++) {
    const t0 = now();
    const at = await stamp();
    const t1 = now();
    if (!best || t1 - t0 < best.rttMs) best = { skewMs: at - (t0 + t1) / 2, rttMs: t1 - t0 };
  }
  if (!best) throw new Error('no clock probes');
  return best;
}

/** Calls a tool of the baseline's bench server and reads the number `key` from its result. */
async function serverTool(tool: 'clock' | 'clockOffset', key: 'at' | 'offsetMs'): Promise<number> {
  const r = await vscode.commands.executeCommand<{ content?: { type: string; text?: string }[] } | undefined>(
    'benchBaseline.callTool',
    tool,
    {},
  );
  const value = (JSON.parse(r?.content?.[0]?.text ?? '{}') as Record<string, unknown>)[key];
  if (typeof value !== 'number') throw new Error(`the bench server's ${tool} tool returned no ${key}: ${JSON.stringify(r)}`);
  return value;
}

/**
 * The skew of each stamping process against this extension host:
 * - `bench server`: a process of bench/fixtures/benchServer.mjs (the baseline's), asked through
 *   its `clock` and `clockOffset` tools over the baseline's SDK client;
 * - `page`: the workbench page in Chromium, where "visible" is stamped. Its round trip has two
 *   hops, host → harness (bench/run.mjs, over the control channel) and harness → page
 *   (Playwright), each taken at its own shortest round trip; `rttMs` is their sum.
 */
export async function checkClocks(probes = 30): Promise<Skew[]> {
  const host = systemClockOffset();
  const server = await roundTrip(() => serverTool('clock', 'at'), probes);
  const serverOffset = await serverTool('clockOffset', 'offsetMs');
  const harness = await roundTrip(async () => (await harnessClock()).at, probes);
  const page = await pageClock(probes);
  return [
    { peer: 'bench server', ...server, offsetSkewMs: serverOffset - host },
    { peer: 'page', skewMs: harness.skewMs + page.skewMs, rttMs: harness.rttMs + page.rttMs, offsetSkewMs: page.offsetMs - host },
  ];
}

export const describeSkews = (skews: readonly Skew[]): string =>
  skews
    .map(
      (s) =>
        `${s.peer} ${sign(s.offsetSkewMs)} ms against the system clock, ${sign(s.skewMs)} ± ${(s.rttMs / 2).toFixed(2)} ms by round trip`,
    )
    .join('; ');

const sign = (ms: number): string => `${ms >= 0 ? '+' : ''}${ms.toFixed(2)}`;
