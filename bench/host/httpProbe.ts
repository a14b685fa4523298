/**
 * Where an HTTP MCP round trip from the extension host spends its time: the same `tools/call` to
 * the same loopback server (the gateway fixture over HTTP), sent three ways from this host, in one
 * session. `fetch` is what VS Code's MCP client uses; in the extension host it is wrapped for
 * proxy and certificate support. `node:http` is Node's client with a keep-alive agent through
 * `http.request`, which the extension host also wraps (a proxy agent per request); `clientRequest`
 * is the same client through `new http.ClientRequest`, which the wrapping does not reach, as our
 * connections reach a loopback server (src/servers/loopbackFetch.ts); `socket` writes HTTP/1.1 by
 * hand on one kept-alive TCP connection, the floor for loopback.
 */
import * as http from 'node:http';
import * as net from 'node:net';

export type ProbeClient = 'fetch' | 'nodeHttp' | 'clientRequest' | 'socket';

export interface HttpProbeResult {
  /** ms per round trip, measured calls only. */
  readonly samples: { client: ProbeClient; ms: number }[];
}

const PROTOCOL = '2025-06-18';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

type Send = (body: unknown) => Promise<string>;

function viaFetch(url: string, session: () => Record<string, string>, onSession: (id: string) => void): Send {
  return async (body) => {
    const res = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...session() }, body: JSON.stringify(body) });
    const id = res.headers.get('mcp-session-id');
    if (id) onSession(id);
    return res.text();
  };
}

function viaNodeHttp(url: string, session: () => Record<string, string>, agent: http.Agent, unwrapped: boolean): Send {
  const target = new URL(url);
  return (body) =>
    new Promise((resolve, reject) => {
      const options = { method: 'POST', headers: { ...HEADERS, ...session() }, agent };
      const onResponse = (res: http.IncomingMessage): void => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      };
      const req = unwrapped
        ? new http.ClientRequest({ ...options, hostname: target.hostname, port: target.port, path: target.pathname }, onResponse)
        : http.request(url, options, onResponse);
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
}

/** One request at a time; a response ends with the chunked encoding's last chunk (the fixture answers in SSE). */
function viaSocket(url: URL, sock: net.Socket, session: () => Record<string, string>): Send {
  return (body) =>
    new Promise((resolve) => {
      const payload = JSON.stringify(body);
      let text = '';
      const onData = (d: Buffer): void => {
        text += d.toString('utf8');
        if (!text.includes('\r\n0\r\n\r\n')) return;
        sock.off('data', onData);
        resolve(text);
      };
      sock.on('data', onData);
      const headers = { ...HEADERS, ...session(), host: url.host, 'content-length': String(Buffer.byteLength(payload)) };
      sock.write(
        `POST ${url.pathname}${url.search} HTTP/1.1\r\n${Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}\r\n${payload}`,
      );
    });
}

export async function probeHttp(url: string, calls: number, warmup: number): Promise<HttpProbeResult> {
  let sessionId: string | undefined;
  const session = (): Record<string, string> => (sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL } : {});
  const agent = new http.Agent({ keepAlive: true });
  const target = new URL(url);
  const sock = net.connect(Number(target.port), target.hostname);
  sock.setNoDelay(true);
  await new Promise((resolve, reject) => sock.once('connect', resolve).once('error', reject));
  const send: Record<ProbeClient, Send> = {
    fetch: viaFetch(url, session, (id) => (sessionId = id)),
    nodeHttp: viaNodeHttp(url, session, agent, false),
    clientRequest: viaNodeHttp(url, session, agent, true),
    socket: viaSocket(target, sock, session),
  };
  try {
    await send.fetch({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench-probe', version: '1' } },
    });
    await send.fetch({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const clients: ProbeClient[] = ['fetch', 'nodeHttp', 'clientRequest', 'socket'];
    const samples: HttpProbeResult['samples'] = [];
    for (let i = 1; i <= warmup + calls; i++) {
      for (const client of i % 2 ? clients : [...clients].reverse()) {
        const t0 = performance.now();
        const out = await send[client]({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: `probe ${i}` } },
        });
        const ms = performance.now() - t0;
        if (!out.includes(`probe ${i}`)) throw new Error(`HTTP probe: ${client} answered ${out.slice(0, 200)}`);
        if (i > warmup) samples.push({ client, ms });
      }
    }
    return { samples };
  } finally {
    sock.destroy();
    agent.destroy();
  }
}
