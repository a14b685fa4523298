/**
 * The gateway's socket door with the relay VS Code runs, in plain Node: a real MCP stdio client
 * (VS Code's is one) starts src/gateway/stdioRelay.ts as a server process, as VS Code starts the
 * stdio definition we give it, and talks through it to an endpoint relaying to a recording
 * upstream. The in-host suite runs the same path with VS Code itself (gateway.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as net from 'node:net';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayEndpoint } from '../../src/gateway/endpoint';
import { SocketDoor } from '../../src/gateway/socketDoor';
import { pipePath, SocketDir } from '../../src/gateway/socketDir';
import { KEY_ENV, SOCKET_ENV } from '../../src/gateway/relayEnv';
import { assertRelaysCall, assertSeesUpstream, openTestEndpoint, RecordingUpstream } from './support/recordingUpstream';

const SECRET = 'unit-test-key-0123456789abcdefghijklmnopqrstu';
const RELAY = fileURLToPath(new URL('../../src/gateway/stdioRelay.ts', import.meta.url));

function relayTransport(path: string, key = SECRET): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', RELAY],
    env: { ...(process.env as Record<string, string>), [SOCKET_ENV]: path, [KEY_ENV]: key },
    stderr: 'pipe',
  });
}

async function connect(path: string, key = SECRET): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = relayTransport(path, key);
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'vscode-like', version: '1' });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    assert.ok(Date.now() - t0 < ms, what);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What the gateway does with a raw connection that writes `bytes`: the time until it closes it, or 'open'. */
function rawConnection(path: string, bytes: string, waitMs: number): Promise<'closed' | 'open'> {
  return new Promise((resolve) => {
    const socket = net.connect(path, () => socket.write(bytes));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('open');
    }, waitMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve('closed');
    });
  });
}

/** A private directory (none on Windows, where doors are pipes) and the path of a socket in it. */
async function privateSocket(): Promise<{ dir: SocketDir | undefined; path: string }> {
  if (process.platform === 'win32') return { dir: undefined, path: pipePath() };
  const dir = await SocketDir.make();
  return { dir, path: dir.nextPath() };
}

void describe('gateway socket door and relay', () => {
  const upstream = new RecordingUpstream();
  let dir: SocketDir | undefined;
  let path: string;
  const warnings: string[] = [];
  let endpoint: GatewayEndpoint;
  before(async () => {
    ({ dir, path } = await privateSocket());
    endpoint = await openTestEndpoint({
      secret: SECRET,
      upstream: () => upstream,
      socketPath: path,
      log: { info: () => undefined, warn: (m) => warnings.push(m) },
    });
  });
  after(async () => {
    await endpoint.close();
    await dir?.close();
  });

  void it('listens in a directory only this user can open', { skip: process.platform === 'win32' }, () => {
    assert.equal(endpoint.socketPath, path);
    assert.ok(dir !== undefined);
    assert.equal(statSync(dir.path).mode & 0o777, 0o700);
  });

  void it('a stdio client reaches the upstream through the relay: what it declares, its tools, a call with progress under its own token', async () => {
    const { client } = await connect(path);
    try {
      await assertSeesUpstream(client, endpoint);
      await assertRelaysCall(client, upstream);
      // A call as large as VS Code may send (past the SDK's default 10 MB line); the answer is small.
      const big = 'x'.repeat(12 * 1024 * 1024);
      await assert.rejects(client.callTool({ name: 'slow', arguments: { big, fail: true } }), /the upstream tool broke/);
      assert.equal((upstream.calls.at(-1)?.request.params?.['arguments'] as { big?: string } | undefined)?.big?.length, big.length);
    } finally {
      await client.close();
    }
    // VS Code stops a stdio server by closing its stdin: the session ends with it.
    await until(() => endpoint.sessionCount === 0, 'the session closed with the relay');
  });

  void it('a call the client cancels is aborted upstream; notifications reach every socket session', async () => {
    const a = await connect(path);
    const b = await connect(path);
    try {
      const ac = new AbortController();
      const call = a.client.callTool({ name: 'slow', arguments: { holdMs: 10_000 } }, undefined, { signal: ac.signal });
      await until(
        () => (upstream.calls.at(-1)?.request.params?.['arguments'] as { holdMs?: number } | undefined)?.holdMs === 10_000,
        'call sent',
      );
      ac.abort();
      await assert.rejects(call);
      await until(() => upstream.calls.at(-1)?.aborted === true, 'upstream saw the cancellation');

      const got = { a: 0, b: 0 };
      a.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void got.a++);
      b.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void got.b++);
      endpoint.notify({ method: 'notifications/tools/list_changed' });
      await until(() => got.a === 1 && got.b === 1, `both sessions heard list_changed once (${JSON.stringify(got)})`);
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });

  void it('a malformed request through the socket gets a JSON-RPC error naming the fault, and the session goes on', async () => {
    const replies: Record<string, unknown>[] = [];
    const socket = net.connect(path);
    let text = '';
    socket.on('data', (d: Buffer) => {
      text += d.toString();
      const lines = text.split('\n');
      text = lines.pop() ?? '';
      for (const l of lines) replies.push(JSON.parse(l) as Record<string, unknown>);
    });
    const send = (m: unknown): boolean => socket.write(`${JSON.stringify(m)}\n`);
    try {
      await new Promise<void>((r) => socket.once('connect', () => r()));
      socket.write(`${SECRET}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      });
      await until(() => replies.some((r) => r['id'] === 1), 'initialized');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: [] });
      send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      await until(() => replies.some((r) => r['id'] === 3), 'the next request is answered');
      const error = replies.find((r) => r['id'] === 2)?.['error'] as { code?: number; message?: string } | undefined;
      assert.equal(error?.code, -32602, JSON.stringify(replies));
      assert.match(error?.message ?? '', /Invalid params/);
    } finally {
      socket.destroy();
    }
  });

  void it('an upstream that is not running answers the initialize with its reason, which the client shows', async () => {
    upstream.isRunning = false;
    try {
      await assert.rejects(connect(path), /MCP server "up" is not running/);
      assert.equal(endpoint.sessionCount, 0);
    } finally {
      upstream.isRunning = true;
    }
  });

  void it('refuses a wrong key, and a connection that says nothing, before any MCP is read', async () => {
    warnings.length = 0;
    await assert.rejects(connect(path, 'guess'));
    assert.equal(await rawConnection(path, 'guess\n{"jsonrpc":"2.0","id":1,"method":"initialize"}\n', 2000), 'closed');
    assert.equal(await rawConnection(path, 'x'.repeat(4096), 2000), 'closed', 'a first line too long to be the key');
    assert.equal(endpoint.sessionCount, 0);
    await until(() => warnings.some((w) => /refused a socket connection: missing or wrong gateway key/.test(w)), 'the refusal is logged');
    assert.ok(!warnings.join('\n').includes(SECRET), 'the key is never logged');

    const quietDoor = await privateSocket();
    const quiet = await SocketDoor.listen(quietDoor.path, {
      secret: SECRET,
      admitted: () => assert.fail('admitted without a key'),
      refused: (reason) => warnings.push(reason),
      keyWaitMs: 100,
    });
    try {
      assert.equal(await rawConnection(quiet.path, '', 3000), 'closed');
      assert.ok(warnings.includes('no key within the time allowed'));
    } finally {
      await quiet.close();
      await quietDoor.dir?.close();
    }
  });

  void it('a socket that cannot be opened leaves the HTTP door serving, and says so', async () => {
    const logged: string[] = [];
    const httpOnly = await openTestEndpoint({
      secret: SECRET,
      upstream: () => upstream,
      socketPath: '/nonexistent-dir/for/sure/1.sock',
      log: { info: () => undefined, warn: (m) => logged.push(m) },
    });
    try {
      assert.equal(httpOnly.socketPath, undefined, 'no socket door: the provider gives VS Code the HTTP definition');
      assert.match(httpOnly.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      assert.ok(
        logged.some((m) => /no socket at \/nonexistent-dir.*VS Code's agent uses HTTP/.test(m)),
        logged.join('\n'),
      );
    } finally {
      await httpOnly.close();
    }
  });

  void it('the relay without a gateway exits with a reason VS Code shows', async () => {
    const transport = relayTransport(dir ? `${dir.path}/99.sock` : pipePath());
    let err = '';
    transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    const client = new Client({ name: 'vscode-like', version: '1' });
    await assert.rejects(client.connect(transport));
    await until(() => /could not reach the gateway/.test(err), `stderr names the cause (${err})`);
  });

  void it('closing the endpoint ends its socket sessions: the relay exits cleanly (VS Code shows it stopped, not failed)', async () => {
    const { client, transport } = await connect(path);
    let closed = false;
    transport.onclose = () => (closed = true);
    // A second relay, run by hand, to read its exit code; VS Code keeps writing to its stdin meanwhile.
    const relay = spawn(process.execPath, ['--import', 'tsx', RELAY], {
      env: { ...process.env, [SOCKET_ENV]: path, [KEY_ENV]: SECRET },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Writes after the relay has gone fail with EPIPE, as VS Code's would; that is not the test.
    relay.stdin.on('error', () => undefined);
    let stderr = '';
    relay.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => relay.once('exit', (code) => r(code)));
    let answered = false;
    relay.stdout.on('data', () => (answered = true));
    relay.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
    );
    await until(() => answered && endpoint.sessionCount === 2, 'both sessions open');
    const pinging = setInterval(() => relay.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`), 1);
    try {
      await endpoint.close();
      assert.equal(endpoint.sessionCount, 0);
      assert.equal(await exited, 0, `the relay's exit code (stderr: ${stderr})`);
    } finally {
      clearInterval(pinging);
    }
    await until(() => closed, 'the client saw the relay end');
    assert.equal(await rawConnection(path, `${SECRET}\n`, 500).catch(() => 'closed'), 'closed', 'nothing listens any more');
    await client.close().catch(() => undefined);
  });
});
