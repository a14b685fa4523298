import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type Implementation, type Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { RelayedMessage } from '../servers/connection';
import { MAX_MESSAGE_BYTES } from '../shared/messageLimit';
import { installAnsweringReadBuffer } from '../servers/answeringReadBuffer';
import { admit } from './admission';
import { RefusalLog } from './refusalLog';
import { DirectCalls, directCall } from './directCall';
import { createRelayServer, relayNotification, relayRequest } from './relayServer';
import type { GatewayUpstream } from './upstream';
import { notRunningError } from './upstreamErrors';
import { sendWebResponse, toWebRequest } from './webBridge';
import { HttpError, readJson } from './httpBody';
import { SocketDoor } from './socketDoor';

export { SocketHome } from './socketDir';

export const GATEWAY_PATH = '/mcp';
export { MAX_BODY_BYTES } from './httpBody';
/** VS Code keeps one session per server; more than this means something is leaking them. */
const MAX_SESSIONS = 8;

/**
 * How long a client may take over its request. VS Code sends headers and a small body at once over
 * loopback; a client that trickles them only holds a socket. Responses (a tool call waiting on the
 * user, the event stream) are not limited by these.
 */
export interface EndpointTimeouts {
  /** All headers received. */
  readonly headersMs: number;
  /** The whole request, body included. */
  readonly requestMs: number;
  /** An idle kept-alive connection between requests. */
  readonly keepAliveMs: number;
  /** How often Node checks the two above (their precision). */
  readonly checkEveryMs: number;
}

export const DEFAULT_TIMEOUTS: EndpointTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000, checkEveryMs: 2_000 };

export interface EndpointDeps {
  readonly name: string;
  readonly secret: string;
  readonly upstream: () => GatewayUpstream | undefined;
  readonly self: Implementation;
  readonly log: { info(m: string): void; warn(m: string): void };
  /** How long an `initialize` waits for the upstream server to come up. */
  readonly startTimeoutMs: number;
  readonly onDidChangeSessions: () => void;
  /**
   * An agent is connecting: its declared client capabilities, before the upstream server is
   * started or waited for, so the upstream launch can offer what it offers (gateway.ts).
   */
  readonly agentConnecting?: (capabilities: unknown) => Promise<void>;
  readonly timeouts?: EndpointTimeouts;
  /** Where the socket door listens (socketDoor.ts), for VS Code's stdio client; none without it. */
  readonly socketPath?: string | undefined;
}

interface Session {
  /** A socket's session (a stdio transport) is reached through its socket alone, never by its id over HTTP. */
  readonly transport: WebStandardStreamableHTTPServerTransport | StdioServerTransport;
  readonly server: Server;
  /** The session declared tools (the upstream did when it opened): its calls may take the direct path. */
  readonly relaysTools: boolean;
  /**
   * The revision the client asked for at `initialize`, which the SDK's server agrees to when it
   * supports it; VS Code 1.139 sends no `MCP-Protocol-Version` header after that (directCall.ts).
   */
  readonly revision: string | undefined;
}

type HttpSession = Session & { readonly transport: WebStandardStreamableHTTPServerTransport };

const isHttpSession = (s: Session | undefined): s is HttpSession => s?.transport instanceof WebStandardStreamableHTTPServerTransport;

/**
 * One brokered server's doors for VS Code's agent. A Streamable HTTP endpoint on 127.0.0.1, on a
 * port the OS picks, admitting only requests that carry the activation secret from a loopback
 * Host and no foreign Origin; and, with `socketPath`, a socket for the relay process VS Code runs
 * as a stdio server (socketDoor.ts), admitting only connections that present the secret. Each
 * `initialize` (or socket connection) opens a session with its own relay server.
 */
export class GatewayEndpoint {
  private readonly sessions = new Map<string, Session>();
  private readonly direct = new DirectCalls();
  private closed = false;
  private readonly refusals: RefusalLog;
  private door: SocketDoor | undefined;

  private constructor(
    private readonly http: http.Server,
    readonly port: number,
    private readonly deps: EndpointDeps,
  ) {
    this.refusals = new RefusalLog((line) => deps.log.warn(line));
  }

  static async open(deps: EndpointDeps): Promise<GatewayEndpoint> {
    const t = deps.timeouts ?? DEFAULT_TIMEOUTS;
    const server = http.createServer({
      headersTimeout: t.headersMs,
      requestTimeout: t.requestMs,
      keepAliveTimeout: t.keepAliveMs,
      connectionsCheckingInterval: t.checkEveryMs,
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const endpoint = new GatewayEndpoint(server, (server.address() as AddressInfo).port, deps);
    server.on('request', (req, res) => void endpoint.handle(req, res));
    if (deps.socketPath !== undefined) {
      try {
        endpoint.door = await SocketDoor.listen(deps.socketPath, {
          secret: deps.secret,
          admitted: (socket, first, rest) => endpoint.acceptSocket(socket, first, rest),
          refused: (reason) => endpoint.refusals.note(`[${deps.name}] gateway refused a socket connection: ${reason}`),
        });
      } catch (e) {
        // The HTTP door still serves: the provider gives VS Code an HTTP definition for this server.
        deps.log.warn(
          `[${deps.name}] gateway: no socket at ${deps.socketPath} (${e instanceof Error ? e.message : String(e)}); VS Code's agent uses HTTP`,
        );
      }
    }
    return endpoint;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}${GATEWAY_PATH}`;
  }

  /** The socket door's path, when it has one. */
  get socketPath(): string | undefined {
    return this.door?.path;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    try {
      const verdict = admit(
        { host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization },
        { port: this.port, secret: this.deps.secret },
      );
      if (!verdict.ok) {
        this.refusals.note(`[${this.deps.name}] gateway refused a ${req.method ?? ''} request: ${verdict.reason}`);
        throw new HttpError(403, `Forbidden: ${verdict.reason}`);
      }
      if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== GATEWAY_PATH) throw new HttpError(404, 'Not found');
      if (this.closed) throw new HttpError(503, 'The gateway for this server is closed');
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const sid = req.headers['mcp-session-id'];
      const found = typeof sid === 'string' ? this.sessions.get(sid) : undefined;
      const existing = isHttpSession(found) ? found : undefined;
      if (typeof sid === 'string' && !existing) throw new HttpError(404, 'Session not found');
      if (!existing && (req.method !== 'POST' || !isInitialize(body))) throw new HttpError(400, 'No session: send initialize first');
      if (existing && typeof sid === 'string' && req.method === 'POST') {
        if (this.direct.cancel(sid, body)) {
          res.writeHead(202).end();
          return;
        }
        const call = existing.relaysTools ? directCall(body, req.headers, existing.revision) : undefined;
        if (call) {
          await this.direct.serve(sid, call, res, (params, caller) =>
            relayRequest(this.deps.name, this.deps.upstream, 'tools/call', params, caller),
          );
          return;
        }
      }
      const session = existing ?? (await this.openSession(initializeParams(body)));
      await sendWebResponse(await session.transport.handleRequest(toWebRequest(req, res, this.url), { parsedBody: body }), res);
    } catch (err) {
      if (res.headersSent) {
        res.end();
        return;
      }
      const status = err instanceof HttpError ? err.status : 500;
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof HttpError && err.status === 413) this.refusals.note(`[${this.deps.name}] gateway refused a request: ${message}`);
      // After a refusal Node would otherwise read and discard the rest of the body to keep the
      // connection alive: `connection: close` ends it once the answer is out instead.
      const close = err instanceof HttpError && err.closes;
      res
        .writeHead(status, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
      if (close) req.pause();
    }
  }

  /** What every new session needs first: the agent's offer passed on, the upstream running, room. */
  private async relayServer(capabilities: unknown): Promise<Server> {
    await this.deps.agentConnecting?.(capabilities);
    await this.upstreamReady();
    if (this.sessions.size >= MAX_SESSIONS) {
      const [oldest] = this.sessions.values();
      await oldest?.transport.close();
    }
    return createRelayServer(this.deps.name, this.deps.upstream, this.deps.self);
  }

  private async openSession({ capabilities, revision }: ReturnType<typeof initializeParams>): Promise<HttpSession> {
    const server = await this.relayServer(capabilities);
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, session);
        this.deps.log.info(`[${this.deps.name}] agent session opened through the gateway`);
        this.deps.onDidChangeSessions();
      },
    });
    const session: HttpSession = { transport, server, relaysTools: server.getCapabilities().tools !== undefined, revision };
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id) this.direct.endSession(id);
      if (id && this.sessions.delete(id)) {
        this.deps.log.info(`[${this.deps.name}] agent session closed`);
        this.deps.onDidChangeSessions();
      }
    };
    await server.connect(transport);
    return session;
  }

  /**
   * A relay process connected through the socket door, its first message read. It must be an
   * `initialize`, as on any stdio connection; a failure (the upstream not running) answers it with
   * the reason, which VS Code shows, and ends the connection.
   */
  private acceptSocket(socket: Socket, first: unknown, rest: Buffer): void {
    this.openSocketSession(socket, first, rest).catch((err: unknown) => {
      const id = (first as { id?: unknown } | undefined)?.id;
      const message = err instanceof Error ? err.message : String(err);
      this.deps.log.warn(`[${this.deps.name}] agent session through the socket refused: ${message}`);
      if (typeof id === 'string' || typeof id === 'number') {
        socket.end(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message } })}\n`);
      } else {
        socket.destroy();
      }
    });
  }

  private async openSocketSession(socket: Socket, first: unknown, rest: Buffer): Promise<void> {
    if (this.closed) throw new Error('The gateway for this server is closed');
    if (!isInit(first)) throw new Error('No session: send initialize first');
    const server = await this.relayServer(initializeParams(first).capabilities);
    // VS Code stopped the server while it was starting: nobody is left to answer.
    if (socket.destroyed || this.closed) {
      socket.destroy();
      return;
    }
    const transport = new StdioServerTransport(socket, socket, { maxBufferSize: MAX_MESSAGE_BYTES });
    // As over HTTP, a malformed request gets an error rather than no answer (the SDK's framing drops it).
    if (!installAnsweringReadBuffer(transport, MAX_MESSAGE_BYTES)) {
      this.deps.log.warn(
        `[${this.deps.name}] this MCP SDK version changed its stdio transport: a malformed request from the agent goes unanswered`,
      );
    }
    const id = randomUUID();
    this.sessions.set(id, { transport, server, relaysTools: false, revision: undefined });
    transport.onclose = () => {
      socket.destroy();
      if (this.sessions.delete(id)) {
        this.deps.log.info(`[${this.deps.name}] agent session closed`);
        this.deps.onDidChangeSessions();
      }
    };
    this.deps.log.info(`[${this.deps.name}] agent session opened through the gateway's socket`);
    this.deps.onDidChangeSessions();
    await server.connect(transport);
    // The door read ahead: the initialize and whatever came with it are read again, by the session.
    socket.unshift(rest);
    socket.resume();
  }

  /** Starts the upstream server if needed and waits until it runs, or fails with its reason. */
  private async upstreamReady(): Promise<void> {
    const up = this.deps.upstream();
    if (!up) throw notRunningError(this.deps.name, undefined);
    if (up.isRunning) return;
    await up.start();
    if (up.state.kind === 'starting') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.deps.startTimeoutMs);
        const sub = up.onDidChange(() => {
          if (up.state.kind !== 'starting') done();
        });
        function done(): void {
          clearTimeout(timer);
          sub.dispose();
          resolve();
        }
      });
    }
    if (!up.isRunning) throw notRunningError(this.deps.name, up.state);
  }

  /** Passes an upstream notification to every open session. */
  notify(notification: RelayedMessage): void {
    for (const { server } of this.sessions.values()) {
      relayNotification(server, notification).catch((e: unknown) =>
        this.deps.log.warn(`[${this.deps.name}] could not relay ${notification.method}: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
  }

  /** Ends every session and stops listening; VS Code sees its connections drop. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
    this.sessions.clear();
    await this.door?.close();
    await new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }
}

const isInit = (m: unknown): boolean => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize';

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some(isInit) : isInit(body);
}

/**
 * What an `initialize` in the body sends, unvalidated (the SDK checks the request): the client
 * capabilities it declares, and the protocol revision it asks for (directCall.ts checks that is
 * one it answers).
 */
function initializeParams(body: unknown): { capabilities: unknown; revision: string | undefined } {
  const init = (Array.isArray(body) ? (body as unknown[]).find(isInit) : body) as
    { params?: { capabilities?: unknown; protocolVersion?: unknown } } | undefined;
  const v = init?.params?.protocolVersion;
  return { capabilities: init?.params?.capabilities, revision: typeof v === 'string' ? v : undefined };
}
