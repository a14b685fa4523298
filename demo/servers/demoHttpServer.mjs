#!/usr/bin/env node
// Demo MCP server over Streamable HTTP on 127.0.0.1:<port>/mcp (port from argv[2], DEMO_MCP_PORT or 37651).
// Prints `LISTENING <port>` once ready.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createDemoServer } from './demoTools.mjs';

const port = Number(process.argv[2] ?? process.env['DEMO_MCP_PORT'] ?? 37651);
/** @type {Map<string, StreamableHTTPServerTransport>} */
const sessions = new Map();

/** @param {http.IncomingMessage} req @param {http.ServerResponse} res */
async function handle(req, res) {
  if (!req.url?.startsWith('/mcp')) return void res.writeHead(404).end();
  /** @type {Buffer[]} */
  const chunks = [];
  for await (const c of /** @type {AsyncIterable<Buffer>} */ (req)) chunks.push(c);
  /** @type {unknown} */
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  const sid = req.headers['mcp-session-id'];
  let transport = typeof sid === 'string' ? sessions.get(sid) : undefined;
  if (!transport) {
    // A new session starts with `initialize`; each session gets its own server instance.
    const t = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, t);
      },
    });
    t.onclose = () => t.sessionId && sessions.delete(t.sessionId);
    await createDemoServer('demo-http').connect(t);
    transport = t;
  }
  await transport.handleRequest(req, res, body);
}

const server = http.createServer((req, res) => {
  // A body that is not JSON, or a failing transport, answers 500 instead of ending the demo server.
  handle(req, res).catch((/** @type {unknown} */ err) => {
    process.stderr.write(`demo http: ${err instanceof Error ? err.message : String(err)}\n`);
    if (!res.headersSent) res.writeHead(500).end();
  });
});
server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`LISTENING ${typeof addr === 'object' && addr ? addr.port : port}\n`);
});
