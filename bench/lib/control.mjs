// The harness side of the benchmark's control channel (bench/host/control.ts is the other side):
// a loopback HTTP server the in-host benchmark calls to have the page watched and acted on.
import http from 'node:http';
import { parseJson } from '../../scripts/lib/json.mjs';

/**
 * @param {Record<string, (body: never) => unknown>} routes  POST path → handler (JSON in, JSON
 *   out). Each handler names the body it expects: the sender is our own in-host side, which is trusted.
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startControl(routes) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (/** @type {Buffer} */ d) => (body += d.toString()));
    const respond = async () => {
      const route = req.method === 'POST' ? routes[req.url ?? ''] : undefined;
      if (!route) {
        res.writeHead(404).end('no such route');
        return;
      }
      try {
        const out = await route(/** @type {never} */ (body ? parseJson(body) : {}));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out ?? { ok: true }));
      } catch (err) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(err instanceof Error ? err.message : String(err));
      }
    };
    req.on('end', () => void respond());
  });
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Page timestamps reported by window.__benchSeen, and the callers waiting for them. */
export class SeenBoard {
  /** @type {Map<string, number>} */
  #seen = new Map();
  /** @type {Map<string, ((at: number) => void)[]>} */
  #waiters = new Map();

  /**
   * @param {string} token
   * @param {number} at
   */
  report(token, at) {
    this.#seen.set(token, at);
    for (const w of this.#waiters.get(token) ?? []) w(at);
    this.#waiters.delete(token);
  }

  /**
   * @param {string} token
   * @param {number} timeoutMs
   * @returns {Promise<number>}
   */
  wait(token, timeoutMs) {
    const seenAt = this.#seen.get(token);
    if (seenAt !== undefined) return Promise.resolve(seenAt);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`prompt ${token} was not seen in the page within ${timeoutMs} ms`)), timeoutMs);
      const list = this.#waiters.get(token) ?? [];
      list.push((at) => {
        clearTimeout(timer);
        resolve(at);
      });
      this.#waiters.set(token, list);
    });
  }
}
