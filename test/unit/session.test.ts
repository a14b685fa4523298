/**
 * One launch in plain Node: a Session over a real SDK server on an in-memory pair. What it
 * declares, what it hears, how it words protocol errors, and that nothing acts once disposed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/client';
import { MissingCapabilityError, VersionGoneError } from '../../src/servers/mrtr/errors';
import { CLIENT_CAPABILITIES } from '../../src/servers/capabilities/clientCapabilities';
import { Session, type SessionEnd } from '../../src/servers/session';
import { FakeLaunches, MemoryLog, RecordingSampler, RecordingSink, stdioDef } from './support/fakeLaunches';

async function connected(
  log = new MemoryLog(),
): Promise<{ session: Session; launches: FakeLaunches; sink: RecordingSink; sampler: RecordingSampler; log: MemoryLog }> {
  const launches = new FakeLaunches();
  const sink = new RecordingSink();
  const sampler = new RecordingSampler();
  const session = new Session(launches.create(stdioDef('one'), { stderr: () => undefined, warn: () => undefined }), {
    name: 'one',
    clientInfo: { name: 'test-host', version: '0.0.0' },
    sink,
    sampler,
    log,
    protocolVersion: undefined,
  });
  await session.connect(5_000);
  return { session, launches, sink, sampler, log };
}

function textOf(result: unknown): string {
  const first = (result as CallToolResult).content[0];
  return first?.type === 'text' ? first.text : '';
}

void describe('Session', () => {
  void it('declares exactly CLIENT_CAPABILITIES, and the first tools/list marks it listed', async () => {
    const { session, launches } = await connected();
    assert.deepEqual(launches.last.server?.server.getClientCapabilities(), CLIENT_CAPABILITIES);
    assert.equal(session.toolsListed, false);
    const heard = new Promise<void>((resolve) => session.onDidChangeTools(() => resolve()));
    await session.refreshTools();
    await heard;
    assert.ok(session.toolsListed);
    assert.deepEqual(session.tools.map((t) => t.name).sort(), ['addTool', 'ask', 'echo', 'hold', 'sample']);
    await session.dispose();
  });

  void it('a pushed elicitation reaches the sink with the server name, and its answer reaches the server', async () => {
    const { session, sink } = await connected();
    sink.answer = () => Promise.resolve({ action: 'accept', content: { name: 'Ada' } });
    const result = await session.sendLeg('tools/call', { name: 'ask', arguments: {} }, {}, 'ask');
    assert.equal(sink.asked[0]?.server, 'one');
    assert.deepEqual(JSON.parse(textOf(result)), { action: 'accept', content: { name: 'Ada' } });
    await session.dispose();
  });

  void it('a tool list change is passed on and refreshes the tools', async () => {
    const { session } = await connected();
    await session.refreshTools();
    const notified: string[] = [];
    session.onDidNotify((n) => notified.push(n.method));
    const refreshed = new Promise<void>((resolve) =>
      session.onDidChangeTools(() => session.tools.some((t) => t.name === 'late') && resolve()),
    );
    await session.sendLeg('tools/call', { name: 'addTool', arguments: { name: 'late' } }, {}, 'addTool');
    await refreshed;
    assert.ok(notified.includes('notifications/tools/list_changed'));
    await session.dispose();
  });

  void it('-32021 becomes a MissingCapabilityError naming the capabilities; the session stays', async () => {
    const { session } = await connected();
    const err = await session.sendLeg('resources/read', { uri: 'test://needs-sampling' }, {}, 'test://needs-sampling').then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof MissingCapabilityError);
    assert.deepEqual(err.capabilities, ['sampling']);
    assert.equal(err.server, 'one');
    assert.equal(session.isDisposed, false);
    await session.dispose();
  });

  void it('-32022 becomes a VersionGoneError and ends the session so the connection negotiates again', async () => {
    const { session } = await connected();
    const ended: SessionEnd[] = [];
    session.onDidEnd((e) => ended.push(e));
    const err = await session.relay({ method: 'resources/read', params: { uri: 'test://version-gone' } }, {}).then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof VersionGoneError);
    assert.deepEqual(err.supported, ['2099-01-01']);
    assert.deepEqual(
      ended.map((e) => e.kind),
      ['versionGone'],
    );
    assert.ok(session.isDisposed);
  });

  void it('once disposed, a message the old transport still delivers reaches nobody, and dispose is idempotent', async () => {
    const { session, launches } = await connected();
    const deliver = launches.last.link?.onmessage;
    assert.ok(deliver);
    const notified: string[] = [];
    let toolsChanged = 0;
    session.onDidNotify((n) => notified.push(n.method));
    session.onDidChangeTools(() => toolsChanged++);
    const first = session.dispose();
    assert.equal(session.dispose(), first, 'the same close');
    await first;
    const late: JSONRPCMessage[] = [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'late' } },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://x' } },
    ];
    for (const m of late) deliver(m);
    await new Promise(setImmediate);
    assert.deepEqual(notified, []);
    assert.equal(toolsChanged, 0);
    assert.deepEqual(session.tools, []);
  });

  void it('once disposed, a question the old process still sends asks nobody: a stopped or restarting server shows no late prompt', async () => {
    const { session, launches, sink, sampler } = await connected();
    const deliver = launches.last.link?.onmessage;
    assert.ok(deliver);
    // A stdio server's output is still read while it is given time to exit (stdin closed, then
    // SIGTERM, then SIGKILL): what it wrote meanwhile arrives after the session ended.
    void session.dispose();
    deliver({
      jsonrpc: '2.0',
      id: 'late-form',
      method: 'elicitation/create',
      params: { message: 'Still there?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
    });
    deliver({
      jsonrpc: '2.0',
      id: 'late-sample',
      method: 'sampling/createMessage',
      params: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 },
    });
    await new Promise(setImmediate);
    assert.deepEqual(sink.asked, [], 'no form');
    assert.deepEqual(sampler.asked, [], 'no sample');
  });

  void it('with tracing on, every message in both directions passes the one trace line (in the server’s own log, so without a name prefix)', async () => {
    const log = new MemoryLog(true);
    const { session } = await connected(log);
    assert.equal(textOf(await session.sendLeg('tools/call', { name: 'echo', arguments: { text: 'traced' } }, {}, 'echo')), 'traced');
    assert.ok(log.traced.some((l) => l.startsWith('→ ') && l.includes('"tools/call"')));
    assert.ok(log.traced.some((l) => l.startsWith('← ') && l.includes('traced')));
    await session.dispose();
  });
});
