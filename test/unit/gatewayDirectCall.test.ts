/**
 * The endpoint's direct path for tool calls (src/gateway/directCall.ts), in plain Node: which
 * calls take it, and that on the wire it answers as the SDK's transport and server answer the same
 * call (sent as a batch of one, which the direct path leaves to the SDK), byte for byte: headers,
 * progress and result events, error codes. Then what only it does: a call whose stream the client
 * closes is cancelled upstream.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keyHeaders } from '../../src/gateway/admission';
import { cancelledIds, directCall, wireError } from '../../src/gateway/directCall';
import type { GatewayEndpoint } from '../../src/gateway/endpoint';
import { openTestEndpoint, RecordingUpstream } from './support/recordingUpstream';

const SECRET = 'unit-test-key';
const VSCODE_HEADERS = {
  accept: 'application/json, text/event-stream',
  'content-type': 'application/json',
  'mcp-protocol-version': '2025-11-25',
};
const call = (id: number | string, args: Record<string, unknown>, token?: string | number): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'slow', arguments: args, ...(token !== undefined ? { _meta: { progressToken: token } } : {}) },
});

void describe('which calls take the direct path', () => {
  void it("takes VS Code's tool call on the 2025 wire, progress token and all", () => {
    assert.deepEqual(directCall(call(7, { a: 1 }, 'tok'), VSCODE_HEADERS, undefined), {
      id: 7,
      params: { name: 'slow', arguments: { a: 1 }, _meta: { progressToken: 'tok' } },
    });
  });

  void it('leaves to the SDK what the SDK must check or refuse', () => {
    const leftAlone: [string, unknown, Record<string, string>][] = [
      ['a batch', [call(1, {})], VSCODE_HEADERS],
      ['another method', { ...call(1, {}), method: 'tools/list' }, VSCODE_HEADERS],
      ['a notification', { jsonrpc: '2.0', method: 'tools/call', params: { name: 'slow' } }, VSCODE_HEADERS],
      ['a null id', { ...call(1, {}), id: null }, VSCODE_HEADERS],
      ['a fractional id', { ...call(1, {}), id: 1.5 }, VSCODE_HEADERS],
      ['arguments that are not an object', { ...call(1, {}), params: { name: 'slow', arguments: 'x' } }, VSCODE_HEADERS],
      ['no tool name', { ...call(1, {}), params: { arguments: {} } }, VSCODE_HEADERS],
      ['a task-augmented call', { ...call(1, {}), params: { name: 'slow', task: { ttl: 1000 } } }, VSCODE_HEADERS],
      ['an object progress token', { ...call(1, {}), params: { name: 'slow', _meta: { progressToken: {} } } }, VSCODE_HEADERS],
      ['the 2026 wire', call(1, {}), { ...VSCODE_HEADERS, 'mcp-protocol-version': '2026-07-28' }],
      ['an unknown revision', call(1, {}), { ...VSCODE_HEADERS, 'mcp-protocol-version': '2024-01-01' }],
      ['no revision header', call(1, {}), { accept: VSCODE_HEADERS.accept, 'content-type': 'application/json' }],
      ['no event-stream accept', call(1, {}), { ...VSCODE_HEADERS, accept: 'application/json' }],
      ['a text body', call(1, {}), { ...VSCODE_HEADERS, 'content-type': 'text/plain' }],
    ];
    for (const [what, body, headers] of leftAlone) assert.equal(directCall(body, headers, undefined), undefined, what);
    const noHeader = { accept: VSCODE_HEADERS.accept, 'content-type': 'application/json' };
    assert.equal(directCall(call(1, {}), noHeader, '2026-07-28'), undefined, 'a session on the 2026 wire');
    assert.equal(directCall(call(1, {}), noHeader, '1999-01-01'), undefined, 'a session on a revision the SDK does not know');
  });

  void it('takes a call without the revision header (VS Code 1.139 sends none) on a session that asked for a 2025 revision', () => {
    // What VS Code 1.139.1 sends for an agent's tool call, headers and all (seen on the wire in the bench host).
    const vscode = { accept: 'text/event-stream, application/json', 'content-type': 'application/json' };
    assert.equal(directCall(call(9, { text: 'x' }, '23982040-8f31'), vscode, '2025-11-25')?.id, 9);
    assert.equal(
      directCall(call(9, { text: 'x' }, '23982040-8f31'), { ...vscode, 'mcp-protocol-version': '2026-07-28' }, '2025-11-25'),
      undefined,
    );
  });

  void it('reads cancellations from one message or a batch, and puts errors on the wire as the SDK does', () => {
    const cancel = (requestId: unknown): unknown => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
    assert.deepEqual(cancelledIds(cancel(3)), [3]);
    assert.deepEqual(cancelledIds([cancel('a'), call(1, {}), cancel({})]), ['a']);
    assert.deepEqual(wireError(Object.assign(new Error('gone'), { code: -32002, data: 1 })), { code: -32602, message: 'gone', data: 1 });
    assert.deepEqual(wireError('a string'), { code: -32603, message: 'Internal error' });
  });
});

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

void describe('the direct path on the wire', { timeout: 60_000 }, () => {
  const upstream = new RecordingUpstream();
  let endpoint: GatewayEndpoint;
  let sid = '';
  // As VS Code 1.139 sends them: no MCP-Protocol-Version header after initialize.
  const WIRE_HEADERS = { accept: 'text/event-stream, application/json', 'content-type': 'application/json' };
  const post = async (body: unknown, signal?: AbortSignal): Promise<Answer> => {
    const res = await fetch(endpoint.url, {
      method: 'POST',
      headers: { ...WIRE_HEADERS, ...keyHeaders(SECRET), ...(sid ? { 'mcp-session-id': sid } : {}) },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const events = (a: Answer): unknown[] =>
    a.text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)) as unknown);
  const waitFor = async (what: string, ok: () => boolean): Promise<void> => {
    const t0 = Date.now();
    while (!ok()) {
      assert.ok(Date.now() - t0 < 5000, what);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const lastCall = (holdMs: number): RecordingUpstream['calls'][number] | undefined => {
    const c = upstream.calls.at(-1);
    return (c?.request.params?.['arguments'] as { holdMs?: number } | undefined)?.holdMs === holdMs ? c : undefined;
  };

  before(async () => {
    endpoint = await openTestEndpoint({ secret: SECRET, upstream: () => upstream });
    const init = await fetch(endpoint.url, {
      method: 'POST',
      headers: { ...VSCODE_HEADERS, ...keyHeaders(SECRET) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      }),
    });
    sid = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    assert.ok(sid, 'the endpoint opened a session');
    assert.equal((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  });
  after(async () => {
    await endpoint.close();
  });

  void it('answers a call as the SDK answers it: headers, progress under the caller token, result', async () => {
    const direct = await post(call(11, { holdMs: 1 }, 'p-1'));
    const viaSdk = await post([call(11, { holdMs: 1 }, 'p-1')]);
    assert.equal(direct.status, 200);
    for (const h of ['content-type', 'cache-control', 'mcp-session-id', 'x-accel-buffering']) {
      assert.equal(direct.headers.get(h), viaSdk.headers.get(h), h);
    }
    assert.deepEqual(events(direct), events(viaSdk));
    assert.deepEqual(events(direct), [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1, total: 2, message: 'halfway', progressToken: 'p-1' } },
      { jsonrpc: '2.0', id: 11, result: { content: [{ type: 'text', text: 'done ({"holdMs":1})' }] } },
    ]);
    assert.equal(direct.text, viaSdk.text, 'the same bytes');
  });

  void it('answers an upstream error as the SDK does, code, message and data', async () => {
    for (const failCode of [-32603, -32002, 42]) {
      const direct = await post(call(12, { fail: true, failCode }));
      const viaSdk = await post([call(12, { fail: true, failCode })]);
      assert.deepEqual(events(direct), events(viaSdk), `code ${failCode}`);
    }
    assert.deepEqual(events(await post(call(13, { fail: true, failCode: -32002 }))), [
      { jsonrpc: '2.0', id: 13, error: { code: -32602, message: 'the upstream tool broke', data: { why: 'test' } } },
    ]);
  });

  void it("VS Code's cancellation aborts the call upstream, and the call gets no answer", async () => {
    const pending = post(call(14, { holdMs: 10_000 }));
    await waitFor('the upstream got the call', () => lastCall(10_000) !== undefined);
    const cancel = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 14, reason: 'user' } });
    assert.equal(cancel.status, 202);
    const answer = await pending;
    assert.equal(lastCall(10_000)?.aborted, true);
    assert.deepEqual(events(answer), [], 'no answer to a cancelled call');
  });

  void it('a call whose stream the client closes is cancelled upstream', async () => {
    const ac = new AbortController();
    const pending = post(call(15, { holdMs: 9_000 }), ac.signal);
    await waitFor('the upstream got the call', () => lastCall(9_000) !== undefined);
    ac.abort();
    await assert.rejects(pending);
    await waitFor('the upstream heard the call end', () => lastCall(9_000)?.aborted === true);
  });

  void it('ending the session cancels its calls', async () => {
    const pending = post(call(16, { holdMs: 8_000 }));
    await waitFor('the upstream got the call', () => lastCall(8_000) !== undefined);
    const end = await fetch(endpoint.url, { method: 'DELETE', headers: { ...keyHeaders(SECRET), 'mcp-session-id': sid } });
    assert.equal(end.status, 200);
    await pending;
    await waitFor('the upstream heard the call end', () => lastCall(8_000)?.aborted === true);
  });
});
