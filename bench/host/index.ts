/**
 * Entry of the in-host benchmark, loaded by the workbench like the in-host test suite (the
 * `extensionTestsPath` of the payload) and bundled by bench/run.mjs into out/bench/index.js.
 * MCP_BENCH_MODE picks the work, one mode per code-server: `latency` (ours against the baseline,
 * then MRTR against pushed; the harness runs several such hosts), `main` (interactions and the
 * burst), `activation` (this host's cold activation figure) or `gateway` (the agent gateway's
 * overhead, with VS Code's chat on). Results go to the harness over its control channel; a
 * rejected run() makes the harness fail.
 */
import * as vscode from 'vscode';
import { postResults } from './control';
import { baseline, measureLatency, ours, type LatencyResult } from './latency';
import { measureBursts, type BurstsResult } from './burst';
import { measureActivation, type ActivationResult } from './activation';
import { measureInteractions, type InteractionRun } from './interactions';
import { waitUntil } from './wait';
import { measureGateway, type AgentServer, type GatewayPath, type GatewayResult } from './gateway';
import { openTcpPipe } from '../lib/tcpPipe.mjs';
import { probeHttp } from './httpProbe';
import { measureSampling } from './sampling';
import { checkClocks, describeSkews, type Skew } from './clock';
import { extensionUnderTest } from './extension';

const log = (m: string): void => console.log(m);

function envNumber(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 ? v : fallback;
}

/** What a `latency` run hands the harness. */
export interface LatencyRunResults {
  readonly latency: LatencyResult;
  /** The same InputBox form, ours both times: pushed by a 2025 server (`ours`) or asked through MRTR (`mrtr`). */
  readonly mrtr: LatencyResult;
  /** Each stamping process's clock against the host's, before the latency rows and after them. */
  readonly clock: { readonly before: Skew[]; readonly after: Skew[] };
}

/** What a `main` run hands the harness. */
export interface MainResults {
  readonly interactions: InteractionRun[];
  readonly burst: BurstsResult;
}

/** The body of the harness's `/results` call: one of the results above, by mode. */
export interface PostedResults {
  readonly mode: string;
  readonly results?: LatencyRunResults | MainResults | ActivationResult | GatewayResult;
  readonly error?: string;
}

async function latency(): Promise<LatencyRunResults> {
  const ext = await extensionUnderTest();
  const servers = ['bench', 'benchMrtr'];
  await waitUntil(() => ext.allRunning(servers), `servers ${servers.join(', ')} running`, 90_000);
  await vscode.commands.executeCommand('benchBaseline.connect');
  log(`[bench] ${servers.length} servers running, baseline connected`);

  // The latency servers are measured without the token bucket (they send far more than 10 a
  // minute): the user's "Allow More" for them. Policy, validation and queue still run.
  for (const server of servers) ext.allowMore(server);
  const samples = envNumber('MCP_BENCH_SAMPLES', 30);
  const warmup = envNumber('MCP_BENCH_WARMUP', 3);
  const before = await checkClocks();
  log(`[bench] clock skew against the extension host: ${describeSkews(before)}`);
  const vsBaseline = await measureLatency([ours(ext, 'bench'), baseline()], samples, warmup, log);
  // benchMrtr speaks only 2026-07-28 (it rejects `initialize`): running means it negotiated that.
  // The smallest widget: the one where a protocol's extra cost would show most.
  const mrtr = await measureLatency([ours(ext, 'bench'), ours(ext, 'benchMrtr', 'mrtr')], samples, warmup, log, ['inputBox']);
  const after = await checkClocks();
  log(`[bench] clock skew after the latency rows: ${describeSkews(after)}`);
  return { latency: vsBaseline, mrtr, clock: { before, after } };
}

async function main(): Promise<MainResults> {
  const ext = await extensionUnderTest();
  const burstServers = (process.env['MCP_BENCH_BURST_SERVERS'] ?? '').split(',').filter(Boolean);
  const all = ['demo', ...burstServers];
  await waitUntil(() => ext.allRunning(all), `servers ${all.join(', ')} running`, 90_000);
  log(`[bench] ${all.length} servers running`);
  const interactions = await measureInteractions(ext, 'demo');
  log(`[bench] interactions: ${interactions.map((r) => `${r.method} ${r.actions}`).join(', ')}`);
  const burst = await measureBursts(
    ext,
    burstServers,
    envNumber('MCP_BENCH_BURST_PER_SERVER', 100),
    Math.max(1, envNumber('MCP_BENCH_BURSTS', 3)),
    log,
  );
  return { interactions, burst };
}

async function activation(): Promise<ActivationResult> {
  return measureActivation(await extensionUnderTest());
}

/**
 * The harness names the servers: `direct` (stdio) and `http` in .vscode/mcp.json (VS Code's),
 * `gateway` in our setting (stdio upstream), and `gatewayHttp` there too, in front of the very HTTP
 * server that `http` reaches directly.
 */
async function gateway(): Promise<GatewayResult> {
  const ext = await extensionUnderTest();
  const direct = process.env['MCP_BENCH_GATEWAY_DIRECT'] ?? 'gwdirect';
  const overHttp = process.env['MCP_BENCH_GATEWAY_HTTP'] ?? 'gwhttp';
  const relayed = process.env['MCP_BENCH_GATEWAY_RELAYED'] ?? 'gwrelay';
  const relayedHttp = process.env['MCP_BENCH_GATEWAY_RELAYED_HTTP'];
  const pipeHost = process.env['MCP_BENCH_GATEWAY_PIPE_HOST'];
  const pipeProcess = process.env['MCP_BENCH_GATEWAY_PIPE_PROCESS'];
  // VS Code ids a server of the first folder's .vscode/mcp.json `mcp.config.ws0.<name>`.
  const inMcpJson = (path: GatewayPath, name: string): AgentServer => ({ path, name, id: `mcp.config.ws0.${name}` });
  const servers: AgentServer[] = [
    inMcpJson('direct', direct),
    inMcpJson('http', overHttp),
    { path: 'gateway', name: relayed },
    ...(relayedHttp ? [{ path: 'gatewayHttp', name: relayedHttp } as const] : []),
    ...(pipeHost ? [inMcpJson('pipeHost', pipeHost)] : []),
    ...(pipeProcess ? [inMcpJson('pipeProcess', pipeProcess)] : []),
  ];
  // The in-host pipe listens on the port the harness wrote into mcp.json for it.
  const pipe = pipeHost
    ? await openTcpPipe(envNumber('MCP_BENCH_GATEWAY_UPSTREAM_PORT', 0), envNumber('MCP_BENCH_GATEWAY_PIPE_HOST_PORT', 0))
    : undefined;
  const calls = envNumber('MCP_BENCH_GATEWAY_CALLS', 100);
  const warmup = envNumber('MCP_BENCH_WARMUP', 3);
  const result = await measureGateway(ext, servers, calls, warmup, envNumber('MCP_BENCH_GATEWAY_LIST_RUNS', 7), log).finally(
    () => void pipe?.close(),
  );
  const probeUrl = process.env['MCP_BENCH_GATEWAY_PROBE_URL'];
  const probe = probeUrl ? await probeHttp(probeUrl, calls, warmup) : undefined;
  const sampler = process.env['MCP_BENCH_SAMPLING_SERVER'];
  const sampling = sampler ? await measureSampling(ext, sampler, envNumber('MCP_BENCH_SAMPLING_CALLS', calls), warmup, log) : undefined;
  const transport = vscode.workspace.getConfiguration('mcpElicitation').get('gateway.transport') === 'http' ? 'http' : 'stdio';
  return { ...result, transport, ...(probe ? { probe } : {}), ...(sampling ? { sampling } : {}) };
}

export async function run(): Promise<void> {
  const mode = process.env['MCP_BENCH_MODE'] ?? 'main';
  try {
    const modes: Record<string, (() => Promise<NonNullable<PostedResults['results']>>) | undefined> = {
      latency,
      main,
      activation,
      gateway,
    };
    const run = modes[mode];
    if (!run) throw new Error(`unknown MCP_BENCH_MODE ${mode}`);
    const results = await run();
    await postResults({ mode, results } satisfies PostedResults);
  } catch (err) {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    console.error(`[bench] in-host failure: ${message}`);
    await postResults({ mode, error: message } satisfies PostedResults).catch(() => undefined);
    throw err;
  }
}
