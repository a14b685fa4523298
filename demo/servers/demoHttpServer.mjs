#!/usr/bin/env node
// Demo MCP server over Streamable HTTP on 127.0.0.1:<port>/mcp (port from argv[2], DEMO_MCP_PORT or 37651).
// Prints `LISTENING <port>` once ready.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createDemoServer } from './demoTools.mjs';

const port = Number(process.argv[2] ?? process.env['DEMO_MCP_PORT'] ?? 37651);
const sessions = new Map();

http
  .createServer(async (req, res) => {
    if (!req.url?.startsWith('/mcp')) return void res.writeHead(404).end();
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    let transport = sessions.get(req.headers['mcp-session-id']);
    if (!transport) {
      // A new session starts with `initialize`; each session gets its own server instance.
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, transport) });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await createDemoServer('demo-http').connect(transport);
    }
    await transport.handleRequest(req, res, body);
  })
  .listen(port, '127.0.0.1', function () {
    process.stdout.write(`LISTENING ${this.address().port}\n`);
  });
