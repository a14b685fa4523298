/**
 * The gateway endpoint on the wire, in plain Node: a real MCP client of the 2025 kind (VS Code's
 * is one) talks Streamable HTTP to the endpoint, which relays to an upstream that records what it
 * was asked. The in-host suite runs the same path with VS Code's own client and real servers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { keyHeaders } from '../../src/gateway/admission';
import type { GatewayEndpoint } from '../../src/gateway/endpoint';
import { assertRelaysCall, assertSeesUpstream, openTestEndpoint, RecordingUpstream } from './support/recordingUpstream';

const SECRET = 'unit-test-key';

async function connect(url: string, headers: Record<string, string> = keyHeaders(SECRET)): Promise<Client> {
  const client = new Client({ name: 'vscode-like', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

void describe('gateway endpoint', () => {
  const upstream = new RecordingUpstream();
  let endpoint: GatewayEndpoint;
  let sessions = 0;
  before(async () => {
    endpoint = await openTestEndpoint({ secret: SECRET, upstream: () => upstream, onDidChangeSessions: () => sessions++ });
  });
  after(async () => {
    await endpoint.close();
  });

  void it('listens on loopback only, and refuses a client without the key before any MCP is spoken', async () => {
    assert.match(endpoint.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await assert.rejects(connect(endpoint.url, {}), /403|Forbidden/);
    assert.equal(endpoint.sessionCount, 0);
  });

  void it('declares what the upstream declares (no elicitation), with its name and instructions', async () => {
    const client = await connect(endpoint.url);
    try {
      await assertSeesUpstream(client, endpoint);
    } finally {
      await client.close();
    }
  });

  void it("relays a call with its arguments and the upstream progress under the caller's own token", async () => {
    const client = await connect(endpoint.url);
    try {
      await assertRelaysCall(client, upstream);
    } finally {
      await client.close();
    }
  });

  void it('a call the client cancels is aborted upstream', async () => {
    const client = await connect(endpoint.url);
    try {
      const ac = new AbortController();
      const call = client.callTool({ name: 'slow', arguments: { holdMs: 10_000 } }, undefined, { signal: ac.signal });
      while (
        upstream.calls.at(-1)?.request.params?.['arguments'] === undefined ||
        (upstream.calls.at(-1)?.request.params?.['arguments'] as { holdMs?: number }).holdMs !== 10_000
      ) {
        await new Promise((r) => setTimeout(r, 10));
      }
      ac.abort();
      await assert.rejects(call);
      const t0 = Date.now();
      while (!upstream.calls.at(-1)?.aborted) {
        assert.ok(Date.now() - t0 < 5000, 'upstream saw the cancellation');
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      await client.close();
    }
  });

  void it('an upstream error reaches the client as an MCP error with its code and message', async () => {
    const client = await connect(endpoint.url);
    try {
      await assert.rejects(
        client.callTool({ name: 'slow', arguments: { fail: true } }),
        (e: { code?: number; message?: string }) => e.code === -32603 && /the upstream tool broke/.test(e.message ?? ''),
      );
      upstream.isRunning = false;
      await assert.rejects(client.listTools(), /MCP server "up" is not running/);
    } finally {
      upstream.isRunning = true;
      await client.close();
    }
  });

  void it('passes upstream notifications on to every open session', async () => {
    const a = await connect(endpoint.url);
    const b = await connect(endpoint.url);
    try {
      const got = { a: 0, b: 0 };
      a.setNotificationHandler(ToolListChangedNotificationSchema, () => void got.a++);
      b.setNotificationHandler(ToolListChangedNotificationSchema, () => void got.b++);
      // The standalone event stream opens just after initialize; give it a moment.
      const t0 = Date.now();
      while (got.a === 0 || got.b === 0) {
        assert.ok(Date.now() - t0 < 5000, `both sessions heard list_changed (${JSON.stringify(got)})`);
        endpoint.notify({ method: 'notifications/tools/list_changed' });
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  void it('closing the endpoint ends its sessions and stops listening', async () => {
    const client = await connect(endpoint.url);
    const before = sessions;
    await endpoint.close();
    assert.equal(endpoint.sessionCount, 0);
    assert.ok(sessions > before, 'the view heard the sessions change');
    await assert.rejects(fetch(endpoint.url, { method: 'POST', headers: keyHeaders(SECRET) }), /fetch failed/);
    await client.close().catch(() => undefined);
  });
});
