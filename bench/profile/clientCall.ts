/**
 * The client side of the agent gateway, in plain Node: what one relayed `tools/call` of `echo`
 * costs in CPU and wall time in our Connection → Session → HostClient → transport stack, without
 * the endpoint, VS Code or an extension host. Not part of `npm run bench` (whose figures are the
 * only performance claims): a tool for finding and checking cuts, run with `--cpu-prof` to see
 * where the time goes (bench/profile/attribute.mjs reads the profile).
 *
 *   node --import tsx bench/profile/clientCall.ts [--server gateway|modern] [--path relay|sdk]
 *        [--calls 2000] [--blocks 5] [--warmup 300] [--against <root>] [--profile out.cpuprofile]
 *
 * --server gateway: bench/fixtures/gatewayServer.mjs over Streamable HTTP (an SDK v1 server, MCP
 *   2025-11-25, answers on an event stream); modern: test/fixtures/modernHttpServer.mjs (2026-07-28).
 * --path relay: `BrokeredUpstream.relay` as the gateway's relay server calls it (a signal and an
 *   `onprogress`, as VS Code always sends a progress token); sdk: the SDK's own `Client` with its
 *   Streamable HTTP transport over global fetch, the floor our stack is compared with.
 * --against <root>: A/B in one process. `root` is another checkout (main, say, copied with `git
 *   archive` and its node_modules linked to ours); its src/ is loaded beside ours, both connect to
 *   the same server, and their blocks alternate (ABBA), so both see the same load on this machine.
 *   Prints the median of the paired differences (this worktree minus `root`).
 * --profile <file>: a CPU profile of the measured blocks only (after the warm-up, before the
 *   teardown, so neither module loading nor closing is in it), for bench/profile/attribute.mjs.
 * Prints one line per block and the medians, as JSON on the last line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session as InspectorSession } from 'node:inspector/promises';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ElicitationBroker } from '../../src/elicitation/broker';
import type * as QueueModule from '../../src/elicitation/queue/elicitationQueue';
import type * as UpstreamModule from '../../src/gateway/brokeredUpstream';
import type { SamplingSink } from '../../src/sampling/samplingBroker';
import type * as LocalizeModule from '../../src/shared/localize';
import type * as ConnectionModule from '../../src/servers/connection';
import type * as LegModule from '../../src/servers/legDeadline';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : fallback;
}

const server = arg('server', 'gateway');
const via = arg('path', 'relay');
const calls = Number(arg('calls', '2000'));
const blocks = Number(arg('blocks', '5'));
const warmup = Number(arg('warmup', '300'));
const against = arg('against', '');
const profileTo = arg('profile', '');

/** Starts the sampling profiler when --profile asks for it; the returned function writes the profile. */
async function startProfile(): Promise<() => Promise<void>> {
  if (!profileTo) return () => Promise.resolve();
  const inspector = new InspectorSession();
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
  await inspector.post('Profiler.start');
  return async () => {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(profileTo, JSON.stringify(profile));
    inspector.disconnect();
  };
}

/** Starts the fixture and resolves with its URL once it prints `LISTENING <port>`. */
function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const [script, args] =
    server === 'modern'
      ? [path.join(root, 'test/fixtures/modernHttpServer.mjs'), ['0', 'profile-modern', 'mrtr']]
      : [path.join(root, 'bench/fixtures/gatewayServer.mjs'), ['profile-gateway', 'http']];
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const m = /^LISTENING (\d+)/.exec(line);
      if (m) resolve({ url: `http://127.0.0.1:${m[1]}/mcp`, child });
    });
  });
}

type Call = (i: number) => Promise<unknown>;

/** Our stack as the gateway drives it, from the src/ of the checkout at `base`. */
async function ourPath(url: string, base: string): Promise<{ call: Call; close(): void }> {
  const load = <T>(file: string): Promise<T> => import(path.join(base, 'src', file)) as Promise<T>;
  const { ElicitationQueue } = await load<typeof QueueModule>('elicitation/queue/elicitationQueue.ts');
  const { BrokeredUpstream } = await load<typeof UpstreamModule>('gateway/brokeredUpstream.ts');
  const { english } = await load<typeof LocalizeModule>('shared/localize.ts');
  const { Connection } = await load<typeof ConnectionModule>('servers/connection.ts');
  const { realTimer } = await load<typeof LegModule>('servers/legDeadline.ts');
  const quiet = (): void => undefined;
  const queue = new ElicitationQueue(Date.now);
  const conn = new Connection(
    { name: 'profile', type: 'http', url, headers: {}, source: { kind: 'setting', scope: 'user' } },
    {
      log: { info: quiet, warn: quiet, error: quiet, debug: quiet, trace: quiet } as unknown as ConstructorParameters<
        typeof ConnectionModule.Connection
      >[1]['log'],
      clientInfo: { name: 'profile', version: '0.0.0' },
      sink: { handle: () => Promise.reject(new Error('echo asks nothing')), complete: quiet, serverGone: quiet },
      sampler: {} as SamplingSink,
      onGaveUp: quiet,
      // As context.ts builds it: the broker's queue stops a leg's clock while a question is open.
      legClock: { setTimer: realTimer, questions: queue },
    },
  );
  await conn.start();
  if (conn.state.kind !== 'running') throw new Error(`not running: ${JSON.stringify(conn.state)}`);
  const up = new BrokeredUpstream(conn, {} as ElicitationBroker, quiet, english);
  let progress = 0;
  return {
    call: (i) =>
      up.relay(
        { method: 'tools/call', params: { name: 'echo', arguments: { text: `hello ${i}` } } },
        { signal: new AbortController().signal, onprogress: () => void progress++ },
      ),
    close: () => conn.dispose(),
  };
}

/** The SDK alone: its Client and Streamable HTTP transport over global fetch. */
async function sdkPath(url: string): Promise<{ call: Call; close(): void }> {
  const client = new Client({ name: 'profile', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    call: (i) =>
      client.callTool(
        { name: 'echo', arguments: { text: `hello ${i}` } },
        { signal: new AbortController().signal, onprogress: () => undefined },
      ),
    close: () => void client.close(),
  };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** Alternates blocks of this worktree's stack (B) and `against`'s (A); prints the paired differences. */
async function compare(url: string): Promise<void> {
  const a = await ourPath(url, against);
  const b = await ourPath(url, root);
  try {
    for (let i = 0; i < warmup; i++) {
      await a.call(i);
      await b.call(i);
    }
    const block = async (t: { call: Call }): Promise<{ cpu: number; wall: number }> => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) await t.call(i);
      const t1 = performance.now();
      const c = process.cpuUsage(c0);
      return { cpu: (c.user + c.system) / 1000 / calls, wall: (t1 - t0) / calls };
    };
    const cpuA: number[] = [];
    const cpuB: number[] = [];
    const wallA: number[] = [];
    const wallB: number[] = [];
    for (let k = 0; k < blocks; k++) {
      const [first, second] = k % 2 ? [b, a] : [a, b];
      const x = await block(first);
      const y = await block(second);
      const [ra, rb] = k % 2 ? [y, x] : [x, y];
      cpuA.push(ra.cpu);
      cpuB.push(rb.cpu);
      wallA.push(ra.wall);
      wallB.push(rb.wall);
      process.stdout.write(
        `pair ${k + 1}: cpu A ${ra.cpu.toFixed(3)} B ${rb.cpu.toFixed(3)}, wall A ${ra.wall.toFixed(3)} B ${rb.wall.toFixed(3)}\n`,
      );
    }
    const diff = (xs: number[], ys: number[]): number => median(ys.map((y, i) => y - (xs[i] ?? NaN)));
    const out = {
      server,
      calls,
      blocks,
      cpuA: +median(cpuA).toFixed(3),
      cpuB: +median(cpuB).toFixed(3),
      cpuBminusA: +diff(cpuA, cpuB).toFixed(3),
      wallA: +median(wallA).toFixed(3),
      wallB: +median(wallB).toFixed(3),
      wallBminusA: +diff(wallA, wallB).toFixed(3),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    a.close();
    b.close();
  }
}

async function main(): Promise<void> {
  const { url, child } = await startServer();
  if (against) {
    try {
      await compare(url);
    } finally {
      child.kill();
    }
    return;
  }
  const target = via === 'sdk' ? await sdkPath(url) : await ourPath(url, root);
  try {
    for (let i = 0; i < warmup; i++) await target.call(i);
    const stopProfile = await startProfile();
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let b = 0; b < blocks; b++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) await target.call(i);
      const t1 = performance.now();
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000 / calls);
      wall.push((t1 - t0) / calls);
      process.stdout.write(`block ${b + 1}: cpu ${cpu[b]?.toFixed(3)} ms/call, wall ${wall[b]?.toFixed(3)} ms/call\n`);
    }
    await stopProfile();
    const out = { server, path: via, calls, blocks, cpuMs: +median(cpu).toFixed(3), wallMs: +median(wall).toFixed(3) };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    target.close();
    child.kill();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
