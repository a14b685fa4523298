import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerDefinition } from '../config/parse/definitions';
import { AnsweringReadBuffer, type MalformedReply } from './answeringReadBuffer';
import { answeringFetch } from './answeringFetch';

export type TransportKind = 'stdio' | 'http' | 'sse';

/** A transport about to be connected, plus what the connection needs to know about it. */
export interface PreparedTransport {
  readonly transport: Transport;
  readonly kind: TransportKind;
  /** For stdio: the child's pid once started (read after connect). */
  pid(): number | undefined;
}

/** Where a transport reports a stdio server's stderr lines and its own problems. */
export interface TransportLog {
  stderr(line: string): void;
  warn(message: string): void;
}

/**
 * The SDK's stdio transport keeps its line framing in a private field and offers no hook for it.
 * Swaps in ours so a malformed request is answered instead of dropped (see answeringReadBuffer.ts).
 * Returns false when the field is not there: test/unit/sdkShape.test.ts fails on that too.
 */
export function installAnsweringReadBuffer(transport: StdioClientTransport): boolean {
  const framing = transport as unknown as { _readBuffer?: { append?: unknown; readMessage?: unknown; clear?: unknown } };
  const current = framing._readBuffer;
  if (typeof current?.append !== 'function' || typeof current.readMessage !== 'function' || typeof current.clear !== 'function') return false;
  framing._readBuffer = new AnsweringReadBuffer((reply) => void transport.send(reply).catch(() => undefined));
  return true;
}

export function createTransport(def: ServerDefinition, log: TransportLog, kindOverride?: TransportKind): PreparedTransport {
  if (def.type === 'stdio') {
    const transport = new StdioClientTransport({
      command: def.command,
      args: [...def.args],
      // Only the SDK's safe default variables plus what the user configured: never our whole
      // environment, which may carry tokens for unrelated tools.
      env: { ...getDefaultEnvironment(), ...def.env },
      ...(def.cwd ? { cwd: def.cwd } : {}),
      stderr: 'pipe',
    });
    if (!installAnsweringReadBuffer(transport)) {
      log.warn('this SDK version has no stdio read buffer to replace: malformed requests from the server will go unanswered');
    }
    let buf = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        log.stderr(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
      }
      if (buf.length > 8192) {
        log.stderr(buf);
        buf = '';
      }
    });
    return { transport, kind: 'stdio', pid: () => transport.pid ?? undefined };
  }
  const url = new URL(def.url);
  const requestInit: RequestInit = { headers: { ...def.headers } };
  const kind = kindOverride ?? def.type;
  // Set once the transport exists: the fetch wrapper answers malformed requests through it.
  let transport: Transport | undefined;
  const answer = (reply: MalformedReply): void => {
    log.warn(`answered a malformed request with ${reply.error.code} ${reply.error.message}`);
    void transport?.send(reply).catch(() => undefined);
  };
  if (kind === 'sse') {
    transport = new SSEClientTransport(url, {
      requestInit,
      fetch: answeringFetch(fetch, answer),
      // EventSource ignores requestInit; pass headers to its fetch too.
      eventSourceInit: { fetch: answeringFetch((u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...def.headers } }), answer) },
    });
    return { transport, kind: 'sse', pid: () => undefined };
  }
  transport = new StreamableHTTPClientTransport(url, { requestInit, fetch: answeringFetch(fetch, answer) });
  return { transport, kind: 'http', pid: () => undefined };
}

/**
 * A Streamable HTTP `initialize` answered with a 4xx means the server may speak the legacy SSE
 * transport instead (the spec's backwards-compatibility rule), so the caller retries with SSE.
 */
export function shouldFallBackToSse(def: ServerDefinition, err: unknown): boolean {
  if (def.type !== 'http') return false;
  if (err instanceof StreamableHTTPError) return err.code !== undefined && err.code >= 400 && err.code < 500;
  const m = /HTTP (\d{3})/.exec(err instanceof Error ? err.message : '');
  return m !== null && Number(m[1]) >= 400 && Number(m[1]) < 500;
}
