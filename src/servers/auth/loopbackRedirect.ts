/**
 * Where the browser comes back after sign-in: an HTTP listener on 127.0.0.1, on a port the system
 * picks, that answers one exact path (RFC 8252 §7.3, the loopback redirect of native apps). It
 * works in desktop VS Code and in code-server on the same machine as the browser. A response is
 * taken only with the `state` of a sign-in this window started. One with any other `state` belongs
 * to no sign-in, so it ends none: it is answered with an error page and dropped. Ending the
 * sign-ins waiting would let any page that can send the browser to the loopback address cancel
 * the user's sign-in.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export const REDIRECT_PATH = '/mcp-elicitation/oauth/callback';

/** What the authorization server sent back: `code` (and `iss`), or `error`. */
export type RedirectParams = URLSearchParams;

interface Waiter {
  resolve(params: RedirectParams): void;
  reject(err: Error): void;
}

/** A page the browser shows after the redirect; plain text, so nothing in it runs. */
function page(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

export class LoopbackRedirect {
  private server: http.Server | undefined;
  private listening: Promise<string> | undefined;
  private address: string | undefined;
  private readonly waiters = new Map<string, Waiter>();

  /** The redirect URI, listening once this resolves; the first call opens the listener. */
  url(): Promise<string> {
    this.listening ??= new Promise<string>((resolve, reject) => {
      const server = http.createServer((req, res) => this.answer(req, res));
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const port = (server.address() as AddressInfo).port;
        this.address = `http://127.0.0.1:${port}${REDIRECT_PATH}`;
        resolve(this.address);
      });
      // It never keeps the extension host alive on its own.
      server.unref();
      this.server = server;
    });
    return this.listening;
  }

  /** The redirect URI once {@link url} has resolved; undefined while nothing listens. */
  current(): string | undefined {
    return this.address;
  }

  /**
   * Resolves with the parameters of the redirect that carries `state`, or rejects when `signal`
   * aborts (timeout, cancel, a second sign-in). A redirect with another `state` leaves it waiting.
   */
  expect(state: string, signal: AbortSignal): Promise<RedirectParams> {
    return new Promise<RedirectParams>((resolve, reject) => {
      const done = (): void => {
        this.waiters.delete(state);
        signal.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        done();
        reject(signal.reason instanceof Error ? signal.reason : new Error('sign-in cancelled'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort);
      this.waiters.set(state, {
        resolve: (p) => {
          done();
          resolve(p);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
    });
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== REDIRECT_PATH) return page(res, 404, 'Not found.');
    const state = url.searchParams.get('state') ?? '';
    const waiter = this.waiters.get(state);
    if (!waiter) return page(res, 400, 'This sign-in response does not belong to a sign-in VS Code started. Nothing was signed in.');
    waiter.resolve(url.searchParams);
    page(
      res,
      200,
      url.searchParams.has('error')
        ? 'Sign-in did not complete. You can close this page.'
        : 'Signed in. You can close this page and return to VS Code.',
    );
  }

  dispose(): void {
    for (const w of [...this.waiters.values()]) w.reject(new Error('sign-in cancelled: the extension is stopping'));
    this.server?.close();
    this.server?.closeAllConnections();
  }
}
