/**
 * A kept-alive socket that the server closed while this host was busy (src/servers/loopbackFetch.ts,
 * `sendOnLoopback`). The Python server written from the spec closes a connection idle for 100 ms
 * without a `Keep-Alive` hint, as uvicorn does after 5 s; the test then blocks the event loop past
 * that moment, so the pool still holds the closed socket when the next call takes it. Before the
 * fix that call failed with "socket hang up" in both eras (so does `fetch`); now it is sent again
 * on a new socket. A request that was answered, or that failed on a new socket, is never sent twice.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startListening } from './support/listeningFixture';
import type { ServerDefinition } from '../../src/config/parse/definitions';
import { HostClient } from '../../src/servers/hostClient';
import { loopbackAgent, sendOnLoopback } from '../../src/servers/loopbackFetch';
import { createTransport } from '../../src/servers/transports';

const SCRIPT = path.join(__dirname, '..', 'fixtures', 'pyServer.py');

/** Keeps this thread busy, as an extension host is when other work runs: no socket event is read meanwhile. */
function busyFor(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

void describe('a kept-alive socket the server closed while the host was busy', () => {
  let child: ChildProcess;
  let url = '';

  before(async () => {
    ({ child, url } = await startListening('python3', [SCRIPT, 'idle-closer', '--http', '0', '--idle-close', '0.1']));
  });
  after(() => {
    child.kill();
  });

  for (const mode of ['legacy', 'auto'] as const) {
    void it(`the next call still goes through (${mode === 'legacy' ? '2025-11-25' : '2026-07-28'})`, async () => {
      const def: ServerDefinition = { name: 'idle-closer', source: { kind: 'setting', scope: 'user' }, type: 'http', url, headers: {} };
      const prepared = createTransport(def, { stderr: () => undefined, warn: () => undefined });
      const client = new HostClient({ name: 'unit', version: '0' }, { capabilities: {}, versionNegotiation: { mode } });
      await client.connect(prepared.transport);
      try {
        for (const n of [1, 2, 3]) {
          // Past the server's 100 ms with the loop blocked: its close is not read before the call.
          await new Promise((r) => setTimeout(r, 20));
          busyFor(250);
          const r = await client.callTool({ name: 'echo', arguments: { text: `after idle ${n}` } });
          const [first] = r.content as { type: string; text: string }[];
          assert.deepEqual(JSON.parse(first?.text ?? 'null'), { text: `after idle ${n}` });
        }
      } finally {
        await client.close();
      }
    });
  }
});

void describe('what is not sent again', () => {
  let server: http.Server;
  let base = '';
  const seen: string[] = [];
  /** Bodies whose request the server reads and then drops its connection without answering. */
  const drop = new Set<string>();

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        seen.push(body);
        if (drop.has(body)) return void req.socket.destroy();
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const post = (body: string): Promise<http.IncomingMessage> =>
    sendOnLoopback(new http.Agent({ keepAlive: true }), { url: new URL(`${base}/mcp`), method: 'POST', headers: {}, body }, undefined);

  void it('a request whose new connection fails is not sent again', async () => {
    drop.add('"fresh"');
    await assert.rejects(post('"fresh"'), { code: 'ECONNRESET' });
    assert.deepEqual(
      seen.filter((b) => b === '"fresh"'),
      ['"fresh"'],
    );
  });

  void it('an answered request is not sent again', async () => {
    const res = await sendOnLoopback(
      loopbackAgent(),
      { url: new URL(`${base}/mcp`), method: 'POST', headers: {}, body: '"once"' },
      undefined,
    );
    res.resume();
    await new Promise((r) => res.on('end', r));
    assert.equal(res.statusCode, 200);
    assert.deepEqual(
      seen.filter((b) => b === '"once"'),
      ['"once"'],
    );
  });
});
