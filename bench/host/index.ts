/**
 * Entry of the in-host benchmark, loaded by the workbench like the in-host test suite (the
 * `extensionTestsPath` of the payload) and bundled by bench/run.mjs into out/bench/index.js.
 * MCP_BENCH_MODE picks the work: `main` (latency, interactions, burst) or `activation`. Results go
 * to the harness over its control channel; a rejected run() makes the harness fail. `gateway`
 * (the agent gateway's overhead) runs in a host of its own, with VS Code's chat on.
 */
import * as vscode from 'vscode';
import { services } from '../../test/integration/helpers';
import { postResults } from './control';
import { baseline, measureLatency, ours, type LatencyResult } from './latency';
import { measureBursts, type BurstsResult } from './burst';
import { measureActivation, type ActivationResult } from './activation';
import { measureInteractions, type InteractionRun } from './interactions';
import { waitUntil } from './wait';
import { measureGateway, type GatewayResult } from './gateway';
import { probeHttp } from './httpProbe';
import { checkClocks, describeSkews, type Skew } from './clock';

const log = (m: string): void => console.log(m);

function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 ? v : fallback;
}

/** What a `main` run hands the harness. */
export interface MainResults {
  readonly latency: LatencyResult;
  /** The same InputBox form, ours both times: pushed by a 2025 server (`ours`) or asked through MRTR (`mrtr`). */
  readonly mrtr: LatencyResult;
  readonly interactions: InteractionRun[];
  readonly burst: BurstsResult;
  /** Each stamping process's clock against the host's, before the latency rows and after them. */
  readonly clock: { readonly before: Skew[]; readonly after: Skew[] };
}

/** The body of the harness's `/results` call: MainResults, ActivationResult or GatewayResult, by mode. */
export interface PostedResults {
  readonly mode: string;
  readonly results?: MainResults | ActivationResult | GatewayResult;
  readonly error?: string;
}

async function main(): Promise<MainResults> {
  const s = await services();
  const burstServers = (process.env['MCP_BENCH_BURST_SERVERS'] ?? '').split(',').filter(Boolean);
  const all = ['bench', 'benchMrtr', 'demo', ...burstServers];
  await waitUntil(() => all.every((n) => s.manager.get(n)?.state.kind === 'running'), `servers ${all.join(', ')} running`, 90_000);
  await vscode.commands.executeCommand('benchBaseline.connect');
  log(`[bench] ${all.length} servers running, baseline connected`);

  // The latency server is measured without the token bucket (it sends far more than 10 a minute):
  // the user's "Allow More" for that one server. Policy, validation and queue still run.
  s.gatekeeper.allowMore('bench');
  s.gatekeeper.allowMore('benchMrtr');
  const samples = envNumber('MCP_BENCH_SAMPLES', 30);
  const warmup = envNumber('MCP_BENCH_WARMUP', 3);
  const before = await checkClocks();
  log(`[bench] clock skew against the extension host: ${describeSkews(before)}`);
  const latency = await measureLatency([ours(s, 'bench'), baseline()], samples, warmup, log);
  const negotiated = s.manager.get('benchMrtr')?.state;
  if (negotiated?.kind !== 'running' || negotiated.protocolVersion !== '2026-07-28') throw new Error(`benchMrtr did not negotiate 2026-07-28: ${JSON.stringify(negotiated)}`);
  // The smallest widget: the one where a protocol's extra cost would show most.
  const mrtr = await measureLatency([ours(s, 'bench'), ours(s, 'benchMrtr', 'mrtr')], samples, warmup, log, ['inputBox']);
  const after = await checkClocks();
  log(`[bench] clock skew after the latency rows: ${describeSkews(after)}`);
  const interactions = await measureInteractions(s, 'demo');
  log(`[bench] interactions: ${interactions.map((r) => `${r.method} ${r.actions}`).join(', ')}`);
  const burst = await measureBursts(s, burstServers, envNumber('MCP_BENCH_BURST_PER_SERVER', 100), Math.max(1, envNumber('MCP_BENCH_BURSTS', 3)), log);
  return { latency, mrtr, interactions, burst, clock: { before, after } };
}

async function activation(): Promise<ActivationResult> {
  const s = await services();
  return measureActivation(s, envNumber('MCP_BENCH_WARM_REPS', 0), log);
}

/**
 * The harness names the servers: `direct` (stdio) and `http` in .vscode/mcp.json (VS Code's),
 * `gateway` in our setting (stdio upstream), and `gatewayHttp` there too, in front of the very HTTP
 * server that `http` reaches directly.
 */
async function gateway(): Promise<GatewayResult> {
  const s = await services();
  const direct = process.env['MCP_BENCH_GATEWAY_DIRECT'] ?? 'gwdirect';
  const overHttp = process.env['MCP_BENCH_GATEWAY_HTTP'] ?? 'gwhttp';
  const relayed = process.env['MCP_BENCH_GATEWAY_RELAYED'] ?? 'gwrelay';
  const relayedHttp = process.env['MCP_BENCH_GATEWAY_RELAYED_HTTP'];
  // VS Code ids a server of the first folder's .vscode/mcp.json `mcp.config.ws0.<name>`.
  const servers = [
    { path: 'direct', name: direct, id: `mcp.config.ws0.${direct}` },
    { path: 'http', name: overHttp, id: `mcp.config.ws0.${overHttp}` },
    { path: 'gateway', name: relayed },
    ...(relayedHttp ? [{ path: 'gatewayHttp', name: relayedHttp } as const] : []),
  ] as const;
  const calls = envNumber('MCP_BENCH_GATEWAY_CALLS', 100);
  const warmup = envNumber('MCP_BENCH_WARMUP', 3);
  const result = await measureGateway(s, servers, calls, warmup, envNumber('MCP_BENCH_GATEWAY_LIST_RUNS', 7), log);
  const probeUrl = process.env['MCP_BENCH_GATEWAY_PROBE_URL'];
  return probeUrl ? { ...result, probe: await probeHttp(probeUrl, calls, warmup) } : result;
}

export async function run(): Promise<void> {
  const mode = process.env['MCP_BENCH_MODE'] ?? 'main';
  try {
    const results = mode === 'activation' ? await activation() : mode === 'gateway' ? await gateway() : await main();
    await postResults({ mode, results } satisfies PostedResults);
  } catch (err) {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    console.error(`[bench] in-host failure: ${message}`);
    await postResults({ mode, error: message } satisfies PostedResults).catch(() => undefined);
    throw err;
  }
}
