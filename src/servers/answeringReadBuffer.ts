/**
 * Line framing for the stdio transport that never leaves a request unanswered. The SDK's own read
 * buffer drops every line that fails its JSON-RPC schema (it only reports it through `onerror`), so
 * a server that sends `elicitation/create` with `"params": []`, a fractional id or an extra member
 * would wait forever for an answer. This buffer frames lines exactly as the SDK's does and, for a
 * request it cannot accept but whose id it can read, sends the JSON-RPC error itself.
 *
 * Works around (@modelcontextprotocol/client 2.4: `ReadBuffer.readMessage` → `deserializeMessage`
 * throws, and `StdioClientTransport.processReadBuffer` passes that to `onerror` only):
 * - https://github.com/modelcontextprotocol/typescript-sdk/issues/2247 "Invalid Request frames
 *   silently dropped with no error response — client hangs waiting for id that never resolves";
 * - https://github.com/modelcontextprotocol/typescript-sdk/issues/563 "Invalid JSON RPC requests do
 *   not respond with an error".
 * Both are written from the server's side; the proposed fix (pull request #2488, "fix(server): reply
 * to invalid stdio JSON-RPC frames") answers in `StdioServerTransport` only. This file can go when
 * `StdioClientTransport` answers such a request too.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { JSONRPCMessageSchema, JSONRPCRequestSchema } from '@modelcontextprotocol/core';
import { MAX_MESSAGE_BYTES } from '../shared/messageLimit';

/**
 * JSON-RPC's codes (the SDK's `ProtocolErrorCode` has them too, but only the client and server
 * entries export it, and the gateway's bundle takes this file without the client).
 */
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/**
 * The longest line a stdio server may write. The SDK's own buffer stops at 10 MiB and then closes
 * the connection, so a server that answers with a 12 MB result works when VS Code runs it (its
 * line splitter has no limit) and failed here with "Connection closed", restarting the server.
 */
export const MAX_LINE_BYTES = MAX_MESSAGE_BYTES;

/** The error we answer a malformed request with; `id` is echoed as the server sent it. */
export interface MalformedReply {
  readonly jsonrpc: '2.0';
  readonly id: string | number;
  readonly error: { readonly code: number; readonly message: string };
}

const ENVELOPE = new Set(['jsonrpc', 'id', 'method', 'params']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The error for a parsed JSON value that failed the JSON-RPC schema, or `undefined` when it is not
 * an answerable request (a notification, a response, or no usable id). A broken envelope (version,
 * id, unknown members) is -32600; a request whose only fault is its `params` is -32602.
 */
export function replyToMalformed(raw: unknown): MalformedReply | undefined {
  if (!isRecord(raw) || typeof raw['method'] !== 'string') return undefined;
  const id = raw['id'];
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) return undefined;
  const extra = Object.keys(raw).filter((k) => !ENVELOPE.has(k));
  if (raw['jsonrpc'] !== '2.0' || (typeof id === 'number' && !Number.isInteger(id)) || extra.length > 0) {
    const why =
      raw['jsonrpc'] !== '2.0'
        ? 'jsonrpc must be "2.0"'
        : extra.length > 0
          ? `unexpected member ${JSON.stringify(extra[0]).slice(0, 60)}`
          : 'id must be a string or an integer';
    return { jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message: `Invalid Request: ${why}` } };
  }
  const params = raw['params'];
  // The union's own error says only "Invalid input"; the request schema names the field.
  const issues = JSONRPCRequestSchema.safeParse(raw).error?.issues ?? [];
  const why = isRecord(params)
    ? issues
        .map((i) => `${['params', ...i.path.slice(1).map(String)].join('.')}: ${i.message}`)
        .join('; ')
        .slice(0, 300)
    : 'params must be an object';
  return { jsonrpc: '2.0', id, error: { code: INVALID_PARAMS, message: `Invalid params: ${why}` } };
}

/**
 * Drop-in for the SDK's `ReadBuffer` (append / readMessage / clear), answering malformed requests.
 * Chunks are kept as they come and joined once a line ends in them, and only a new chunk is
 * searched for a line end: a large message costs time in proportion to its size (copying the whole
 * buffer and searching it from the start on every chunk, as the SDK's buffer does, took half a
 * second of the extension host's thread for one 9 MB line in 64 KB chunks).
 */
export class AnsweringReadBuffer {
  /** What has come and is not read yet. */
  private chunks: Buffer[] = [];
  private size = 0;
  /** Whether a line end is in `chunks`: until one comes, there is nothing to read. */
  private complete = false;

  constructor(
    private readonly answer: (reply: MalformedReply) => void,
    private readonly maxBufferSize = MAX_LINE_BYTES,
  ) {}

  append(chunk: Buffer): void {
    if (this.size + chunk.length > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (!this.complete) this.complete = chunk.includes(NEWLINE);
  }

  /** The next message; throws (the transport reports it and reads on) for a line it cannot use. */
  readMessage(): JSONRPCMessage | null {
    if (!this.complete) return null;
    const buffer = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size);
    const index = buffer.indexOf(NEWLINE);
    const line = buffer.toString('utf8', 0, index).replace(/\r$/, '');
    const rest = buffer.subarray(index + 1);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    this.complete = rest.includes(NEWLINE);
    const raw: unknown = JSON.parse(line);
    const parsed = JSONRPCMessageSchema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const reply = replyToMalformed(raw);
    if (reply) this.answer(reply);
    throw new Error(
      reply
        ? `malformed request answered with ${reply.error.code} ${reply.error.message}`
        : `dropped a line that is not a JSON-RPC message: ${line.slice(0, 200)}`,
    );
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.complete = false;
  }
}

const NEWLINE = 0x0a;

/**
 * The SDK's stdio transports (client and server) keep their line framing in a private field and
 * offer no hook for it. Swaps in ours so a malformed request is answered instead of dropped.
 * Returns false when the field is not there: test/unit/sdkShape.test.ts fails on that too.
 */
export function installAnsweringReadBuffer(transport: { send(message: JSONRPCMessage): Promise<void> }, maxBufferSize?: number): boolean {
  const framing = transport as unknown as { _readBuffer?: { append?: unknown; readMessage?: unknown; clear?: unknown } };
  const current = framing._readBuffer;
  if (typeof current?.append !== 'function' || typeof current.readMessage !== 'function' || typeof current.clear !== 'function') {
    return false;
  }
  framing._readBuffer = new AnsweringReadBuffer((reply) => void transport.send(reply).catch(() => undefined), maxBufferSize);
  return true;
}
