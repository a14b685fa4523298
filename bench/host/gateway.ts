/**
 * The agent gateway's cost, as the agent notices it: the same fixture tool (`echo` of
 * bench/fixtures/gatewayServer.mjs) called with vscode.lm.invokeTool on copies of one server
 * program: one that VS Code's own MCP client runs directly over stdio (a .vscode/mcp.json server,
 * left to VS Code), one that VS Code reaches directly over Streamable HTTP (also in mcp.json), one
 * that our extension runs over stdio and offers through the gateway (in `mcpElicitation.servers`),
 * and the gateway again in front of that very HTTP process. The last against HTTP direct is what
 * routing a server VS Code could call itself costs the agent. VS Code reaches the gateway the way
 * `mcpElicitation.gateway.transport` says (MCP_BENCH_GATEWAY_TRANSPORT sets it; stdio by default).
 * Calls go in order and then in reverse (ABCD DCBA) after warm-ups. Then the time from the
 * upstream writing notifications/tools/list_changed to the new tool being in vscode.lm.tools, on
 * the stdio copy and the gateway's.
 */
import { writeFileSync } from 'node:fs';
import { Session as InspectorSession } from 'node:inspector/promises';
import type { ExtensionUnderTest } from './extension';
import { agentTool, invoke, startAsAgent } from '../../test/integration/agent';
import type { HttpProbeResult } from './httpProbe';
import { waitUntil } from './wait';
import type { SamplingBenchResult } from './sampling';

/**
 * `pipeHost` and `pipeProcess` are VS Code reaching the HTTP copy through a raw TCP pipe
 * (bench/lib/tcpPipe.mjs), in the extension host and in a process of its own: the floor of a relay.
 */
export type GatewayPath = 'direct' | 'http' | 'gateway' | 'gatewayHttp' | 'pipeHost' | 'pipeProcess';

/** One server as the agent starts it: its label and the id workbench.mcp.startServer takes. */
export interface AgentServer {
  readonly path: GatewayPath;
  readonly name: string;
  readonly id?: string;
}

export interface GatewayResult {
  /** invokeTool → result, ms, per measured call (warm-ups left out). */
  readonly calls: { path: GatewayPath; ms: number }[];
  readonly warmup: number;
  /** Upstream list_changed written → tool in vscode.lm.tools, ms, per run. */
  readonly listChanged: { path: GatewayPath; ms: number }[];
  /** The extension host's own HTTP round trips to the HTTP copy (httpProbe.ts), when asked for. */
  readonly probe?: HttpProbeResult;
  /** How VS Code reached the gateway (`mcpElicitation.gateway.transport`); index.ts adds it. */
  readonly transport?: 'stdio' | 'http';
  /** The agent's names for the echo tools, for the record. */
  readonly tools: Partial<Record<GatewayPath, string>>;
  /** Sampling through our path against `vscode.lm` directly (sampling.ts), in the same host (it needs chat on). */
  readonly sampling?: SamplingBenchResult;
}

const now = (): number => performance.timeOrigin + performance.now();

async function timedEcho(server: AgentServer, i: number): Promise<number> {
  const text = `call ${server.path} ${i}`;
  const t0 = performance.now();
  const out = await invoke(server.name, 'echo', { text });
  const ms = performance.now() - t0;
  if (out !== text) throw new Error(`${server.path} echo answered ${JSON.stringify(out)}, not ${JSON.stringify(text)}`);
  return ms;
}

/**
 * Resolves with the host time at which `tool` of `server` is in vscode.lm.tools. The extension
 * API has no event for that list, so it is polled every millisecond (Node's timer floor).
 */
async function whenListed(server: AgentServer, tool: string, timeoutMs: number): Promise<number> {
  const t0 = Date.now();
  while (!agentTool(server.name, tool)) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`${server.path}: ${tool} did not reach vscode.lm.tools within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 1));
  }
  return now();
}

async function listChangedOnce(server: AgentServer, k: number): Promise<number> {
  const tool = `late${server.path}${k}`;
  const listed = whenListed(server, tool, 20_000);
  listed.catch(() => undefined);
  const { sentAt } = JSON.parse(await invoke(server.name, 'addTool', { name: tool })) as { sentAt?: number };
  if (sentAt === undefined) throw new Error(`${server.path}: the fixture did not report sending list_changed`);
  return (await listed) - sentAt;
}

async function profileCalls(server: AgentServer, n: number, file: string): Promise<void> {
  const inspector = new InspectorSession();
  inspector.connect();
  try {
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
    await inspector.post('Profiler.start');
    for (let i = 0; i < n; i++) await timedEcho(server, i);
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
  } finally {
    inspector.disconnect();
  }
}

export async function measureGateway(
  ext: ExtensionUnderTest,
  servers: readonly AgentServer[],
  n: number,
  warmup: number,
  listRuns: number,
  log: (m: string) => void,
): Promise<GatewayResult> {
  for (const ours of servers.filter((x) => x.path === 'gateway' || x.path === 'gatewayHttp')) {
    await waitUntil(
      () => ext.allRunning([ours.name]) && ext.offeredToAgent(ours.name),
      `${ours.name} running with a gateway endpoint`,
      60_000,
    );
  }
  // An mcp.json server is untrusted until someone starts it on purpose; autoTrustChanges is that.
  for (const server of servers) await startAsAgent(server.name, 'echo', server.id, server.id ? { autoTrustChanges: true } : {});
  const tools = Object.fromEntries(servers.map((x) => [x.path, agentTool(x.name, 'echo')?.name ?? '?'])) as Partial<
    Record<GatewayPath, string>
  >;
  // Two paths on one tool would measure one path twice (VS Code names tools after serverInfo).
  if (new Set(Object.values(tools)).size !== servers.length) {
    throw new Error(`the paths do not have an echo tool each: ${JSON.stringify(tools)}`);
  }
  log(`[bench] gateway: agent tools ${servers.map((x) => `${x.path} ${tools[x.path]}`).join(', ')}`);

  const calls: GatewayResult['calls'] = [];
  for (let i = 0; i < warmup + n; i++) {
    // ABCD DCBA: no path always runs first after another.
    const order = i % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const ms = await timedEcho(server, i);
      if (i >= warmup) calls.push({ path: server.path, ms });
    }
  }
  // Diagnosis only (MCP_BENCH_PROFILE=<file>): a CPU profile of this extension host over more calls
  // of the gateway in front of the HTTP copy, after the measured ones; no figure comes from it.
  const profileTo = process.env['MCP_BENCH_PROFILE'];
  // VS Code calling the HTTP copy itself is profiled too (`<file>.direct`): what both paths pay.
  const profiled = servers.find((x) => x.path === 'gatewayHttp');
  const direct = servers.find((x) => x.path === 'http');
  if (profileTo && profiled) await profileCalls(profiled, n, profileTo);
  if (profileTo && direct) await profileCalls(direct, n, `${profileTo}.direct`);
  const listChanged: GatewayResult['listChanged'] = [];
  // The list_changed row compares the gateway with VS Code running the server itself.
  const listing = servers.filter((x) => x.path === 'direct' || x.path === 'gateway');
  for (let k = 0; k < listRuns; k++) {
    const order = k % 2 === 0 ? listing : [...listing].reverse();
    for (const server of order) listChanged.push({ path: server.path, ms: await listChangedOnce(server, k) });
  }
  const med = (v: number[]): string => (v.sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN).toFixed(2);
  const of = <T extends { path: GatewayPath; ms: number }>(rows: T[], p: GatewayPath): number[] =>
    rows.filter((r) => r.path === p).map((r) => r.ms);
  log(
    `[bench] gateway: echo direct ${med(of(calls, 'direct'))} ms, http ${med(of(calls, 'http'))} ms, gateway ${med(of(calls, 'gateway'))} ms, gateway to http ${med(of(calls, 'gatewayHttp'))} ms; list_changed direct ${med(of(listChanged, 'direct'))} ms, gateway ${med(of(listChanged, 'gateway'))} ms (medians)`,
  );
  return { calls, warmup, listChanged, tools };
}
