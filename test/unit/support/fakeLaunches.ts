/**
 * A fake transport for Connection and Session tests: each launch is a real SDK server over an
 * in-memory pair, or a transport that fails the way a real one does (HTTP 405 or 500 on
 * `initialize`, a process that exits at once, a server that never answers). Plus timers the test
 * fires itself, a sink that records what the broker would hear, and a log kept in an array.
 */
import {
  type OAuthClientProvider,
  InMemoryTransport,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServerDefinition } from '../../../src/config/parse/definitions';
import type { ElicitationSink } from '../../../src/elicitation/broker';
import type { SamplingSink } from '../../../src/sampling/samplingBroker';
import type { Connection, SetTimer } from '../../../src/servers/connection';
import type { ServerState } from '../../../src/servers/serverState';
import type { PreparedTransport, TransportKind, TransportLog } from '../../../src/servers/transports';

/** How the server of one launch behaves. */
export type Behaviour = 'serve' | 'http401' | 'http405' | 'http500' | 'exits' | 'silent' | 'badUrl';

/** The client end of a launch; `sever()` makes it behave like an HTTP stream that broke. */
export class LinkTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  /** Sends fail as `fetch` fails when the server is gone. */
  private severed = false;
  /** Sends vanish, as on a stream that stalled: no answer, no error. */
  stalled = false;

  constructor(private readonly inner: InMemoryTransport) {
    inner.onmessage = (m, extra) => this.onmessage?.(m, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.severed) throw new TypeError('fetch failed');
    if (this.stalled) return;
    await this.inner.send(message, options as Parameters<InMemoryTransport['send']>[1]);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  /** The event stream broke and the server is gone: the transport reports an error and stays open. */
  sever(): void {
    this.severed = true;
    this.onerror?.(new Error('SSE stream disconnected'));
  }
}

/** A transport that fails `initialize` without a server behind it. */
class FailingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  constructor(private readonly behaviour: 'http401' | 'http405' | 'http500' | 'exits' | 'silent') {}
  private closed = false;
  async start(): Promise<void> {}
  send(): Promise<void> {
    // The texts the SDK's Streamable HTTP transport throws.
    // What the SDK's transport throws for a 401 when it has no OAuth client, or its OAuth client needs the user.
    if (this.behaviour === 'http401') return Promise.reject(Object.assign(new Error('Unauthorized'), { name: 'UnauthorizedError' }));
    if (this.behaviour === 'http405') return Promise.reject(new Error('Error POSTing to endpoint (HTTP 405): Method Not Allowed'));
    if (this.behaviour === 'http500') return Promise.reject(new Error('Error POSTing to endpoint (HTTP 500): Internal Server Error'));
    // A process that exits at once: its pipe closes before any answer.
    if (this.behaviour === 'exits') queueMicrotask(() => void this.close());
    return Promise.resolve();
  }
  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.onclose?.();
    }
    return Promise.resolve();
  }
}

/** One launch: what was asked for, and the server side when it serves. */
export interface Launch {
  readonly kind: TransportKind;
  readonly pid: number;
  readonly link: LinkTransport | undefined;
  readonly server: McpServer | undefined;
  /** Resolves when a call to the `hold` tool has reached the server (it then waits for ever). */
  readonly held: Promise<void>;
  /** The server process dies: its end of the pipe closes. */
  crash(): Promise<void>;
}

/** The fixture server of a launch: `echo`, `hold` (answers only when told), `addTool`, and resources that fail with -32021 and -32022. */
function fixtureServer(name: string, onHold: () => void): McpServer {
  const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { tools: { listChanged: true }, logging: {} } });
  const text = (t: string): { content: { type: 'text'; text: string }[] } => ({ content: [{ type: 'text', text: t }] });
  server.registerTool('echo', { description: 'Returns its text.', inputSchema: { text: z.string() } }, ({ text: t }) => text(t));
  server.registerTool('hold', { description: 'Never answers by itself.' }, () => {
    onHold();
    return new Promise<never>(() => undefined);
  });
  server.registerTool('addTool', { description: 'Registers another tool.', inputSchema: { name: z.string() } }, ({ name: n }) => {
    server.registerTool(n, { description: `Added (${n}).` }, () => text(n));
    return text('added');
  });
  server.registerTool('ask', { description: 'Elicits a name and returns the answer.' }, async () => {
    const r = await server.server.elicitInput({
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return text(JSON.stringify(r));
  });
  server.registerTool(
    'sample',
    {
      description: 'Sends sampling/createMessage with these params as they are; returns the result or the error.',
      inputSchema: { params: z.record(z.string(), z.unknown()) },
    },
    async ({ params }) => {
      try {
        return text(JSON.stringify(await server.server.request({ method: 'sampling/createMessage', params }, CreateMessageResultSchema)));
      } catch (err) {
        return text(JSON.stringify({ error: { code: (err as McpError).code, message: (err as McpError).message } }));
      }
    },
  );
  server.registerResource('needsSampling', 'test://needs-sampling', {}, () => {
    throw new McpError(-32021, 'sampling required', { requiredCapabilities: { sampling: {} } });
  });
  server.registerResource('versionGone', 'test://version-gone', {}, () => {
    throw new McpError(-32022, 'unsupported protocol version', { supported: ['2099-01-01'] });
  });
  return server;
}

/** `createTransport` for tests: each call is one launch, behaving as planned. */
export class FakeLaunches {
  readonly launches: Launch[] = [];
  private readonly plan: Behaviour[] = [];

  /** How the next launches behave, in order; launches past the plan serve. */
  next(...behaviours: Behaviour[]): this {
    this.plan.push(...behaviours);
    return this;
  }

  /** The OAuth client each launch was given (undefined for none). */
  readonly auth: (OAuthClientProvider | undefined)[] = [];

  readonly create = (
    def: ServerDefinition,
    _log: TransportLog,
    kindOverride?: TransportKind,
    auth?: OAuthClientProvider,
  ): PreparedTransport => {
    const kind = kindOverride ?? def.type;
    this.auth.push(auth);
    const behaviour = this.plan.shift() ?? 'serve';
    const pid = 1000 + this.launches.length;
    // What `new URL` throws for a malformed url: the transport cannot even be made.
    if (behaviour === 'badUrl') throw new TypeError('Invalid URL');
    if (behaviour !== 'serve') {
      const transport = new FailingTransport(behaviour);
      this.launches.push({
        kind,
        pid,
        link: undefined,
        server: undefined,
        held: new Promise(() => undefined),
        crash: () => transport.close(),
      });
      return { transport, kind, pid: () => pid };
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const link = new LinkTransport(clientSide);
    let onHold = (): void => undefined;
    const held = new Promise<void>((resolve) => (onHold = resolve));
    const server = fixtureServer(def.name, () => onHold());
    void server.connect(serverSide);
    this.launches.push({ kind, pid, link, server, held, crash: () => serverSide.close() });
    return { transport: link, kind, pid: () => pid };
  };

  get last(): Launch {
    const l = this.launches.at(-1);
    if (!l) throw new Error('no launch yet');
    return l;
  }
}

/** Timers the test fires: the delays asked for are recorded, nothing runs by itself. */
export class ManualTimers {
  private pending: { fn: () => void; ms: number; live: boolean }[] = [];
  /** Every delay asked for, in order, including cancelled ones. */
  readonly asked: number[] = [];

  readonly set: SetTimer = (fn, ms) => {
    const t = { fn, ms, live: true };
    this.pending.push(t);
    this.asked.push(ms);
    return { dispose: () => void (t.live = false) };
  };

  /** Delays of the timers still waiting. */
  get waiting(): number[] {
    return this.pending.filter((t) => t.live).map((t) => t.ms);
  }

  /** Runs the waiting timer of this delay (as if that much time passed for it). */
  fire(ms: number): void {
    const t = this.pending.find((p) => p.live && p.ms === ms);
    if (!t) throw new Error(`no timer of ${ms} ms waiting (waiting: ${this.waiting.join(', ') || 'none'})`);
    t.live = false;
    t.fn();
  }
}

/** What the broker would hear. `answer` decides each pushed elicitation (default: decline). */
export class RecordingSink implements ElicitationSink {
  readonly asked: { server: string; params: unknown }[] = [];
  readonly completed: string[] = [];
  readonly gone: string[] = [];
  answer: () => Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, string> }> = () =>
    Promise.resolve({ action: 'decline' });
  handle(server: { name: string }, params: unknown): ReturnType<ElicitationSink['handle']> {
    this.asked.push({ server: server.name, params });
    return this.answer();
  }
  complete(_server: string, id: string): void {
    this.completed.push(id);
  }
  serverGone(server: string): void {
    this.gone.push(server);
  }
}

/** Records the samples a session hands on; answers with one fixed reply unless told otherwise. */
export class RecordingSampler implements SamplingSink {
  readonly asked: { server: string; params: unknown }[] = [];
  answer: () => ReturnType<SamplingSink['handle']> = () =>
    Promise.resolve({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'fake' });
  handle(server: { name: string }, params: unknown): ReturnType<SamplingSink['handle']> {
    this.asked.push({ server: server.name, params });
    return this.answer();
  }
}

/** A log kept in memory; `lines` holds everything at info and above. */
export class MemoryLog {
  readonly lines: string[] = [];
  readonly traced: string[] = [];
  constructor(readonly isTracing = false) {}
  trace(m: string): void {
    this.traced.push(m);
  }
  debug(): void {}
  info(m: string): void {
    this.lines.push(m);
  }
  warn(m: string): void {
    this.lines.push(`warn: ${m}`);
  }
  error(m: string, err?: unknown): void {
    this.lines.push(`error: ${m} ${String(err)}`);
  }
}

export function stdioDef(name = 'fake'): ServerDefinition {
  return { name, type: 'stdio', command: 'node', args: [], env: {}, source: { kind: 'setting', scope: 'user' } };
}
export function httpDef(name = 'remote'): ServerDefinition {
  return { name, type: 'http', url: 'http://127.0.0.1:9/mcp', headers: {}, source: { kind: 'setting', scope: 'user' } };
}

/** Resolves on the first state (now or later) that satisfies `test`; every state seen is in `seen`. */
export function stateWhere(conn: Connection, test: (s: ServerState) => boolean): Promise<ServerState> {
  if (test(conn.state)) return Promise.resolve(conn.state);
  return new Promise((resolve) => {
    const sub = conn.onDidChange(() => {
      if (!test(conn.state)) return;
      sub.dispose();
      resolve(conn.state);
    });
  });
}

/** Every distinct state the connection passes through from now on, as `describeState`-like tags. */
export function recordStates(conn: Connection): string[] {
  const seen: string[] = [];
  conn.onDidChange(() => {
    const s = conn.state;
    const tag = s.kind === 'starting' ? `starting ${s.attempt}` : s.kind === 'error' ? `error${s.gaveUp ? ' gave up' : ''}` : s.kind;
    if (seen.at(-1) !== tag) seen.push(tag);
  });
  return seen;
}
