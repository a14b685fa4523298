import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ElicitationBroker } from '../../src/elicitation/broker';
import { askerFor } from '../../src/elicitation/asker';
import { AnswerMemory, type StateLike } from '../../src/elicitation/memory/answerMemory';
import type { GateDecision } from '../../src/elicitation/policy/policy';
import type { FinishedElicitation } from '../../src/elicitation/outcome';
import type { FormAnswer } from '../../src/elicitation/presenter';
import { FakePresenter } from './support/fakePresenter';

// The broker's side of remembered answers (issue 26 item 3): what the server receives, what is
// shown, what is recorded. The in-host suite checks the same on the wire with the real UI.

const fixture = askerFor('fixture', undefined);
/** Where each server is now (issue 41): a test moves one by setting it. */
const where = new Map<string, string>();
const wire = (): { signal: AbortSignal; requestId: string } => ({ signal: new AbortController().signal, requestId: 'r' });
const confirm = (message: string): Record<string, unknown> => ({ message, requestedSchema: { type: 'object', properties: {} } });
const form = (message: string, properties: Record<string, unknown>): Record<string, unknown> => ({
  message,
  requestedSchema: { type: 'object', properties },
});

function state(): StateLike {
  const data = new Map<string, unknown>();
  return { get: (k) => data.get(k), update: (k, v) => (data.set(k, v), Promise.resolve()) };
}

function setup(
  answer: FormAnswer,
  gate: (server: string, count?: boolean) => GateDecision = () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
): { broker: ElicitationBroker; ui: FakePresenter; memory: AnswerMemory; finished: FinishedElicitation[] } {
  const ui = new FakePresenter({ form: () => answer });
  const memory = new AnswerMemory(
    state(),
    () => assert.fail('no warning'),
    (server) => where.get(server) ?? '["remote","https://fixture.example/mcp"]',
  );
  const broker = new ElicitationBroker({
    presenter: ui,
    gate,
    settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: false, urlExpiryMs: 60_000 }),
    log: { info: () => undefined, warn: () => undefined },
    memory,
  });
  const finished: FinishedElicitation[] = [];
  broker.queue.onDidFinish((f) => finished.push(f));
  return { broker, ui, memory, finished };
}

void describe('broker: answering from memory', () => {
  void it('the second identical question is answered with the same content, nothing shown, recorded as memory', async () => {
    const { broker, ui, finished } = setup({ action: 'accept', content: { env: 'staging' }, remember: 'session' });
    const q = form('Where to?', { env: { type: 'string', enum: ['staging', 'prod'] }, note: { type: 'string', default: 'n/a' } });
    const first = await broker.handle(fixture, q, wire());
    ui.answerForm = () => assert.fail('the second time nothing is shown');
    const second = await broker.handle(fixture, structuredClone(q), wire());
    // Defaults applied the first time are part of what the server got, and gets again.
    assert.deepEqual(first, { action: 'accept', content: { env: 'staging', note: 'n/a' } });
    assert.deepEqual(second, first);
    assert.equal(ui.forms.length, 1);
    assert.deepEqual(
      finished.map((f) => f.decidedBy),
      ['user', 'memory'],
    );
    assert.deepEqual(
      ui.notices.map((n) => n.kind),
      ['answeredFromMemory'],
    );
  });

  void it('offers remembering only where allowed: not for a secret-like field', async () => {
    const { broker, ui, memory } = setup({ action: 'accept', content: { password: 'hunter2' }, remember: 'workspace' });
    await broker.handle(fixture, form('Log in', { password: { type: 'string' } }), wire());
    assert.equal(ui.forms[0]?.prompt.canRemember, false);
    assert.equal(memory.size, 0, 'a remember choice for a secret form is ignored');
    await broker.handle(fixture, form('Log in', { password: { type: 'string' } }), wire());
    assert.equal(ui.forms.length, 2, 'asked again');
  });

  void it('the names people use and a one-field message make a form secret: masked, warned about, never remembered (issue 41)', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['Log in', { PassWord: { type: 'string' } }],
      ['Second factor', { mfa_code: { type: 'string' } }],
      ['Database', { connection_string: { type: 'string' } }],
      ['Anmelden', { Passwort: { type: 'string' } }],
      ['Enter the 6-digit code we texted you', { value: { type: 'string' } }],
    ];
    for (const [message, properties] of cases) {
      const key = Object.keys(properties)[0] ?? '';
      const { broker, ui, memory, finished } = setup({ action: 'accept', content: { [key]: 'x-1' }, remember: 'workspace' });
      await broker.handle(fixture, form(message, properties), wire());
      const prompt = ui.forms[0]?.prompt;
      assert.equal(prompt?.form.fields[0]?.secretLike, true, `${key}: masked`);
      assert.ok(
        prompt?.warnings.some((w) => w.code === 'secretField'),
        `${key}: the secret-field warning`,
      );
      assert.equal(prompt?.canRemember, false, `${key}: not offered`);
      assert.equal(memory.size, 0, `${key}: not remembered`);
      assert.deepEqual(finished[0]?.secretKeys, [key], `${key}: kept out of the audit and the log`);
    }
  });

  void it('collision attempts are asked again', async () => {
    const { broker, ui } = setup({ action: 'accept', content: {}, remember: 'session' });
    await broker.handle(fixture, confirm('Delete all files?'), wire());
    assert.equal(ui.forms[0]?.prompt.canRemember, true);
    await broker.handle(fixture, confirm('Delete  all files?'), wire());
    await broker.handle(fixture, form('Delete all files?', { really: { type: 'boolean', default: true } }), wire());
    await broker.handle(askerFor('other', undefined), confirm('Delete all files?'), wire());
    assert.equal(ui.forms.length, 4);
  });

  void it('a server whose definition now points elsewhere (another URL or command) is asked again (issue 41)', async () => {
    const { broker, ui, finished } = setup({ action: 'accept', content: {}, remember: 'workspace' });
    try {
      await broker.handle(fixture, confirm('Push to main?'), wire());
      where.set('fixture', '["remote","https://proxy.attacker.example/mcp"]');
      const moved = await broker.handle(fixture, confirm('Push to main?'), wire());
      assert.equal(ui.forms.length, 2, 'shown again');
      assert.deepEqual(
        finished.map((f) => f.decidedBy),
        ['user', 'user'],
      );
      assert.deepEqual(moved, { action: 'accept', content: {} });
    } finally {
      where.clear();
    }
  });

  void it('a block wins over memory; the rate limit never counts or refuses an answer from memory', async () => {
    let blocked = false;
    const charged: boolean[] = [];
    // A limit of one: the first prompt uses it up, so any further counted request would be refused.
    const gate = (_server: string, count = true): GateDecision => {
      if (blocked) return { outcome: 'decline', decidedBy: 'policy', policy: 'block' };
      if (count) charged.push(true);
      return charged.length > 1 && count
        ? { outcome: 'decline', decidedBy: 'rateLimit', policy: 'allow', firstInWindow: true, windowCount: 1, windowSeconds: 60 }
        : { outcome: 'show', decidedBy: 'user', policy: 'allow' };
    };
    const { broker, ui, finished } = setup({ action: 'accept', content: {}, remember: 'session' }, gate);
    await broker.handle(fixture, confirm('Proceed?'), wire());
    blocked = true;
    assert.deepEqual(await broker.handle(fixture, confirm('Proceed?'), wire()), { action: 'decline' });
    assert.equal(finished.at(-1)?.decidedBy, 'policy');
    blocked = false;
    for (let i = 0; i < 10; i++) {
      assert.deepEqual(await broker.handle(fixture, confirm('Proceed?'), wire()), { action: 'accept', content: {} });
    }
    assert.equal(finished.at(-1)?.decidedBy, 'memory');
    assert.equal(charged.length, 1, 'only the prompt the user saw was charged');
    assert.equal(ui.forms.length, 1);
    // A question memory cannot answer is still held to the limit.
    assert.deepEqual(await broker.handle(fixture, confirm('Something else?'), wire()), { action: 'decline' });
    assert.equal(finished.at(-1)?.decidedBy, 'rateLimit');
  });

  void it('without remember, or with decline, nothing is remembered', async () => {
    const { broker, ui, memory } = setup({ action: 'accept', content: {} });
    await broker.handle(fixture, confirm('Proceed?'), wire());
    ui.answerForm = () => ({ action: 'decline' });
    await broker.handle(fixture, confirm('Proceed?'), wire());
    assert.equal(memory.size, 0);
    assert.equal(ui.forms.length, 2);
  });

  void it('url mode is never offered to remember', async () => {
    const { broker, ui } = setup({ action: 'accept', content: {} });
    ui.answerUrl = () => ({ action: 'decline' });
    await broker.handle(fixture, { mode: 'url', message: 'Sign in', url: 'https://example.com/x', elicitationId: 'e1' }, wire());
    assert.equal(ui.urls.length, 1);
    assert.equal(ui.forms.length, 0);
  });
});
