/**
 * What the gateway's HTTP door reads of a request: its JSON body, within a limit, and the refusal
 * it answers with. No `vscode` import.
 */
import type * as http from 'node:http';
import { MAX_MESSAGE_BYTES } from '../shared/messageLimit';

/** Larger bodies are refused: as large as a stdio server may answer, since VS Code sends any size. */
export const MAX_BODY_BYTES = MAX_MESSAGE_BYTES;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }

  /** A refusal ends the connection: what the client still sends is never read. */
  get closes(): boolean {
    return this.status === 403 || this.status === 413;
  }
}

/**
 * The body, up to {@link MAX_BODY_BYTES}. A larger one is refused from its Content-Length before
 * a byte is read, or as soon as it grows past the limit; reading stops there (the stream is
 * paused, not destroyed, so the 413 can still be sent on the same socket).
 */
export function readJson(req: http.IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.reject(new HttpError(413, 'Request body too large'));
  return new Promise<unknown>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        cleanup();
        req.pause();
        reject(new HttpError(413, 'Request body too large'));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      try {
        resolve(parseBody(Buffer.concat(chunks).toString('utf8')));
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    const onError = (e: Error): void => {
      cleanup();
      reject(e);
    };
    function cleanup(): void {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    }
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function parseBody(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    throw new HttpError(400, 'Parse error: the body is not JSON');
  }
}
