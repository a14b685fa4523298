/**
 * Streamable HTTP and legacy SSE check each server message against the JSON-RPC schema inside the
 * SDK's transport and report one that fails only through `onerror`: a server that sends
 * `elicitation/create` with `"params": []`, a fractional id or an extra member waits forever for
 * an answer. The transports' public `fetch` option lets us read the same event stream alongside
 * the SDK (a tee) and answer such a request ourselves, as AnsweringReadBuffer does for stdio.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { replyToMalformed, type MalformedReply } from './answeringReadBuffer';

/** Wraps `base` so that malformed requests on any event stream it returns are answered. */
export function answeringFetch(base: FetchLike, answer: (reply: MalformedReply) => void): FetchLike {
  return async (url, init) => {
    const res = await base(url, init);
    const type = res.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
    if (!res.ok || !res.body || type !== 'text/event-stream') return res;
    const [theirs, ours] = res.body.tee();
    void scanEvents(ours, answer).catch(() => undefined); // the SDK reports the stream's own errors
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** Reads SSE `message` events and answers each malformed request; everything else is the SDK's. */
async function scanEvents(stream: ReadableStream<Uint8Array>, answer: (reply: MalformedReply) => void): Promise<void> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n?/g, '\n');
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const reply = replyFor(block);
      if (reply) answer(reply);
    }
  }
}

/** The reply an SSE event block calls for: only a `message` event carrying a malformed request. */
export function replyFor(block: string): MalformedReply | undefined {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (event !== 'message' || data.length === 0) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(data.join('\n'));
  } catch {
    return undefined;
  }
  return JSONRPCMessageSchema.safeParse(raw).success ? undefined : replyToMalformed(raw);
}
