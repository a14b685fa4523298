// Sampling in the real extension host, through the real `vscode.lm`: a test extension
// (test/fixtures/samplingModelExtension) registers two deterministic models only while a test asks
// for them, so "no model" is real too. The servers are the SDK fixtures: `fixture` pushes
// `sampling/createMessage` (2025-11-25), `sampling-modern` asks in an `input_required` round
// (2026-07-28). The user's part (the consent and the review) is answered through the presenter's
// interceptor; the e2e layer shows the same forms on screen.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { FormAnswer, FormPrompt } from '../../src/elicitation/presenter';
import { services, waitFor, waitForRunning, setPolicy } from './helpers';

const fixture = (name: string): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', name);
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

interface Received {
  readonly model: string;
  readonly messages: { readonly role: number; readonly text: string }[];
}
const received = async (): Promise<Received[]> =>
  (await vscode.commands.executeCommand<Received[]>('mcpTest.samplingModel.received')) ?? [];

async function run(server: string, tool: string, args: Record<string, unknown>): Promise<unknown> {
  const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', server, tool, args);
  return JSON.parse(r.content[0]?.text ?? 'null');
}
const sample = (params: Record<string, unknown>): Promise<unknown> => run('fixture', 'sample', { params });
const hi = (text: string): Record<string, unknown> => ({ messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 50 });

suite('Sampling: vscode.lm behind the consent (real host)', () => {
  let s: TestServices;
  let previousServers: unknown;
  let previousPolicy: unknown;
  let previousRate: unknown;
  let shown: string[];
  let watching: vscode.Disposable;

  suiteSetup(async function () {
    this.timeout(60_000);
    s = await services();
    previousServers = config().inspect('servers')?.workspaceValue;
    previousPolicy = config().inspect('serverPolicy')?.workspaceValue;
    previousRate = config().inspect('rateLimit')?.workspaceValue;
    await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    await config().update(
      'servers',
      {
        ...(previousServers as Record<string, unknown> | undefined),
        'sampling-modern': { command: 'node', args: [fixture('mrtrStdioServer.mjs'), 'sampling-modern', 'modern'] },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    await waitForRunning(s, 'fixture');
    await waitForRunning(s, 'fixture-http');
    await waitForRunning(s, 'sampling-modern');
  });
  suiteTeardown(async () => {
    await config().update('sampling.skipReview', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('mcpTest.samplingModel.unregister');
    await config().update('servers', previousServers, vscode.ConfigurationTarget.Workspace);
    await config().update('serverPolicy', previousPolicy, vscode.ConfigurationTarget.Workspace);
    await config().update('rateLimit', previousRate, vscode.ConfigurationTarget.Workspace);
  });
  setup(() => {
    shown = [];
    watching = s.hooks.onDidShowPrompt((p) => shown.push(p.kind));
  });
  teardown(async () => {
    watching.dispose();
    s.broker.queue.cancelAll();
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  /** Sets the user's own `sampling.skipReview` and waits until the extension host reads it. */
  async function skipReview(value: Record<string, boolean> | undefined): Promise<void> {
    await config().update('sampling.skipReview', value, vscode.ConfigurationTarget.Global);
    await waitFor(
      () => JSON.stringify(config().inspect('sampling.skipReview')?.globalValue) === JSON.stringify(value),
      'sampling.skipReview in force',
    );
  }

  /** Answers the forms in the user's place, in order; records what each showed. */
  function answering(...answers: ((p: FormPrompt) => FormAnswer)[]): { prompts: FormPrompt[]; done: vscode.Disposable } {
    const prompts: FormPrompt[] = [];
    const done = s.hooks.presenter.intercept('presentForm', () => (prompt) => {
      prompts.push(prompt);
      const next = answers.shift();
      return Promise.resolve(next ? next(prompt) : { action: 'cancel' });
    });
    return { prompts, done };
  }

  test('no model in VS Code: the server gets -32603 saying so; nothing is shown', async () => {
    // The test models are registered only by the command below: VS Code has none until then.
    assert.deepEqual(await vscode.lm.selectChatModels(), []);
    const r = (await sample(hi('anyone there?'))) as { error?: { code: number; message: string } };
    assert.equal(r.error?.code, -32603);
    assert.match(r.error?.message ?? '', /No language model is available in VS Code/);
    assert.deepEqual(shown, []);
    await vscode.commands.executeCommand('mcpTest.samplingModel.register');
    const models = await vscode.lm.selectChatModels({ vendor: 'mcp-test-sampling' });
    assert.equal(models.length, 2, 'the test models are registered from here on');
  });

  test('allow is no consent to sample; the user’s own skipReview is, and a hint never picks a model the user did not choose (issue 41)', async () => {
    // No model chosen for the server yet: the default (VS Code's first) is the only one it may get.
    await s.context.workspaceState.update('mcpElicitation.samplingModels', undefined);
    await setPolicy(s, { fixture: 'allow' });
    await received();
    const premium = { ...hi('Hello model'), modelPreferences: { hints: [{ name: 'mini' }], speedPriority: 1 } };
    const asked = answering(() => ({ action: 'decline' }));
    try {
      const r = (await sample(premium)) as { error?: { code: number } };
      assert.equal(r.error?.code, -1, 'declined in the consent');
      assert.equal(asked.prompts.length, 1, 'allow still shows the consent');
      assert.equal(asked.prompts[0]?.form.fields[0]?.default, 'sampling-large', 'preselected: the default, not the hinted model');
    } finally {
      asked.done.dispose();
    }
    assert.deepEqual(await received(), []);
    await skipReview({ fixture: true });
    try {
      const r = await sample(premium);
      assert.deepEqual(r, {
        role: 'assistant',
        content: { type: 'text', text: 'sampling-large heard: Hello model' },
        model: 'sampling-large',
        stopReason: 'endTurn',
      });
      assert.deepEqual(shown, []);
      assert.deepEqual(
        (await received()).map((x) => x.model),
        ['sampling-large'],
      );
    } finally {
      await skipReview(undefined);
    }
  });

  test('otherwise a consent: it names the server, shows the model and the messages; the edited request reaches the model and the reviewed reply goes back; the model is remembered', async () => {
    await setPolicy(s, {});
    await received();
    const { prompts, done } = answering(
      (p) => ({
        action: 'accept',
        content: { model: 'sampling-large', systemPrompt: String(p.form.fields[1]?.default), message1: 'Edited by the user' },
      }),
      (p) => ({ action: 'accept', content: { reply: `${String(p.form.fields[0]?.default)} (checked)` } }),
    );
    try {
      const r = (await sample({ ...hi('Server text'), systemPrompt: 'Be brief', modelPreferences: { hints: [{ name: 'mini' }] } })) as {
        content: { text: string };
        model: string;
      };
      assert.equal(r.model, 'sampling-large');
      assert.equal(r.content.text, 'sampling-large heard: Edited by the user (checked)');
      const [consent, review] = prompts;
      assert.equal(consent?.asker.name, 'fixture');
      // The hint names a model the user never chose for this server: the default stays preselected.
      assert.deepEqual(
        consent?.form.fields.map((f) => [f.key, f.default]),
        [
          ['model', 'sampling-large'],
          ['systemPrompt', 'Be brief'],
          ['message1', 'Server text'],
        ],
      );
      assert.match(String(consent?.message), /Sampling Large/);
      assert.equal(review?.form.fields[0]?.default, 'sampling-large heard: Edited by the user');
      const got = await received();
      assert.deepEqual(
        got.map((x) => [x.model, x.messages.map((m) => m.text)]),
        [['sampling-large', ['Be brief', 'Edited by the user']]],
      );
    } finally {
      done.dispose();
    }
    // The next consent for this server starts from the model the user accepted.
    const again = answering(() => ({ action: 'decline' }));
    try {
      const r = (await sample({ ...hi('Again'), modelPreferences: { hints: [{ name: 'mini' }] } })) as { error?: { code: number } };
      assert.equal(r.error?.code, -1, 'declined: the spec’s user-rejected code');
      assert.equal(again.prompts[0]?.form.fields[0]?.default, 'sampling-large');
    } finally {
      again.done.dispose();
    }
    assert.deepEqual(await received(), [], 'a declined consent sends nothing to the model');
    const last = s.broker.queue.history.list().at(-1);
    assert.deepEqual([last?.mode, last?.action, last?.asker.name], ['sampling', 'decline', 'fixture']);
  });

  test('block: -1, nothing shown, nothing reaches the model', async () => {
    await setPolicy(s, { fixture: 'block' });
    await received();
    const r = (await sample(hi('blocked?'))) as { error?: { code: number; message: string } };
    assert.equal(r.error?.code, -1);
    assert.deepEqual(shown, []);
    assert.deepEqual(await received(), []);
  });

  test('2026-07-28: a round that asks for a form and a sample gets both, the sample through the consent and the model', async () => {
    await setPolicy(s, {});
    await received();
    const { prompts, done } = answering(
      () => ({ action: 'accept', content: { name: 'Ann' } }),
      () => ({ action: 'accept', content: { model: 'sampling-large', message1: 'Round hello' } }),
      (p) => ({ action: 'accept', content: { reply: String(p.form.fields[0]?.default) } }),
    );
    try {
      const r = (await run('sampling-modern', 'needsSampling', { text: 'Round hello' })) as {
        name: { action: string; content: { name: string } };
        llm: { role: string; content: { type: string; text: string }; model: string };
      };
      assert.deepEqual(r.name, { action: 'accept', content: { name: 'Ann' } });
      assert.deepEqual(r.llm.content, { type: 'text', text: 'sampling-large heard: Round hello' });
      assert.equal(prompts[1]?.asker.position?.total, 2, 'the consent says it is one of the round’s two requests');
    } finally {
      done.dispose();
    }
    const last = s.broker.queue.history.list().at(-1);
    assert.deepEqual([last?.mode, last?.round?.key, last?.model], ['sampling', 'llm', 'sampling-large']);
  });

  test('bad input: -32602 with the reason, nothing shown, nothing sent', async function () {
    this.timeout(120_000);
    await skipReview({ fixture: true });
    await received();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...hi('x'), maxTokens: -1 }, /maxTokens: must be a positive integer/],
      [{ ...hi('x'), messages: [{ role: 'system', content: { type: 'text', text: 'x' } }] }, /unknown role "system"/],
      [{ ...hi('x'), messages: [{ role: 'user', content: { type: 'video', data: 'x' } }] }, /unknown content type "video"/],
      [
        { ...hi('x'), messages: Array.from({ length: 10_000 }, () => ({ role: 'user', content: { type: 'text', text: 'x' } })) },
        /10000 messages/,
      ],
      // 2 MB: over our limit, under the 10 MB line limit of the stdio transports (the SDK's, both
      // ends), which drop a longer line before any handler sees it.
      [
        { ...hi('x'), messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(2 * 1024 * 1024) } }] },
        /more than 1000000 characters/,
      ],
      [{ ...hi('x'), tools: [{ name: 't', inputSchema: { type: 'object' } }] }, /tools: this client does not declare sampling\.tools/],
    ];
    for (const [params, reason] of cases) {
      const r = (await sample(params)) as { error?: { code: number; message: string } };
      assert.equal(r.error?.code, -32602, String(reason));
      assert.match(r.error?.message ?? '', reason);
    }
    assert.deepEqual(shown, []);
    assert.deepEqual(await received(), []);
    // 10 MB over Streamable HTTP, where no line limit stands in front of our check.
    const big = (await run('fixture-http', 'sample', { params: hi('x'), pad: 10 * 1024 * 1024 })) as {
      error?: { code: number; message: string };
    };
    assert.equal(big.error?.code, -32602, 'fixture-http: 10 MB');
    assert.match(big.error?.message ?? '', /more than 1000000 characters/);
    assert.deepEqual(shown, []);
    assert.deepEqual(await received(), []);
    // And nothing else broke: the next good request is answered.
    const ok = (await sample(hi('still here'))) as { content: { text: string } };
    assert.match(ok.content.text, /heard: still here/);
    await skipReview(undefined);
  });
});
