/**
 * Sampling: the request check, the model choice, and the broker's path from a server's request to
 * the model and back, over a real SDK server and session where the wire matters. The model is a
 * scripted fake of `vscode.lm`; the user is the FakePresenter.
 */
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { checkSamplingRequest, MAX_MESSAGES } from '../../src/sampling/samplingRequest';
import { chooseModel, usableModels, type ModelInfo } from '../../src/sampling/modelChoice';
import { ModelAccessError, SamplingBroker, type ModelAccess, type ModelFailure } from '../../src/sampling/samplingBroker';
import type { ModelPreferences, SamplingRequest } from '../../src/sampling/samplingRequest';
import type { SamplingWording } from '../../src/sampling/consentForm';
import { ElicitationQueue } from '../../src/elicitation/queue/elicitationQueue';
import { Gatekeeper } from '../../src/elicitation/policy/policy';
import { RateLimiter } from '../../src/elicitation/policy/tokenBucket';
import type { FinishedElicitation } from '../../src/elicitation/outcome';
import { Session } from '../../src/servers/session';
import { FakePresenter } from './support/fakePresenter';
import { FakeLaunches, MemoryLog, RecordingSink, stdioDef } from './support/fakeLaunches';
import { askerFor } from '../../src/elicitation/asker';

const text = (t: string): { role: 'user'; content: { type: 'text'; text: string } } => ({
  role: 'user',
  content: { type: 'text', text: t },
});
const ok = { messages: [text('Hi')], maxTokens: 100 };

function reason(raw: unknown): string {
  const r = checkSamplingRequest(raw);
  assert.equal(r.ok, false, 'expected a refusal');
  return r.ok ? '' : r.reason;
}

void describe('sampling request check', () => {
  void it('a plain request passes, content normalised to an array', () => {
    const r = checkSamplingRequest({ ...ok, systemPrompt: 'Be brief', temperature: 0.2, stopSequences: ['.'] });
    assert.ok(r.ok);
    assert.deepEqual(r.request.messages[0]?.content, [{ type: 'text', text: 'Hi' }]);
    assert.equal(r.request.systemPrompt, 'Be brief');
  });

  void it('refuses 10,000 messages and 10 MB of text, naming the limit', () => {
    assert.match(reason({ ...ok, messages: Array.from({ length: 10_000 }, () => text('x')) }), /10000 messages .*\(1000\)/);
    assert.match(reason({ ...ok, messages: [text('x'.repeat(10 * 1024 * 1024))] }), /more than 1000000 characters/);
    // The budget counts across messages and the system prompt, not per part.
    assert.match(reason({ ...ok, systemPrompt: 'y'.repeat(600_000), messages: [text('x'.repeat(600_000))] }), /characters/);
    assert.ok(checkSamplingRequest({ ...ok, messages: Array.from({ length: MAX_MESSAGES }, () => text('x')) }).ok);
  });

  void it('refuses an unknown role and an unknown content type, naming where', () => {
    assert.match(
      reason({ ...ok, messages: [{ role: 'system', content: { type: 'text', text: 'x' } }] }),
      /^messages\[0\]\.role: unknown role "system"/,
    );
    assert.match(
      reason({
        ...ok,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'a' },
              { type: 'video', data: 'x' },
            ],
          },
        ],
      }),
      /^messages\[0\]\.content\[1\]\.type: unknown content type "video"/,
    );
  });

  void it('refuses maxTokens of -1, 0, 1.5 and none', () => {
    for (const maxTokens of [-1, 0, 1.5, undefined, '10']) {
      assert.match(reason({ ...ok, maxTokens }), /^maxTokens: must be a positive integer/);
    }
  });

  void it('refuses tools, toolChoice and tool content (sampling.tools is not declared); ignores includeContext as the spec allows', () => {
    assert.match(
      reason({ ...ok, tools: [{ name: 't', inputSchema: { type: 'object' } }] }),
      /^tools: this client does not declare sampling\.tools/,
    );
    assert.match(reason({ ...ok, toolChoice: { mode: 'auto' } }), /^toolChoice:/);
    assert.match(
      reason({ ...ok, messages: [{ role: 'assistant', content: { type: 'tool_use', id: '1', name: 't', input: {} } }] }),
      /tool_use content needs sampling\.tools/,
    );
    const r = checkSamplingRequest({ ...ok, includeContext: 'allServers' });
    assert.ok(r.ok);
    assert.equal(r.request.ignoredContext, 'allServers');
    assert.match(reason({ ...ok, includeContext: 'everything' }), /^includeContext:/);
  });

  void it('model preferences: hints by name, priorities from 0 to 1', () => {
    const r = checkSamplingRequest({ ...ok, modelPreferences: { hints: [{ name: 'sonnet' }, {}, { name: ' ' }], speedPriority: 1 } });
    assert.ok(r.ok);
    assert.deepEqual(r.request.preferences.hints, ['sonnet']);
    assert.match(reason({ ...ok, modelPreferences: { costPriority: 2 } }), /^modelPreferences\.costPriority/);
  });
});

const MODELS: ModelInfo[] = [
  { id: 'big-1', name: 'Big One', family: 'big', vendor: 'v', maxInputTokens: 200_000 },
  { id: 'mini-2', name: 'Mini Two', family: 'mini', vendor: 'v', maxInputTokens: 16_000 },
  { id: 'mid-3', name: 'Claude Sonnet', family: 'claude', vendor: 'w', maxInputTokens: 64_000 },
];
const noPrefs: ModelPreferences = { hints: [], costPriority: undefined, speedPriority: undefined, intelligencePriority: undefined };

void describe('model choice', () => {
  void it('a server never chooses a model the user did not choose for it: hints and priorities pick among the user’s, else the default', () => {
    // The probe: a hint for the premium model, with no model chosen for the server yet.
    assert.equal(chooseModel(MODELS, [], { ...noPrefs, hints: ['sonnet'] })?.model.id, 'big-1', 'the default, not the hinted one');
    assert.equal(chooseModel(MODELS, [], { ...noPrefs, speedPriority: 0.9, intelligencePriority: 0.2 })?.model.id, 'big-1');
    assert.equal(chooseModel(MODELS, ['mini-2'], { ...noPrefs, hints: ['sonnet'] })?.model.id, 'mini-2', 'no escalation past the user’s');
    assert.equal(chooseModel(MODELS, ['gone', 'mini-2'], { ...noPrefs, intelligencePriority: 1 })?.model.id, 'mini-2');
    // Among the models the user chose for this server, the hint and the priorities count.
    assert.equal(chooseModel(MODELS, ['mini-2', 'mid-3'], { ...noPrefs, hints: ['gpt', 'SONNET'] })?.model.id, 'mid-3');
    assert.equal(chooseModel(MODELS, ['mid-3', 'mini-2'], { ...noPrefs, costPriority: 1 })?.model.id, 'mini-2');
    assert.deepEqual(chooseModel(MODELS, ['mid-3', 'mini-2'], noPrefs), { model: MODELS[2], reason: 'remembered' }, 'else the latest');
    assert.deepEqual(chooseModel(MODELS, [], noPrefs)?.reason, 'default');
    assert.equal(chooseModel([], [], noPrefs), undefined);
  });

  // What VS Code 1.139 lists once its chat extension is active: Copilot CLI's "Auto" comes first
  // and takes no input; it answered samples with an empty text.
  const AUTO: ModelInfo = { id: 'copilotcli', name: 'Auto', family: 'copilotcli', vendor: 'copilotcli', maxInputTokens: 0 };
  void it('a model with no input window never answers: not first, not the smallest, not remembered', () => {
    const withAuto = [AUTO, ...MODELS];
    assert.deepEqual(
      usableModels(withAuto).map((m) => m.id),
      ['big-1', 'mini-2', 'mid-3'],
    );
    assert.deepEqual(
      usableModels([
        { ...AUTO, maxInputTokens: Number.NaN },
        { ...AUTO, id: 'neg', maxInputTokens: -1 },
      ]),
      [],
    );
    const choose = (chosen: string[], prefs: ModelPreferences): string | undefined =>
      chooseModel(usableModels(withAuto), chosen, prefs)?.model.id;
    assert.equal(choose([], noPrefs), 'big-1', 'first usable, not Auto');
    assert.equal(
      choose(['big-1', 'mini-2'], { ...noPrefs, hints: ['unknown-model'], speedPriority: 1, intelligencePriority: 0 }),
      'mini-2',
    );
    assert.equal(choose(['copilotcli', 'mid-3'], noPrefs), 'mid-3', 'a remembered Auto gives way to the user’s next choice');
    assert.equal(chooseModel(usableModels([AUTO]), [], noPrefs), undefined, 'only Auto: no model');
  });
});

const wording: SamplingWording = {
  consent: (model) => `consent ${model}`,
  contextIgnored: () => 'context ignored',
  review: (model) => `review ${model}`,
  modelField: () => 'Model',
  systemPromptField: () => 'System prompt',
  messageField: (i, role) => `Message ${i} (${role})`,
  replyField: () => 'Reply',
};

class FakeModels implements ModelAccess {
  readonly sent: { model: string; request: SamplingRequest }[] = [];
  models: ModelInfo[] = MODELS;
  failure: ModelFailure | undefined;
  list(): Promise<readonly ModelInfo[]> {
    return Promise.resolve(this.models);
  }
  send(model: ModelInfo, request: SamplingRequest): Promise<{ text: string }> {
    if (this.failure) return Promise.reject(new ModelAccessError(this.failure, 'scripted'));
    this.sent.push({ model: model.id, request });
    const last = request.messages.at(-1)?.content[0];
    return Promise.resolve({ text: `${model.id} says: ${last?.type === 'text' ? last.text : ''}` });
  }
}

/** `userSkipReview`: the user (global) value of `sampling.skipReview`. */
function setup(serverPolicy: Record<string, string> = {}, presenter = new FakePresenter(), userSkipReview: unknown = undefined) {
  const queue = new ElicitationQueue(Date.now);
  const models = new FakeModels();
  const memory = new Map<string, string[]>();
  const failures: string[] = [];
  const finished: FinishedElicitation[] = [];
  queue.onDidFinish((f) => finished.push(f));
  const gate = new Gatekeeper({ serverPolicy, defaultPolicy: 'allow' }, new RateLimiter({ requests: 100, perSeconds: 60 }, Date.now));
  const broker = new SamplingBroker({
    presenter,
    queue,
    gate: (s) => gate.decide(s),
    userSkipReview: () => userSkipReview,
    models,
    memory: {
      chosen: (s) => memory.get(s) ?? [],
      choose: (s, id) => void memory.set(s, [id, ...(memory.get(s) ?? []).filter((x) => x !== id)]),
    },
    wording,
    notifyModelFailure: (s, f) => failures.push(`${s}: ${f}`),
    log: new MemoryLog(),
  });
  return { broker, presenter, queue, models, memory, failures, finished };
}

const server = askerFor('srv', undefined);
const extra = (): { signal: AbortSignal; requestId: number } => ({ signal: new AbortController().signal, requestId: 1 });

async function rejection(p: Promise<unknown>): Promise<{ code: number; message: string }> {
  return p.then(
    () => assert.fail('expected an error'),
    (e: unknown) => e as { code: number; message: string },
  );
}

void describe('sampling broker', () => {
  void it('ask and default policies: the consent shows the messages and the model; the edited request reaches the model; the reviewed reply goes back', async () => {
    const presenter = new FakePresenter({
      ask: () => 'answer',
      form: (p) =>
        p.form.fields.some((f) => f.key === 'reply')
          ? { action: 'accept', content: { reply: 'edited reply' } }
          : { action: 'accept', content: { model: 'mini-2', systemPrompt: 'sys', message1: 'Hi', message2: 'changed by the user' } },
    });
    const { broker, models, memory, finished, queue } = setup({ srv: 'ask' }, presenter);
    const result = await broker.handle(server, { ...ok, systemPrompt: 'sys', messages: [text('Hi'), text('original')] }, extra());
    assert.equal(presenter.asks.length, 1, 'ask policy: asked first');
    const consent = presenter.forms[0]?.prompt;
    assert.equal(consent?.asker.name, 'srv');
    assert.deepEqual(
      consent?.form.fields.map((f) => [f.key, f.title, f.default]),
      [
        ['model', 'Model', 'big-1'],
        ['systemPrompt', 'System prompt', 'sys'],
        ['message1', 'Message 1 (user)', 'Hi'],
        ['message2', 'Message 2 (user)', 'original'],
      ],
    );
    assert.match(String(consent?.message), /consent Big One/);
    assert.deepEqual(
      models.sent.map((s) => [s.model, s.request.messages[1]?.content]),
      [['mini-2', [{ type: 'text', text: 'changed by the user' }]]],
    );
    assert.equal(presenter.forms[1]?.prompt.form.fields[0]?.default, 'mini-2 says: changed by the user', 'the review shows the reply');
    assert.deepEqual(result, {
      role: 'assistant',
      content: { type: 'text', text: 'edited reply' },
      model: 'mini-2',
      stopReason: 'endTurn',
    });
    assert.deepEqual(memory.get('srv'), ['mini-2'], 'the choice is remembered for the server');
    assert.deepEqual(
      finished.map((f) => [f.mode, f.action, f.decidedBy, f.model]),
      [['sampling', 'accept', 'user', 'mini-2']],
    );
    assert.equal(queue.size, 0);
  });

  void it('without a policy of its own a server still needs the consent; declining it sends nothing to the model and answers -1', async () => {
    const presenter = new FakePresenter({ form: () => ({ action: 'decline' }) });
    const { broker, models, finished } = setup({}, presenter);
    const err = await rejection(broker.handle(server, ok, extra()));
    assert.equal(err.code, -1);
    assert.match(err.message, /User rejected sampling request/);
    assert.equal(models.sent.length, 0);
    assert.deepEqual(
      finished.map((f) => [f.action, f.decidedBy]),
      [['decline', 'user']],
    );
  });

  void it('a reply the user keeps back never reaches the server', async () => {
    const presenter = new FakePresenter({
      form: (p) =>
        p.form.fields[0]?.key === 'reply' ? { action: 'decline' } : { action: 'accept', content: { model: 'big-1', message1: 'Hi' } },
    });
    const { broker, models } = setup({}, presenter);
    assert.equal((await rejection(broker.handle(server, ok, extra()))).code, -1);
    assert.equal(models.sent.length, 1, 'the model ran, its reply stayed here');
  });

  void it('an elicitation policy of allow, from any scope, is no consent to sample: the consent and the review are still shown (issue 41)', async () => {
    const presenter = new FakePresenter({ form: () => ({ action: 'decline' }) });
    const { broker, models } = setup({ srv: 'allow' }, presenter);
    const err = await rejection(broker.handle(server, { ...ok, modelPreferences: { hints: [{ name: 'sonnet' }] } }, extra()));
    assert.equal(err.code, -1);
    assert.equal(presenter.forms.length, 1, 'the consent was shown');
    assert.equal(presenter.forms[0]?.prompt.form.fields[0]?.default, 'big-1', 'preselected: the default, not the hinted model');
    assert.equal(models.sent.length, 0, 'nothing reached a model');
  });

  void it('the user’s own skipReview sends straight to the model, the one the user chose: a premium hint does not escalate (issue 41)', async () => {
    const { broker, presenter, finished, queue, models, memory } = setup({}, new FakePresenter(), { srv: true, other: 'yes' });
    const premium = { ...ok, modelPreferences: { hints: [{ name: 'sonnet' }], intelligencePriority: 1 } };
    assert.equal((await broker.handle(server, premium, extra())).model, 'big-1', 'nothing chosen yet: the default');
    memory.set('srv', ['mini-2']);
    assert.equal((await broker.handle(server, premium, extra())).model, 'mini-2', 'the user’s choice for the server');
    assert.equal(presenter.forms.length + presenter.asks.length, 0);
    assert.deepEqual(
      models.sent.map((m) => m.model),
      ['big-1', 'mini-2'],
    );
    assert.deepEqual(
      finished.map((f) => [f.action, f.decidedBy]),
      [
        ['accept', 'policy'],
        ['accept', 'policy'],
      ],
    );
    assert.equal(queue.size, 0);
    // Only `true` counts, and only for the server it names.
    const other = setup({}, new FakePresenter({ form: () => ({ action: 'decline' }) }), { srv: true, other: 'yes' });
    await rejection(other.broker.handle(askerFor('other', undefined), ok, extra()));
    assert.equal(other.presenter.forms.length, 1);
  });

  void it('skipReview never passes a block or the rate limit', async () => {
    const { broker, models, presenter } = setup({ srv: 'block' }, new FakePresenter(), { srv: true });
    assert.equal((await rejection(broker.handle(server, ok, extra()))).code, -1);
    assert.equal(models.sent.length + presenter.forms.length, 0);
  });

  void it('VS Code\'s placeholder model (Copilot CLI "Auto", no input window) is never offered or used; alone, it counts as no model', async () => {
    const auto: ModelInfo = { id: 'copilotcli', name: 'Auto', family: 'copilotcli', vendor: 'copilotcli', maxInputTokens: 0 };
    const a = setup({}, new FakePresenter(), { srv: true });
    a.models.models = [auto, ...MODELS];
    a.memory.set('srv', ['copilotcli', 'big-1', 'mini-2']);
    const fast = await a.broker.handle(server, { ...ok, modelPreferences: { hints: [{ name: 'gpt-9' }], speedPriority: 1 } }, extra());
    assert.equal(fast.model, 'mini-2', 'the smallest model that answers, not Auto');
    assert.deepEqual(
      a.models.sent.map((s) => s.model),
      ['mini-2'],
    );

    const offered: string[][] = [];
    const modelsOffered = new FakePresenter({
      form: (p) => {
        const field = p.form.fields[0];
        offered.push(field?.kind === 'singleSelect' ? field.options.map((o) => o.value) : []);
        return { action: 'decline' };
      },
    });
    const b = setup({}, modelsOffered);
    b.models.models = [auto, ...MODELS];
    await rejection(b.broker.handle(server, ok, extra()));
    assert.deepEqual(offered, [['big-1', 'mini-2', 'mid-3']], 'the consent offers only models that answer');

    const c = setup({}, new FakePresenter(), { srv: true });
    c.models.models = [auto];
    assert.match((await rejection(c.broker.handle(server, ok, extra()))).message, /No language model is available/);
    assert.deepEqual(c.failures, ['srv: noModel']);
    assert.equal(c.models.sent.length, 0);
  });

  void it('block: declined unseen, the user told once by the presenter, nothing sent', async () => {
    const { broker, presenter, models, finished } = setup({ srv: 'block' });
    assert.equal((await rejection(broker.handle(server, ok, extra()))).code, -1);
    assert.deepEqual(presenter.notices, [{ kind: 'blocked', server: 'srv' }]);
    assert.equal(models.sent.length + presenter.forms.length, 0);
    assert.deepEqual(
      finished.map((f) => [f.action, f.decidedBy]),
      [['decline', 'policy']],
    );
  });

  void it('no model, or no permission: a clear error to the server and a notice to the user, nothing shown', async () => {
    const a = setup();
    a.models.models = [];
    const none = await rejection(a.broker.handle(server, ok, extra()));
    assert.equal(none.code, -32603);
    assert.match(none.message, /No language model is available/);
    assert.deepEqual(a.failures, ['srv: noModel']);
    assert.equal(a.presenter.forms.length, 0);

    const b = setup({}, new FakePresenter(), { srv: true });
    b.models.failure = 'noPermission';
    const denied = await rejection(b.broker.handle(server, ok, extra()));
    assert.match(denied.message, /not allowed this client to use the language model/);
    assert.deepEqual(b.failures, ['srv: noPermission']);
  });

  void it('bad input: -32602 with the reason; nothing shown, nothing sent, nothing listed', async () => {
    const { broker, presenter, models, finished } = setup();
    for (const bad of [
      { ...ok, maxTokens: -1 },
      { ...ok, messages: [{ role: 'robot', content: { type: 'text', text: 'x' } }] },
      { ...ok, messages: [{ role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }] },
    ]) {
      const err = await rejection(broker.handle(server, bad, extra()));
      assert.equal(err.code, -32602);
    }
    assert.equal(presenter.forms.length + models.sent.length + finished.length, 0);
  });

  void it('the server cancelling while the consent is open closes it and answers nothing to the model', async () => {
    const presenter = new FakePresenter();
    const { broker, models, finished } = setup({}, presenter);
    const cancel = new AbortController();
    const pending = rejection(broker.handle(server, ok, { signal: cancel.signal, requestId: 1 }));
    while (presenter.forms.length === 0) await new Promise((r) => setImmediate(r));
    cancel.abort();
    await pending;
    assert.equal(models.sent.length, 0);
    assert.deepEqual(
      finished.map((f) => [f.action, f.decidedBy]),
      [['cancel', 'serverCancel']],
    );
  });
});

void describe('sampling over a session (pushed, 2025-11-25)', () => {
  async function session(presenter: FakePresenter, userSkipReview: unknown = undefined) {
    const s = setup({}, presenter, userSkipReview);
    const launches = new FakeLaunches();
    const sess = new Session(launches.create(stdioDef('one'), { stderr: () => undefined, warn: () => undefined }), {
      name: 'one',
      clientInfo: { name: 'test-host', version: '0.0.0' },
      sink: new RecordingSink(),
      sampler: s.broker,
      log: new MemoryLog(),
      protocolVersion: undefined,
    });
    await sess.connect(5_000);
    return { ...s, sess };
  }
  const call = async (sess: Session, params: unknown): Promise<unknown> => {
    const r = (await sess.sendLeg('tools/call', { name: 'sample', arguments: { params } }, {}, 'sample')) as CallToolResult;
    const first = r.content[0];
    return JSON.parse(first?.type === 'text' ? first.text : 'null');
  };

  void it('the server sees the capability, gets the reply, and gets -32602 with the reason for bad input', async () => {
    const { sess, models } = await session(new FakePresenter(), { one: true });
    assert.deepEqual(await call(sess, ok), {
      role: 'assistant',
      content: { type: 'text', text: 'big-1 says: Hi' },
      model: 'big-1',
      stopReason: 'endTurn',
    });
    const bad = (await call(sess, { ...ok, maxTokens: -1 })) as { error: { code: number; message: string } };
    assert.equal(bad.error.code, -32602);
    assert.match(bad.error.message, /maxTokens: must be a positive integer/);
    const tools = (await call(sess, { ...ok, tools: [] })) as { error: { code: number; message: string } };
    assert.match(tools.error.message, /tools: this client does not declare sampling\.tools/);
    assert.equal(models.sent.length, 1);
    await sess.dispose();
  });
});
