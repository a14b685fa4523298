/**
 * What the gateway's stdio door costs beyond its per-call time, in plain Node: VS Code runs one
 * relay process per agent session (src/gateway/stdioRelay.ts), so a session holds that process's
 * memory and waits for its start. A real MCP client (the SDK's, as the extension host would be)
 * starts the relay as VS Code does, joined to a real endpoint's socket door, and takes its first
 * answer; the same client opening a session on the endpoint's HTTP door is the comparison. The
 * relay's memory is read from /proc once it carries a session (Linux only; elsewhere the row says
 * so): resident, proportional (its share of pages it shares with other processes) and private.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { GatewayEndpoint } from '../../src/gateway/endpoint';
import { keyHeaders } from '../../src/gateway/admission';
import { SocketHome } from '../../src/gateway/socketDir';
import { KEY_ENV, SOCKET_ENV } from '../../src/gateway/relayEnv';
import type { GatewayUpstream } from '../../src/gateway/upstream';

export interface RelayMemory {
  readonly rssKb: number;
  readonly pssKb: number;
  readonly privateKb: number;
}

export interface RelayCostFigure {
  /** Start → first `tools/list` answer, ms, per start: through the relay, and over the HTTP door. */
  readonly relayStartMs: number[];
  readonly httpStartMs: number[];
  /** One relay's memory with a session open; undefined without /proc. */
  readonly memory: RelayMemory | undefined;
}

const KEY = 'bench-relay-key-0123456789abcdefghijklmnopq';

/** An upstream that answers `tools/list` at once: the start is what is measured, not the server. */
const upstream: GatewayUpstream = {
  name: 'bench',
  isRunning: true,
  state: { kind: 'running' },
  serverCapabilities: { tools: {} },
  serverInfo: { name: 'bench-upstream', version: '1' },
  instructions: undefined,
  onDidChange: () => ({ dispose: () => undefined }),
  onDidNotify: () => ({ dispose: () => undefined }),
  start: () => Promise.resolve(),
  relay: () => Promise.resolve({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }),
};

function memoryOf(pid: number | null | undefined): RelayMemory | undefined {
  if (process.platform !== 'linux' || !pid) return undefined;
  const kb = (text: string, field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return {
    rssKb: kb(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS'),
    pssKb: kb(rollup, 'Pss'),
    privateKb: kb(rollup, 'Private_Clean') + kb(rollup, 'Private_Dirty'),
  };
}

async function firstAnswer(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<{ ms: number; client: Client }> {
  const t0 = performance.now();
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const ms = performance.now() - t0;
  if (tools[0]?.name !== 'echo') throw new Error(`relay bench: the first answer was ${JSON.stringify(tools)}`);
  return { ms, client };
}

/**
 * `starts` of each door, alternating, after one warm-up of each. `relay`: the relay as the
 * extension ships it, one bundled file run with no loader (run.mjs builds it).
 */
export async function measureRelayCost(relay: string, starts = 15): Promise<RelayCostFigure> {
  const home = new SocketHome({ info: () => undefined, warn: () => undefined });
  const endpoint = await GatewayEndpoint.open({
    name: 'bench',
    secret: KEY,
    upstream: () => upstream,
    self: { name: 'mcp-elicitation-host', version: '0' },
    log: { info: () => undefined, warn: () => undefined },
    startTimeoutMs: 5000,
    onDidChangeSessions: () => undefined,
    socketPath: await home.nextPath(),
  });
  const viaRelay = (): StdioClientTransport =>
    new StdioClientTransport({
      command: process.execPath,
      args: [relay],
      env: { ...(process.env as Record<string, string>), [SOCKET_ENV]: endpoint.socketPath ?? '', [KEY_ENV]: KEY },
    });
  const viaHttp = (): StreamableHTTPClientTransport =>
    new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: keyHeaders(KEY) } });
  const relayStartMs: number[] = [];
  const httpStartMs: number[] = [];
  let memory: RelayMemory | undefined;
  try {
    for (let i = 0; i <= starts; i++) {
      const stdio = viaRelay();
      const r = await firstAnswer(stdio);
      if (i === starts) memory = memoryOf(stdio.pid);
      await r.client.close();
      const h = await firstAnswer(viaHttp());
      await h.client.close();
      if (i === 0) continue;
      relayStartMs.push(r.ms);
      httpStartMs.push(h.ms);
    }
  } finally {
    await endpoint.close();
    await home.close();
  }
  return { relayStartMs, httpStartMs, memory };
}
