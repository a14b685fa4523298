/**
 * Node's `http` on one side, the web-standard `Request`/`Response` that the MCP SDK's server
 * transport speaks on the other. Responses may be long-lived event streams: they are piped as they
 * come, and a client that goes away cancels the stream so the transport sees it close.
 */
import type * as http from 'node:http';

/** The request as the transport needs it; the body was already read (and size-checked) by the caller. */
export function toWebRequest(req: http.IncomingMessage, res: http.ServerResponse, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (typeof value === 'string') headers.set(name, value);
  }
  const controller = new AbortController();
  // The response's end, not the socket's: one keep-alive socket carries many requests.
  res.once('close', () => controller.abort());
  return new Request(new URL(req.url ?? '/', base), { method: req.method ?? 'GET', headers, signal: controller.signal });
}

export async function sendWebResponse(response: Response, res: http.ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // Event streams must reach VS Code event by event, as they come.
  res.flushHeaders();
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const next = (await reader.read()) as { readonly done: boolean; readonly value?: Uint8Array };
      if (next.done) break;
      if (next.value) res.write(next.value);
    }
  } catch {
    // The client went away, or the transport closed the stream: nothing is left to send.
  }
  res.end();
}
