/**
 * What the default revision choice costs at a server's start (issue 40), in plain Node: the time
 * from `Connection.start()` (for stdio: the server's spawn) to its tool list, with
 * `protocolVersion` absent (the default) against the revision the default settles on, pinned.
 * For a 2025-only, a dual-era and a 2026-only server, over stdio and Streamable HTTP, in
 * alternating starts. The requests sent before `tools/list` are counted too: that count is exact,
 * and it is what the target is about (one round trip more at most); the times show what it costs.
 * One round trip is measured as a `tools/list` on a connected session.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ServerDefinition } from '../../src/config/parse/definitions';
import { Connection } from '../../src/servers/connection';
import { createTransport } from '../../src/servers/transports';
import { ElicitationBroker } from '../../src/elicitation/broker';

export interface EraStartFigure {
  readonly server: string;
  readonly transport: 'stdio' | 'http';
  /** The revision the default settled on, and the one pinned for comparison. */
  readonly revision: string;
  readonly defaultMs: number[];
  readonly pinnedMs: number[];
  /** Requests sent before `tools/list`, per start (the same every start; all are kept). */
  readonly defaultRequests: number[];
  readonly pinnedRequests: number[];
  /** `tools/list` on a connected session, ms: one round trip. */
  readonly roundTripMs: number[];
}

const silentLog = {
  isTracing: false,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const broker = new ElicitationBroker({
  // Nothing here asks anything: the starts are measured, not questions.
  presenter: {} as never,
  gate: () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
  settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: true, urlExpiryMs: 0 }),
  log: { info: () => undefined, warn: () => undefined },
});

async function start(def: ServerDefinition): Promise<{ ms: number; requests: number; conn: Connection }> {
  const methods: string[] = [];
  const conn = new Connection(def, {
    log: silentLog,
    clientInfo: { name: 'bench-era', version: '0' },
    sink: broker,
    sampler: { handle: () => Promise.reject(new Error('no sampling here')) },
    onGaveUp: () => undefined,
    restartDelaysMs: [],
    createTransport: (d, log, kind, auth) => {
      const prepared = createTransport(d, log, kind, auth);
      const send = prepared.transport.send.bind(prepared.transport);
      prepared.transport.send = (message, options) => {
        if ('method' in message && 'id' in message) methods.push(message.method);
        return send(message, options);
      };
      return prepared;
    },
  });
  const t0 = performance.now();
  await conn.start();
  const ms = performance.now() - t0;
  if (!conn.ready) throw new Error(`${def.name}: did not start (${conn.state.kind === 'error' ? conn.state.reason : conn.state.kind})`);
  const listed = methods.indexOf('tools/list');
  return { ms, requests: listed < 0 ? methods.length : listed, conn };
}

function listening(command: string, args: readonly string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m?.[1]) resolve({ child, url: `http://127.0.0.1:${m[1]}/mcp` });
    });
    child.once('exit', (code) => reject(new Error(`${args[0] ?? command} exited (${code}) before listening`)));
  });
}

/** `starts` alternating default/pinned starts of each server. */
export async function measureEraStart(repoRoot: string, python = 'python3', starts = 15): Promise<EraStartFigure[]> {
  const fixture = (f: string): string => path.join(repoRoot, 'test', 'fixtures', f);
  const stdio =
    (name: string, args: string[]) =>
    (pin?: string): ServerDefinition => ({
      name,
      type: 'stdio',
      command: process.execPath,
      args,
      env: {},
      source: { kind: 'setting', scope: 'user' },
      ...(pin ? { protocolVersion: pin as '2025-11-25' } : {}),
    });
  const children: ChildProcess[] = [];
  const http = async (name: string, command: string, args: string[]) => {
    const s = await listening(command, args);
    children.push(s.child);
    return (pin?: string): ServerDefinition => ({
      name,
      type: 'http',
      url: s.url,
      headers: {},
      source: { kind: 'setting', scope: 'user' },
      ...(pin ? { protocolVersion: pin as '2025-11-25' } : {}),
    });
  };
  try {
    const servers: { server: string; transport: 'stdio' | 'http'; revision: string; def: (pin?: string) => ServerDefinition }[] = [
      { server: '2025-only (SDK v1)', transport: 'stdio', revision: '2025-11-25', def: stdio('old', [fixture('stdioServer.mjs'), 'old']) },
      {
        server: 'dual-era (SDK v2)',
        transport: 'stdio',
        revision: '2025-11-25',
        def: stdio('dual', [fixture('mrtrStdioServer.mjs'), 'dual', 'dual']),
      },
      {
        server: '2026-only (SDK v2)',
        transport: 'stdio',
        revision: '2026-07-28',
        def: stdio('modern', [fixture('mrtrStdioServer.mjs'), 'modern', 'modern']),
      },
      {
        server: '2025-only (SDK v1)',
        transport: 'http',
        revision: '2025-11-25',
        def: await http('old-http', process.execPath, [fixture('httpServer.mjs'), '0', 'old-http']),
      },
      {
        server: 'dual-era (Python, stdlib)',
        transport: 'http',
        revision: '2025-11-25',
        def: await http('dual-http', python, [fixture('pyServer.py'), 'dual-http', '--http', '0']),
      },
      {
        server: '2026-only (SDK v2)',
        transport: 'http',
        revision: '2026-07-28',
        def: await http('modern-http', process.execPath, [fixture('modernHttpServer.mjs'), '0', 'modern-http']),
      },
    ];
    const out: EraStartFigure[] = [];
    for (const s of servers) {
      const fig: EraStartFigure = { ...s, defaultMs: [], pinnedMs: [], defaultRequests: [], pinnedRequests: [], roundTripMs: [] };
      // A first start of each, not counted: the disk cache and the JIT warm up.
      for (const pin of [undefined, s.revision]) await (await start(s.def(pin))).conn.shutdown();
      for (let i = 0; i < starts; i++) {
        for (const pin of i % 2 === 0 ? [undefined, s.revision] : [s.revision, undefined]) {
          const r = await start(s.def(pin));
          (pin ? fig.pinnedMs : fig.defaultMs).push(r.ms);
          (pin ? fig.pinnedRequests : fig.defaultRequests).push(r.requests);
          if (pin) {
            const t0 = performance.now();
            await r.conn.relay({ method: 'tools/list' }, {});
            fig.roundTripMs.push(performance.now() - t0);
          }
          await r.conn.shutdown();
        }
      }
      out.push(fig);
    }
    return out;
  } finally {
    for (const c of children) c.kill();
  }
}
