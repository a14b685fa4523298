/**
 * The HTTP counterpart of answeringReadBuffer.ts. Over Streamable HTTP and SSE the SDK parses each
 * server-sent event itself and drops one that fails its JSON-RPC schema (reporting it only through
 * `onerror`), so a 2025 server that sends `elicitation/create` with `"params": []` or a fractional
 * id would wait for an answer forever. This `fetch` wrapper reads the event streams first: an
 * event carrying a request we cannot accept, but whose id we can read, is answered with the
 * JSON-RPC error and not passed on; every other byte goes through unchanged.
 *
 * Works around (@modelcontextprotocol/client 2.4): `StreamableHTTPClientTransport._handleSseStream`
 * and `SSEClientTransport`'s `onmessage` run `JSONRPCMessageSchema.parse` on each event and hand a
 * failure to `onerror` only. The upstream reports of this dropping are about stdio servers
 * (https://github.com/modelcontextprotocol/typescript-sdk/issues/2247 "Invalid Request frames
 * silently dropped with no error response — client hangs waiting for id that never resolves", and
 * https://github.com/modelcontextprotocol/typescript-sdk/issues/563 "Invalid JSON RPC requests do
 * not respond with an error"); no upstream issue was found for the HTTP client transports. This
 * file can go when those transports answer a malformed server request themselves.
 */
import { JSONRPCMessageSchema } from '@modelcontextprotocol/core';
import { replyToMalformed, type MalformedReply } from './answeringReadBuffer';
import { QUESTION_METHODS, type RequestId, type StreamOrigins } from './questionLinks';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A question the server sent on an event stream: its id and method. */
export type OnQuestion = (question: { readonly id: RequestId; readonly method: string }) => void;

/**
 * The fetch the HTTP transports use. With `origins`, each question (questionLinks.ts) that arrives
 * on the event stream of a POST carrying one of our requests is reported with that request's id:
 * the server SDK sends a request made while handling ours on our request's own stream.
 */
export function answeringFetch(inner: Fetch, answer: (reply: MalformedReply) => void, origins?: StreamOrigins): Fetch {
  return async (input, init) => {
    const res = await inner(input, init);
    if (!res.body || !(res.headers.get('content-type') ?? '').includes('text/event-stream')) return res;
    const body = answeringEvents(res.body, answer, origins ? questionsOf(init?.body, origins) : undefined);
    const out = new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    // The transports read these to tell a redirect from the endpoint they asked for.
    Object.defineProperty(out, 'url', { value: res.url });
    Object.defineProperty(out, 'redirected', { value: res.redirected });
    return out;
  };
}

/**
 * Reports each question on the stream of the POST that sent `body` with that request's id. The
 * body is parsed when the first question arrives, not on every call: most streams carry none.
 */
function questionsOf(body: unknown, origins: StreamOrigins): OnQuestion {
  let callId: RequestId | undefined | null = null;
  return (q) => {
    if (callId === null) callId = requestIdOf(body);
    if (callId !== undefined) origins.onArrived?.(q.id, callId);
  };
}

/**
 * `body` split into events (blank-line terminated), each one's data checked: every completed event
 * is handed on as one chunk. A stream pulled from `body`'s reader rather than a `TransformStream`
 * piped onto it: the pipe's reader, writer and promises per chunk cost more than the check, and
 * this sits on every HTTP call's response. `body`'s error ends the stream with that error; a
 * cancel is passed on to `body`.
 */
export function answeringEvents(
  body: ReadableStream<Uint8Array>,
  answer: (reply: MalformedReply) => void,
  onQuestion?: OnQuestion,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let buf = '';
  let lines: string[] = [];
  let cancelled = false;
  /** Adds `text`; hands on each event it completes. Whether it completed any. */
  const split = (text: string, controller: ReadableStreamDefaultController<Uint8Array>): boolean => {
    let sent = false;
    buf += text;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(buf);
      // A lone '\r' at the end may be the first half of '\r\n': wait for the next chunk.
      if (!m || (m[0] === '\r' && m.index === buf.length - 1)) break;
      const line = buf.slice(0, m.index);
      buf = buf.slice(m.index + m[0].length);
      lines.push(line);
      if (line === '') {
        controller.enqueue(encoder.encode(checked(lines, answer, onQuestion)));
        lines = [];
        sent = true;
      }
    }
    return sent;
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        // Reads until an event is complete, so that each pull hands on something.
        for (;;) {
          const { done, value } = await reader.read();
          // Cancelled while reading: the stream is closed, nothing more goes into it.
          if (cancelled) return;
          if (done) {
            split(decoder.decode(), controller);
            const rest = buf === '' ? lines : [...lines, buf];
            if (rest.length > 0) controller.enqueue(encoder.encode(rest.join('\n')));
            controller.close();
            return;
          }
          // `stream: true` keeps a character split across chunks for the next one.
          if (split(decoder.decode(value, { stream: true }), controller)) return;
        }
      },
      cancel: (reason) => {
        cancelled = true;
        return reader.cancel(reason);
      },
    },
    // Nothing read ahead of the reader: an event is checked (and a malformed one answered) when read.
    { highWaterMark: 0 },
  );
}

/** The event as it came (re-joined with '\n'), or only its non-data fields when we answered it. */
function checked(lines: readonly string[], answer: (reply: MalformedReply) => void, onQuestion?: OnQuestion): string {
  const whole = lines.join('\n') + '\n';
  const field = (name: string): string[] =>
    lines.filter((l) => l === name || l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).replace(/^ /, ''));
  const type = field('event')[0];
  const data = field('data').join('\n');
  if (data === '' || (type !== undefined && type !== 'message')) return whole;
  // A request names its `method` (written as is, or with \u escapes): an event that does not, such
  // as a call's result, is passed on without being parsed here as well as by the SDK.
  if (!data.includes('"method"') && !data.includes('\\u')) return whole;
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return whole;
  }
  if (!answeredMalformed(raw, answer, onQuestion)) return whole;
  // Keep `id:` and `retry:` so resumption still knows where the stream is.
  return (
    lines
      .filter((l) => l.startsWith('id:') || l.startsWith('retry:'))
      .concat('')
      .join('\n') + '\n'
  );
}

/**
 * One parsed event's message, checked: true when it was a malformed request we answered (it is not
 * passed on); a well-formed question is reported to `onQuestion`. Only a request is answered or
 * reported; a response (every call's result) or a notification is the SDK's to judge, and is not
 * validated twice. Also used by directPost.ts, which parses the events itself.
 */
export function answeredMalformed(raw: unknown, answer: (reply: MalformedReply) => void, onQuestion?: OnQuestion): boolean {
  if (!isRequestShaped(raw)) return false;
  if (JSONRPCMessageSchema.safeParse(raw).success) {
    if (onQuestion && QUESTION_METHODS.has(raw.method)) onQuestion({ id: raw.id, method: raw.method });
    return false;
  }
  const reply = replyToMalformed(raw);
  if (!reply) return false;
  answer(reply);
  return true;
}

/** A `method` and an id: what replyToMalformed answers and questions are; nothing else is either. */
function isRequestShaped(raw: unknown): raw is { id: RequestId; method: string } {
  if (typeof raw !== 'object' || raw === null) return false;
  const { id, method } = raw as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number');
}

/** The id of the one JSON-RPC request a POST body carries; undefined for anything else. */
function requestIdOf(body: unknown): RequestId | undefined {
  if (typeof body !== 'string') return undefined;
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { id, method } = message as { id?: unknown; method?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
}
