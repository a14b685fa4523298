/**
 * Multi round-trip requests against real SDK v2 fixture servers over stdio, through the real broker
 * and queue; only the presenter (the user) is scripted. Assertions read what the server received.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { HostClient } from '../../src/servers/hostClient';
import { sendWithInputRounds, type MrtrMethod } from '../../src/servers/mrtr/inputRounds';
import { RoundLimitError, UndeclaredInputError, CallCancelledError } from '../../src/servers/mrtr/errors';
import { ElicitationBroker } from '../../src/elicitation/broker';
import type { FormAnswer, FormPrompt } from '../../src/elicitation/presenter';
import { FakePresenter, type Script } from './support/fakePresenter';
import { askerFor } from '../../src/elicitation/asker';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const dir = mkdtempSync(path.join(os.tmpdir(), 'mrtr-unit-'));

interface Received {
  readonly kind: string;
  readonly id: string | number;
  readonly method: string;
  readonly tool?: string;
  readonly tag?: string;
  readonly hasRequestState: boolean;
  readonly requestState?: string;
  readonly inputResponses?: Record<string, { action: string; content?: Record<string, unknown> }>;
  readonly protocolVersion?: string;
  readonly clientCapabilities?: { elicitation?: Record<string, unknown> };
}

function received(file: string, tag: string): Received[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Received)
    .filter((r) => r.kind === 'received' && r.tag === tag);
}

/**
 * The user: answers each form with the next of `answers` (cancel when none is left) and accepts
 * every url; the presenter records what was shown.
 */
function scriptedUser(answers: Script<FormPrompt, FormAnswer>[]): FakePresenter {
  return new FakePresenter({
    form: (p, signal) => (answers.shift() ?? (() => ({ action: 'cancel' })))(p, signal),
    url: () => ({ action: 'accept', browser: 'opened' }),
  });
}

const accept = (content: Record<string, string | number>) => (): Promise<FormAnswer> => Promise.resolve({ action: 'accept', content });

async function connect(script: string, args: string[], record: string): Promise<HostClient> {
  const client = new HostClient(
    { name: 'unit', version: '0' },
    { capabilities: { elicitation: { form: {}, url: {} } }, versionNegotiation: { mode: 'auto' }, inputRequired: { autoFulfill: false } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(FIXTURES, script), ...args],
      env: { ...getDefaultEnvironment(), FIXTURE_RECORD: record },
      stderr: 'ignore',
    }),
  );
  return client;
}

void describe('MRTR rounds against a modern-only SDK server', () => {
  const record = path.join(dir, 'modern.jsonl');
  let client: HostClient;
  const answers: Script<FormPrompt, FormAnswer>[] = [];
  let user: FakePresenter;
  let broker: ElicitationBroker;
  let sensitive: 'warn' | 'decline' = 'warn';

  before(async () => {
    client = await connect('mrtrStdioServer.mjs', ['modern', 'modern'], record);
    user = scriptedUser(answers);
    broker = new ElicitationBroker({
      presenter: user,
      gate: () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
      settings: () => ({ sensitiveFields: sensitive, allowHttpLoopback: false, urlExpiryMs: 60_000 }),
      log: { info: () => undefined, warn: () => undefined },
    });
  });
  after(async () => {
    await client.close();
  });

  function call(tool: string, args: Record<string, unknown>, signal?: AbortSignal, method: MrtrMethod = 'tools/call'): Promise<unknown> {
    return sendWithInputRounds(
      { name: tool, arguments: args },
      {
        method,
        label: tool,
        asker: () => askerFor('modern', client.getServerVersion()),
        broker: {
          handle: (s, p, e) => broker.handle(s, p, e),
          sample: () => Promise.reject(new Error('no sample expected')),
          waitForCompletion: (s, id) => broker.waitForCompletion(s, id),
          endBrowserStep: (s, id) => void broker.queue.complete(s, id),
        },
        send: (params, s) => client.callTool(params as { name: string }, { signal: s, allowInputRequired: true }),
        ...(signal ? { signal } : {}),
        maxRounds: 4,
        stateOnlyPauseMs: 10,
      },
    );
  }
  const text = (r: unknown): unknown => JSON.parse((r as { content: { text: string }[] }).content[0]!.text);

  void it('negotiated 2026-07-28', () => {
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
  });

  void it('echoes requestState byte for byte on a new request id, with the answer under its key', async () => {
    answers.push(accept({ name: 'Ada' }));
    const r = text(await call('form', { withState: true, tag: 'echo' }));
    assert.deepEqual(r, { action: 'accept', content: { name: 'Ada' }, requestState: 'st\u00e4te:echo:1 "q" \\ \n\u{1F512}  ' });
    const legs = received(record, 'echo');
    assert.equal(legs.length, 2);
    assert.notEqual(legs[0]!.id, legs[1]!.id);
    assert.equal(legs[0]!.hasRequestState, false);
    assert.equal(legs[0]!.inputResponses, undefined);
    assert.equal(legs[1]!.requestState, 'st\u00e4te:echo:1 "q" \\ \n\u{1F512}  ');
    assert.deepEqual(legs[1]!.inputResponses, { name: { action: 'accept', content: { name: 'Ada' } } });
    // Modern requests carry the revision and the client's capabilities on every leg.
    for (const leg of legs) {
      assert.equal(leg.protocolVersion, '2026-07-28');
      assert.deepEqual(leg.clientCapabilities?.elicitation, { form: {}, url: {} });
    }
  });

  void it('sends no requestState when none came', async () => {
    answers.push(accept({ name: 'Bo' }));
    await call('form', { tag: 'nostate' });
    const legs = received(record, 'nostate');
    assert.equal(legs.length, 2);
    assert.equal(legs[1]!.hasRequestState, false);
  });

  void it('answers several inputs of one round one after the other and sends them in one retry', async () => {
    answers.push(accept({ name: 'Cy' }), accept({ color: 'green' }));
    const before = user.forms.length;
    const r = text(await call('multi', { tag: 'multi' }));
    assert.deepEqual(r, { name: { action: 'accept', content: { name: 'Cy' } }, color: { action: 'accept', content: { color: 'green' } } });
    assert.deepEqual(
      user.forms.slice(before).map((f) => f.prompt.message),
      ['What is your name?', 'Pick a colour'],
    );
    assert.equal(received(record, 'multi').length, 2);
    // History (and so the audit log) says which call, round and request each answer belonged to.
    assert.deepEqual(
      broker.queue.history
        .list()
        .slice(-2)
        .map((h) => ({ ...h.round, callId: undefined })),
      [
        { call: 'multi', callId: undefined, round: 1, key: 'name', index: 1, total: 2 },
        { call: 'multi', callId: undefined, round: 1, key: 'color', index: 2, total: 2 },
      ],
    );
    const [a, b] = broker.queue.history.list().slice(-2);
    assert.equal(a?.round?.callId, b?.round?.callId, 'both requests of the round belong to one call');
  });

  void it('asks again until the answer satisfies the server', async () => {
    answers.push(accept({ n: 3 }), accept({ n: 12 }));
    const r = text(await call('untilValid', { tag: 'until' }));
    assert.deepEqual(r, { n: 12, rounds: 2 });
    const legs = received(record, 'until');
    assert.equal(legs.length, 3);
    assert.equal(new Set(legs.map((l) => l.id)).size, 3);
    assert.deepEqual(legs[2]!.inputResponses, { n: { action: 'accept', content: { n: 12 } } });
  });

  void it('stops a server that never stops asking at the round limit', async () => {
    await assert.rejects(
      call('forever', { tag: 'forever' }),
      (e: unknown) => e instanceof RoundLimitError && e.rounds === 4 && e.server === 'modern',
    );
    // The first leg and one retry per allowed round; nothing after the limit.
    assert.equal(received(record, 'forever').length, 5);
  });

  void it('keeps two parallel calls to one server apart', async () => {
    answers.push(accept({ name: 'First' }), accept({ name: 'Second' }));
    const [a, b] = await Promise.all([
      call('form', { withState: true, tag: 'par-a', holdMs: 50 }),
      call('form', { withState: true, tag: 'par-b' }),
    ]);
    const ra = text(a) as { requestState: string };
    const rb = text(b) as { requestState: string };
    assert.ok(ra.requestState.includes(':par-a:'));
    assert.ok(rb.requestState.includes(':par-b:'));
    for (const tag of ['par-a', 'par-b']) {
      const legs = received(record, tag);
      assert.equal(legs.length, 2);
      assert.ok(legs[1]!.requestState?.includes(`:${tag}:`), `${tag} got its own state`);
    }
  });

  void it('sends decline and cancel answers as given', async () => {
    answers.push(() => Promise.resolve({ action: 'decline' }));
    assert.deepEqual(text(await call('form', { tag: 'decline' })), { action: 'decline', requestState: null });
    answers.push(() => Promise.resolve({ action: 'cancel' }));
    assert.deepEqual(text(await call('form', { tag: 'cancel' })), { action: 'cancel', requestState: null });
    assert.deepEqual(received(record, 'cancel')[1]!.inputResponses, { name: { action: 'cancel' } });
  });

  void it('an aborted call closes its prompt and sends no retry', async () => {
    const ac = new AbortController();
    let shown!: () => void;
    const onScreen = new Promise<void>((r) => (shown = r));
    answers.push((_p, signal) => {
      shown();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
    });
    const pending = call('form', { tag: 'abort' }, ac.signal);
    await onScreen;
    ac.abort();
    await assert.rejects(pending, (e: unknown) => e instanceof CallCancelledError);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(received(record, 'abort').length, 1);
    assert.equal(broker.queue.list().length, 0);
  });

  void it('url mode: consent, then a retry; the server decides when the step is done', async () => {
    const before = user.urls.length;
    const r = text(await call('url', { url: 'https://example.com/sign-in', tag: 'url' }));
    assert.deepEqual(r, { done: true, rounds: 1 });
    assert.equal(user.urls.length - before, 1);
    assert.equal(user.urls.at(-1)!.prompt.url, 'https://example.com/sign-in');
    assert.deepEqual(received(record, 'url')[1]!.inputResponses, { login: { action: 'accept' } });
    assert.equal(broker.queue.list().length, 0, 'no browser step left in the pending list');
  });

  void it('a malformed input request gets a decline in its place; secret-like fields under "decline" too', async () => {
    sensitive = 'decline';
    answers.push(accept({ name: 'Di' }));
    try {
      const before = user.forms.length;
      const r = text(await call('secretAndForm', { tag: 'secret' }));
      assert.deepEqual(r, {
        token: { action: 'decline' },
        broken: { action: 'decline' },
        name: { action: 'accept', content: { name: 'Di' } },
      });
      assert.equal(user.forms.length - before, 1, 'only the harmless form was shown');
    } finally {
      sensitive = 'warn';
    }
  });

  void it('prompts/get and resources/read take the same rounds', async () => {
    const rounds = (
      method: MrtrMethod,
      params: Record<string, unknown>,
      send: (p: Record<string, unknown>, s: AbortSignal) => Promise<unknown>,
    ): Promise<unknown> =>
      sendWithInputRounds(params, {
        method,
        label: String(params['name'] ?? params['uri']),
        asker: () => askerFor('modern', undefined),
        broker: {
          handle: (sv, p, e) => broker.handle(sv, p, e),
          sample: () => Promise.reject(new Error('no sample expected')),
          waitForCompletion: (sv, id) => broker.waitForCompletion(sv, id),
          endBrowserStep: () => undefined,
        },
        send,
      });
    answers.push(accept({ name: 'Fay' }));
    const prompt = (await rounds('prompts/get', { name: 'greeting' }, (p, sig) =>
      client.getPrompt(p as { name: string }, { signal: sig, allowInputRequired: true }),
    )) as { messages: { content: { text: string } }[] };
    assert.equal(prompt.messages[0]?.content.text, 'Hello Fay');
    answers.push(accept({ word: 'open sesame' }));
    const resource = (await rounds('resources/read', { uri: 'mrtr://secret' }, (p, sig) =>
      client.readResource(p as { uri: string }, { signal: sig, allowInputRequired: true }),
    )) as { contents: { text: string }[] };
    assert.equal(resource.contents[0]?.text, 'opened with open sesame');
  });

  void it('-32021 from the server ends the call, nothing shown', async () => {
    const shownBefore = user.forms.length;
    await assert.rejects(call('needsSampling', { tag: 'caps' }), (e: unknown) => (e as { code?: unknown }).code === -32021);
    assert.equal(user.forms.length, shownBefore);
  });

  void it('an input kind we do not declare ends the call before anything is shown', async () => {
    const shownBefore = user.forms.length;
    const raw = await connect('rawModernServer.mjs', ['raw'], path.join(dir, 'raw.jsonl'));
    try {
      await assert.rejects(
        sendWithInputRounds(
          { name: 'roots' },
          {
            method: 'tools/call',
            label: 'roots',
            asker: () => askerFor('raw', undefined),
            broker: {
              handle: (s, p, e) => broker.handle(s, p, e),
              sample: () => Promise.reject(new Error('no sample expected')),
              waitForCompletion: (s, id) => broker.waitForCompletion(s, id),
              endBrowserStep: () => undefined,
            },
            send: (params, s) => raw.callTool(params as { name: string }, { signal: s, allowInputRequired: true }),
          },
        ),
        (e: unknown) => e instanceof UndeclaredInputError && e.method === 'roots/list' && e.key === 'where',
      );
    } finally {
      await raw.close();
    }
    assert.equal(user.forms.length, shownBefore);
  });

  void it('with roots offered, a round that asks for roots and a form gets both; only the form is shown', async () => {
    const shownBefore = user.forms.length;
    answers.push(accept({ name: 'Ada' }));
    const raw = await connect('rawModernServer.mjs', ['raw'], path.join(dir, 'raw-roots.jsonl'));
    try {
      const result = (await sendWithInputRounds(
        { name: 'roots' },
        {
          method: 'tools/call',
          label: 'roots',
          asker: () => askerFor('raw', undefined),
          broker: {
            handle: (s, p, e) => broker.handle(s, p, e),
            waitForCompletion: (s, id) => broker.waitForCompletion(s, id),
            sample: () => Promise.reject(new Error('no sample expected')),
            endBrowserStep: () => undefined,
          },
          roots: () => ({ roots: [{ uri: 'file:///work/a', name: 'a' }] }),
          send: (params, s) => raw.callTool(params as { name: string }, { signal: s, allowInputRequired: true }),
        },
      )) as { content: { text: string }[] };
      assert.deepEqual(JSON.parse(result.content[0]?.text ?? ''), {
        name: { name: 'Ada' },
        where: { roots: [{ uri: 'file:///work/a', name: 'a' }] },
      });
    } finally {
      await raw.close();
    }
    assert.equal(user.forms.length, shownBefore + 1);
  });
});

// Run for the SDK-pushed path too: the dual server under a 2025 client gets the same content.
void describe('the same form tool on a dual server, either revision', () => {
  for (const mode of ['auto', 'legacy'] as const) {
    void it(`content reaches the server identically (${mode})`, async () => {
      const record = path.join(dir, `dual-${mode}.jsonl`);
      const client = new HostClient(
        { name: 'unit', version: '0' },
        { capabilities: { elicitation: { form: {}, url: {} } }, versionNegotiation: { mode }, inputRequired: { autoFulfill: false } },
      );
      const user = scriptedUser([accept({ name: 'Eve' })]);
      const broker = new ElicitationBroker({
        presenter: user,
        gate: () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
        settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: false, urlExpiryMs: 60_000 }),
        log: { info: () => undefined, warn: () => undefined },
      });
      client.setElicitationHandler((req, ctx) =>
        broker.handle(askerFor('dual', undefined), req.params, { signal: ctx.mcpReq.signal, requestId: ctx.mcpReq.id }),
      );
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(FIXTURES, 'mrtrStdioServer.mjs'), 'dual', 'dual'],
          env: { ...getDefaultEnvironment(), FIXTURE_RECORD: record },
          stderr: 'ignore',
        }),
      );
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), mode === 'auto' ? '2026-07-28' : '2025-11-25');
        const r = await sendWithInputRounds(
          { name: 'form', arguments: { tag: mode } },
          {
            method: 'tools/call',
            label: 'form',
            asker: () => askerFor('dual', undefined),
            broker: {
              handle: (s, p, e) => broker.handle(s, p, e),
              sample: () => Promise.reject(new Error('no sample expected')),
              waitForCompletion: (s, id) => broker.waitForCompletion(s, id),
              endBrowserStep: () => undefined,
            },
            send: (params, s) => client.callTool(params as { name: string }, { signal: s, allowInputRequired: true }),
          },
        );
        assert.deepEqual(JSON.parse((r as { content: { text: string }[] }).content[0]!.text), {
          action: 'accept',
          content: { name: 'Eve' },
          requestState: null,
        });
      } finally {
        await client.close();
      }
    });
  }
});

void describe('the protocolVersion override', () => {
  void it('"2026-07-28" (pin) connects to a modern server and fails loudly against a 2025-only one', async () => {
    const pinned = (): HostClient =>
      new HostClient(
        { name: 'unit', version: '0' },
        { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
    const modern = pinned();
    await modern.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(FIXTURES, 'mrtrStdioServer.mjs'), 'pin', 'modern'],
        stderr: 'ignore',
      }),
    );
    assert.equal(modern.getNegotiatedProtocolVersion(), '2026-07-28');
    await modern.close();
    const old = pinned();
    await assert.rejects(
      old.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [path.join(FIXTURES, 'stdioServer.mjs'), 'pin-old'],
          stderr: 'ignore',
        }),
        { timeout: 10_000 },
      ),
    );
    await old.close();
  });
});
