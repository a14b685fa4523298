/**
 * Node's `http` on one side, the web-standard `Request`/`Response` that the MCP SDK's server
 * transport speaks on the other. Responses may be long-lived event streams: they are piped as they
 * come, and a client that goes away cancels the stream so the transport sees it close.
 */
import type * as http from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** The request as the transport needs it; the body was already read (and size-checked) by the caller. */
export function toWebRequest(req: http.IncomingMessage, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (typeof value === 'string') headers.set(name, value);
  }
  const controller = new AbortController();
  req.socket.once('close', () => controller.abort());
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
  // Node's and the DOM's typings of the same web stream differ; at run time it is one class.
  const body = Readable.fromWeb(response.body as unknown as WebReadableStream);
  res.once('close', () => body.destroy());
  // Event streams must reach VS Code event by event, not when a buffer fills.
  res.flushHeaders();
  await new Promise<void>((resolve) => {
    body.once('end', resolve).once('close', resolve).once('error', resolve);
    body.pipe(res);
  });
}
