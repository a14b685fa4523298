// A raw TCP pipe: every connection to it is joined byte for byte to one to the target port. No
// parsing, no buffering beyond the sockets' own: the least any relay between two HTTP peers can do.
// The gateway rows use it as the floor of a relay (bench/host/gateway.ts): run inside the extension
// host, and as a process of its own (bench/fixtures/tcpPipeProcess.mjs).
import net from 'node:net';

/**
 * Listens on 127.0.0.1 (`port` 0: a port the OS picks) and pipes each connection to `targetPort`.
 * @param {number} targetPort
 * @param {number} [port]
 * @returns {Promise<{ port: number, close: () => Promise<void> }>}
 */
export function openTcpPipe(targetPort, port = 0) {
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const addr = server.address();
      resolve({
        port: typeof addr === 'object' && addr ? addr.port : 0,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
