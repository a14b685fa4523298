/**
 * The Connection's lifecycle and restart policy in plain Node: real SDK servers over in-memory
 * pairs (test/unit/support/fakeLaunches.ts), timers the test fires, and waits on state events.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult, OAuthClientProvider } from '@modelcontextprotocol/client';
import { Connection } from '../../src/servers/connection';
import { STABLE_AFTER_MS } from '../../src/servers/connectionDeps';
import type { ServerDefinition } from '../../src/config/parse/definitions';
import {
  FakeLaunches,
  ManualTimers,
  MemoryLog,
  RecordingSampler,
  RecordingSink,
  httpDef,
  recordStates,
  stateWhere,
  stdioDef,
} from './support/fakeLaunches';

function harness(
  def: ServerDefinition = stdioDef(),
  delays: readonly number[] = [10, 20, 40],
  connectTimeoutMs = 30_000,
): { conn: Connection; launches: FakeLaunches; timers: ManualTimers; sink: RecordingSink; log: MemoryLog; gaveUp: string[] } {
  const launches = new FakeLaunches();
  const timers = new ManualTimers();
  const sink = new RecordingSink();
  const log = new MemoryLog();
  const gaveUp: string[] = [];
  const conn = new Connection(def, {
    log,
    clientInfo: { name: 'test-host', version: '0.0.0' },
    sink,
    sampler: new RecordingSampler(),
    onGaveUp: (g) => gaveUp.push(`${g.server}: ${g.reason}`),
    restartDelaysMs: delays,
    createTransport: launches.create,
    setTimer: timers.set,
    connectTimeoutMs: () => connectTimeoutMs,
  });
  return { conn, launches, timers, sink, log, gaveUp };
}

const running = (s: { kind: string }): boolean => s.kind === 'running';
const failed = (s: { kind: string }): boolean => s.kind === 'error';

function textOf(result: unknown): string {
  const first = (result as CallToolResult).content[0];
  return first?.type === 'text' ? first.text : '';
}

void describe('Connection', () => {
  void it('starts, lists the tools and runs a call; stop ends the session and says so', async () => {
    const { conn, launches } = harness();
    await conn.start();
    assert.equal(conn.state.kind, 'running');
    assert.ok(conn.ready, 'ready once the first tools/list answered');
    assert.ok(conn.tools.some((t) => t.name === 'echo'));
    assert.equal(conn.pid, launches.last.pid);
    assert.equal(textOf(await conn.sendLeg('tools/call', { name: 'echo', arguments: { text: 'hi' } }, {}, 'echo')), 'hi');
    await conn.stop();
    assert.equal(conn.state.kind, 'stopped');
    assert.deepEqual(conn.tools, []);
    await assert.rejects(
      conn.sendLeg('tools/call', { name: 'echo', arguments: { text: 'hi' } }, {}, 'echo'),
      /Server "fake" is not running/,
    );
    conn.dispose();
  });

  void it('restart backoff: each failed launch waits the next delay, and after the last one it gives up and says why', async () => {
    const { conn, launches, timers, gaveUp } = harness(stdioDef('crasher'));
    launches.next('exits', 'exits', 'exits', 'exits');
    const states = recordStates(conn);
    await conn.start();
    assert.deepEqual(timers.waiting, [10], 'the first retry waits the first delay');
    assert.match(conn.state.kind === 'error' ? conn.state.reason : '', /restarting in 0\.0 s/);
    for (const ms of [10, 20, 40]) {
      // Firing starts the next attempt at once; its failure comes asynchronously.
      timers.fire(ms);
      await stateWhere(conn, failed);
    }
    assert.deepEqual(timers.asked, [10, 20, 40], 'one delay per retry, in order; no stable-timer since it never ran');
    assert.equal(launches.launches.length, 4);
    assert.deepEqual(states, ['starting 1', 'error', 'starting 2', 'error', 'starting 3', 'error', 'starting 4', 'error gave up']);
    assert.equal(gaveUp.length, 1);
    assert.match(gaveUp[0] ?? '', /^crasher: .*closed/i);
    assert.deepEqual(timers.waiting, [], 'nothing is scheduled after giving up');
    conn.dispose();
  });

  void it('a start after giving up begins the count again; a launch that stayed up resets it too', async () => {
    const { conn, launches, timers } = harness(stdioDef(), [10, 20]);
    // Three failures use up two retries; the fourth launch (the user's Start) fails once more.
    launches.next('exits', 'exits', 'exits', 'exits');
    await conn.start();
    timers.fire(10);
    await stateWhere(conn, failed);
    timers.fire(20);
    await stateWhere(conn, failed);
    assert.ok(conn.state.kind === 'error' && conn.state.gaveUp);
    // The user starts it again: one more failure waits the first delay again.
    await conn.start();
    assert.deepEqual(timers.waiting, [10]);
    timers.fire(10);
    await stateWhere(conn, running);
    // Up for STABLE_AFTER_MS: a crash then counts as the first again.
    timers.fire(STABLE_AFTER_MS);
    await launches.last.crash();
    await stateWhere(conn, failed);
    assert.deepEqual(timers.waiting, [10]);
    conn.dispose();
  });

  void it('a transport that cannot be made fails the attempt like a refused connect, and the policy retries', async () => {
    const { conn, launches, timers } = harness(httpDef());
    launches.next('badUrl');
    await conn.start();
    assert.match(conn.state.kind === 'error' ? conn.state.reason : '', /Invalid URL; restarting/);
    timers.fire(10);
    await stateWhere(conn, running);
    conn.dispose();
  });

  void it('a Streamable HTTP server answering 405 to initialize is tried again over legacy SSE', async () => {
    const { conn, launches } = harness(httpDef());
    launches.next('http405', 'serve');
    await conn.start();
    assert.deepEqual(
      launches.launches.map((l) => l.kind),
      ['http', 'sse'],
    );
    assert.equal(conn.state.kind === 'running' ? conn.state.transport : undefined, 'sse');
    assert.ok(conn.ready);
    conn.dispose();
  });

  void it('a Streamable HTTP server answering 401 is never tried over SSE: without sign-in it stops, saying it needs sign-in', async () => {
    const { conn, launches, timers, gaveUp } = harness(httpDef());
    launches.next('http401');
    await conn.start();
    assert.deepEqual(
      launches.launches.map((l) => l.kind),
      ['http'],
    );
    assert.ok(conn.state.kind === 'error' && conn.state.gaveUp, 'no restart loop against a server that wants a signed-in user');
    assert.match(conn.state.kind === 'error' ? conn.state.reason : '', /requires sign-in/);
    assert.deepEqual(timers.waiting, []);
    // No sign-in told the user anything: the give-up notice does, once.
    assert.equal(gaveUp.length, 1);
    assert.match(gaveUp[0] ?? '', /requires sign-in/);
    conn.dispose();
  });

  void it('a 401 starts sign-in and, signed in, the server is launched again with the same OAuth client', async () => {
    const launches = new FakeLaunches();
    const signIns: string[] = [];
    const provider = { marker: 'oauth' } as unknown as OAuthClientProvider;
    const conn = new Connection(httpDef(), {
      log: new MemoryLog(),
      clientInfo: { name: 'test-host', version: '0.0.0' },
      sink: new RecordingSink(),
      sampler: new RecordingSampler(),
      onGaveUp: () => undefined,
      createTransport: launches.create,
      setTimer: new ManualTimers().set,
      signIn: {
        providerFor: () => Promise.resolve(provider),
        signIn: (def) => {
          signIns.push(def.name);
          return Promise.resolve();
        },
        refused: () => undefined,
        endedInAuthFlow: () => false,
      },
    });
    launches.next('http401', 'serve');
    await conn.start();
    assert.deepEqual(signIns, ['remote']);
    assert.deepEqual(
      launches.launches.map((l) => l.kind),
      ['http', 'http'],
      'no SSE attempt',
    );
    assert.deepEqual(launches.auth, [provider, provider]);
    assert.equal(conn.state.kind, 'running');
    conn.dispose();
  });

  void it('a sign-in turned down, or a server still answering 401 after it, ends the attempt without a retry loop', async () => {
    for (const [plan, outcome, reason] of [
      [['http401'], 'declined', /sign-in was declined/],
      [['http401', 'http401'], 'ok', /still answers 401 after sign-in/],
    ] as const) {
      const launches = new FakeLaunches();
      const timers = new ManualTimers();
      let asked = 0;
      const refused: string[] = [];
      const conn = new Connection(httpDef(), {
        log: new MemoryLog(),
        clientInfo: { name: 'test-host', version: '0.0.0' },
        sink: new RecordingSink(),
        sampler: new RecordingSampler(),
        onGaveUp: () => undefined,
        createTransport: launches.create,
        setTimer: timers.set,
        signIn: {
          providerFor: () => Promise.resolve({} as OAuthClientProvider),
          signIn: () => {
            asked++;
            return outcome === 'ok' ? Promise.resolve() : Promise.reject(new Error('sign-in was declined'));
          },
          refused: (def, why) => refused.push(`${def.name}: ${why}`),
          endedInAuthFlow: () => false,
        },
      });
      launches.next(...plan);
      await conn.start();
      assert.equal(asked, 1, 'the user is asked once');
      assert.ok(conn.state.kind === 'error' && conn.state.gaveUp);
      assert.match(conn.state.kind === 'error' ? conn.state.reason : '', reason);
      // A declined sign-in is the user's own choice; a 401 loop is told, naming the server.
      assert.equal(refused.length, outcome === 'ok' ? 1 : 0);
      assert.deepEqual(timers.waiting, [], 'no timer asks again');
      conn.dispose();
    }
  });

  void it('a 500 is no reason to try SSE: error state naming the status, one launch', async () => {
    const { conn, launches, timers } = harness(httpDef());
    launches.next('http500');
    await conn.start();
    assert.deepEqual(
      launches.launches.map((l) => l.kind),
      ['http'],
    );
    assert.match(conn.state.kind === 'error' ? conn.state.reason : '', /HTTP 500/);
    assert.deepEqual(timers.waiting, [10]);
    conn.dispose();
  });

  void it('liveness probe: after a transport error the server does not answer, so the session ends and the restart policy applies', async () => {
    const { conn, launches, timers, sink } = harness(httpDef());
    await conn.start();
    const first = launches.last;
    const lost = stateWhere(conn, failed);
    first.link?.sever();
    const state = await lost;
    assert.match(state.kind === 'error' ? state.reason : '', /connection was lost \(fetch failed\)/);
    assert.ok(sink.gone.includes('remote'), 'open prompts of the server are closed');
    assert.equal(conn.isRunning, false);
    timers.fire(10);
    await stateWhere(conn, running);
    assert.equal(launches.launches.length, 2);
    assert.equal(launches.last.kind, 'http');
    conn.dispose();
  });

  void it('liveness probe: a transport error with the server still answering changes nothing', async () => {
    const { conn, launches, timers } = harness(httpDef());
    await conn.start();
    const link = launches.last.link;
    assert.ok(link);
    // The ping's answer is the next message the client receives; the probe settles right after.
    const answered = new Promise<void>((resolve) => {
      const deliver = link.onmessage;
      link.onmessage = (m, extra) => {
        deliver?.(m, extra);
        if ('result' in m) resolve();
      };
    });
    link.onerror?.(new Error('SSE stream disconnected'));
    await answered;
    await new Promise(setImmediate);
    assert.equal(conn.state.kind, 'running');
    assert.equal(launches.launches.length, 1);
    assert.deepEqual(timers.waiting, [STABLE_AFTER_MS]);
    conn.dispose();
  });

  void it('a crash mid-call: the call fails with the closed connection, prompts close, the server comes back and answers', async () => {
    const { conn, launches, timers, sink } = harness(stdioDef('crashy'));
    await conn.start();
    const first = launches.last;
    const heldCall = conn.sendLeg('tools/call', { name: 'hold', arguments: {} }, {}, 'hold');
    const outcome = heldCall.then(
      () => 'answered',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    await first.held;
    const lost = stateWhere(conn, failed);
    await first.crash();
    assert.match(await outcome, /connection closed/i, 'the call in flight fails, not left waiting');
    const state = await lost;
    assert.match(state.kind === 'error' ? state.reason : '', /exited unexpectedly; restarting in 0\.0 s/);
    assert.ok(sink.gone.includes('crashy'));
    timers.fire(10);
    await stateWhere(conn, running);
    assert.notEqual(conn.pid, first.pid, 'a new launch');
    assert.equal(textOf(await conn.sendLeg('tools/call', { name: 'echo', arguments: { text: 'back' } }, {}, 'echo')), 'back');
    conn.dispose();
  });

  void it('a late callback from an old session does nothing: stop during initialize leaves it stopped', async () => {
    // The SDK's version probe of the stopped launch times out later, after the test has checked.
    const { conn, launches, timers } = harness(stdioDef(), [10], 200);
    launches.next('silent');
    const states = recordStates(conn);
    const starting = conn.start();
    await stateWhere(conn, (s) => s.kind === 'starting');
    await conn.stop();
    // Start returns at once; the first launch's initialize fails later: nobody may act on it.
    await starting;
    assert.equal(conn.state.kind, 'stopped');
    assert.deepEqual(states, ['starting 1', 'stopped']);
    assert.deepEqual(timers.waiting, [], 'no restart scheduled');
    conn.dispose();
  });

  void it('a late callback from an old session does nothing: a probe that fails after a restart does not end the new session', async () => {
    const { conn, launches } = harness(httpDef());
    await conn.start();
    const first = launches.last;
    assert.ok(first.link);
    // The stream stalls: the probe's ping waits for an answer that never comes.
    first.link.stalled = true;
    first.link.onerror?.(new Error('SSE stream disconnected'));
    const states = recordStates(conn);
    // The user restarts meanwhile: closing the old client fails that ping.
    await conn.restart();
    await new Promise(setImmediate);
    assert.deepEqual(states, ['stopped', 'starting 1', 'running']);
    assert.equal(launches.launches.length, 2);
    assert.ok(conn.isRunning);
    assert.equal(textOf(await conn.sendLeg('tools/call', { name: 'echo', arguments: { text: 'new' } }, {}, 'echo')), 'new');
    conn.dispose();
  });

  void it('notifications and tool list changes of the current session reach the connection; stop aborts calls waiting between legs', async () => {
    const { conn } = harness();
    await conn.start();
    const heard: string[] = [];
    conn.onDidNotify((n) => heard.push(n.method));
    const listed = stateWhere(conn, () => conn.tools.some((t) => t.name === 'late'));
    await conn.sendLeg('tools/call', { name: 'addTool', arguments: { name: 'late' } }, {}, 'addTool');
    await listed;
    assert.ok(heard.includes('notifications/tools/list_changed'));
    const signal = conn.callSignal;
    await conn.stop();
    assert.ok(signal.aborted, 'a call between legs sends no retry');
    assert.equal(conn.callSignal.aborted, false, 'the next call gets a fresh signal');
    conn.dispose();
  });
});
