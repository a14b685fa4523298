import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { RecalledNote } from '../../src/elicitation/presenter';
import { MEMORY_KEY } from '../../src/elicitation/memory/answerMemory';
import { STORE_VERSION } from '../../src/elicitation/memory/rememberedStore';
import { acceptQuickInput, elicitVia, nextPrompt, services, setPolicy, waitFor, waitForRunning, type ShownPrompt } from './helpers';

// Remembered answers (issue 26 item 3), against the real fixture server and the real QuickPick:
// what the server receives on the wire, what is shown, and what the audit says.

const confirm = { type: 'object', properties: {} };
const oneText = (key: string): Record<string, unknown> => ({ type: 'object', properties: { [key]: { type: 'string' } }, required: [key] });

suite('Remembered answers (in the real host)', () => {
  let s: TestServices;
  let originalPolicy: unknown;
  const notes: RecalledNote[] = [];
  let noting: vscode.Disposable | undefined;

  /** Every prompt shown while `run` runs. */
  async function promptsDuring<T>(run: () => Promise<T>): Promise<{ result: T; shown: ShownPrompt[] }> {
    const shown: ShownPrompt[] = [];
    const sub = s.hooks.onDidShowPrompt((e) => shown.push(e));
    try {
      return { result: await run(), shown };
    } finally {
      sub.dispose();
    }
  }

  /** Answers the confirmation on screen by picking the row whose label contains `row`. */
  async function pickRow(p: ShownPrompt, row: string): Promise<string[]> {
    const qp = p.widget as vscode.QuickPick<vscode.QuickPickItem>;
    const labels = qp.items.map((i) => i.label);
    const item = qp.items.find((i) => i.label.includes(row));
    assert.ok(item, `a row "${row}" in ${JSON.stringify(labels)}`);
    qp.activeItems = [item];
    await acceptQuickInput();
    return labels;
  }

  function auditOf(message: string): { decidedBy: string; action: string }[] {
    if (!existsSync(s.audit.file)) return [];
    return readFileSync(s.audit.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { message: string; decidedBy: string; action: string })
      .filter((l) => l.message === message)
      .map(({ decidedBy, action }) => ({ decidedBy, action }));
  }

  suiteSetup(async () => {
    s = await services();
    await waitForRunning(s, 'fixture');
    s.gatekeeper.allowMore('fixture');
    originalPolicy = vscode.workspace.getConfiguration('mcpElicitation').inspect('serverPolicy')?.workspaceValue;
    noting = s.hooks.presenter.intercept('notifyAnsweredFromMemory', (notify) => (note) => {
      notes.push(note);
      notify(note);
    });
  });

  suiteTeardown(async () => {
    noting?.dispose();
    s.gatekeeper.resetSession();
    await s.memory.forgetAll();
  });

  teardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
    await s.memory.forgetAll();
    notes.length = 0;
  });

  test('a confirmation answered with "remember for this session" is answered from memory the second time: same content, nothing shown, audit says memory', async () => {
    const params = { message: 'Run the migration on staging?', requestedSchema: confirm };
    const firstWire = elicitVia('fixture', params);
    const labels = await pickRow(await nextPrompt(s), 'Accept and remember for this session');
    // Accept stays the first answer, so Enter never remembers by accident.
    assert.match(labels[0] ?? '', /^\$\(check\) Accept$/);
    const first = await firstWire;
    assert.deepEqual(first.response, { action: 'accept', content: {} });

    const second = await promptsDuring(() => elicitVia('fixture', params));
    assert.deepEqual(second.shown, [], 'nothing is shown the second time');
    assert.deepEqual(second.result.response, first.response, 'the server receives exactly what it got from the user');
    assert.deepEqual(
      notes.map((n) => [n.asker.name, n.message]),
      [['fixture', 'Run the migration on staging?']],
    );
    assert.deepEqual(
      s.broker.queue.history
        .list()
        .filter((h) => h.message === params.message)
        .map((h) => h.decidedBy),
      ['user', 'memory'],
    );
    await s.audit.flush();
    assert.deepEqual(auditOf(params.message).slice(-2), [
      { decidedBy: 'user', action: 'accept' },
      { decidedBy: 'memory', action: 'accept' },
    ]);
    // Session memory never reaches the workspace state.
    assert.equal(s.context.workspaceState.get(MEMORY_KEY), undefined);
  });

  test('the tenth repetition of a remembered confirmation is answered from memory: one prompt in eleven asks, the same reply each time', async () => {
    const params = { message: 'Apply the formatter to the changed files?', requestedSchema: confirm };
    const firstWire = elicitVia('fixture', params);
    await pickRow(await nextPrompt(s), 'Accept and remember for this session');
    const first = await firstWire;
    const repeats = await promptsDuring(async () => {
      const replies: unknown[] = [];
      for (let i = 0; i < 10; i++) replies.push((await elicitVia('fixture', params)).response);
      return replies;
    });
    assert.deepEqual(repeats.shown, [], 'no prompt for any of the ten repetitions');
    assert.deepEqual(
      repeats.result,
      Array.from({ length: 10 }, () => first.response),
    );
    assert.equal(notes.length, 10, 'each one said so');
    assert.deepEqual(
      s.broker.queue.history
        .list()
        .filter((h) => h.message === params.message)
        .map((h) => h.decidedBy),
      ['user', ...Array.from({ length: 10 }, () => 'memory')],
    );
  });

  test('a form of several fields remembered from its review step: the server gets the same content again, defaults included', async () => {
    const config = vscode.workspace.getConfiguration('mcpElicitation');
    const before = config.inspect('presentation')?.workspaceValue;
    await config.update('presentation', 'quickInput', vscode.ConfigurationTarget.Workspace);
    const params = {
      message: 'Open a pull request?',
      requestedSchema: {
        type: 'object',
        properties: {
          branch: { type: 'string' },
          draft: { type: 'boolean', default: true },
          reviewers: { type: 'string', default: 'team' },
        },
        required: ['branch'],
      },
    };
    try {
      const firstWire = elicitVia('fixture', params);
      const box = (await nextPrompt(s)).widget as vscode.InputBox;
      box.value = 'feature/x';
      let shown = nextPrompt(s);
      await acceptQuickInput();
      // The remaining steps as shown, up to the review, accepted as pre-filled.
      let p = await shown;
      while (!/Review/.test(p.widget?.title ?? '')) {
        shown = nextPrompt(s);
        await acceptQuickInput();
        p = await shown;
      }
      await pickRow(p, 'Accept and remember in this workspace');
      const first = await firstWire;
      assert.deepEqual(first.response, { action: 'accept', content: { branch: 'feature/x', draft: true, reviewers: 'team' } });
      const again = await promptsDuring(() => elicitVia('fixture', params));
      assert.deepEqual(again.shown, []);
      assert.deepEqual(again.result.response, first.response, 'byte for byte what the user sent');
    } finally {
      await config.update('presentation', before, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('remembered answers are listed in the view; Forget on a row removes it, and the server asks again', async () => {
    const params = { message: 'Push the release tag?', requestedSchema: confirm };
    const wire = elicitVia('fixture', params);
    await pickRow(await nextPrompt(s), 'Accept and remember in this workspace');
    await wire;
    const rows = s.rememberedTree.getChildren();
    assert.equal(rows.length, 1);
    const [row] = rows;
    assert.ok(row);
    const item = s.rememberedTree.getTreeItem(row);
    assert.equal(item.label, 'Push the release tag?');
    assert.equal(item.description, 'fixture · this workspace');
    assert.equal(item.contextValue, 'rememberedAnswer');
    await vscode.commands.executeCommand('mcpElicitation.forgetRemembered', row);
    assert.deepEqual(s.rememberedTree.getChildren(), []);
    assert.equal(s.context.workspaceState.get(MEMORY_KEY), undefined, 'gone from the workspace state too');
    const again = elicitVia('fixture', params);
    const p = await nextPrompt(s);
    s.broker.queue.settle(p.id, 'decline');
    assert.deepEqual((await again).response, { action: 'decline' });
    assert.deepEqual(notes, []);
  });

  test('a one-field question offers remembering in its title bar; answered without it, it is asked again', async () => {
    const params = { message: 'Which branch?', requestedSchema: oneText('branch') };
    const firstWire = elicitVia('fixture', params);
    const box = (await nextPrompt(s)).widget as vscode.InputBox;
    assert.ok(
      box.buttons.some((b) => /^Remember this answer/.test(b.tooltip ?? '')),
      'a remember button in the title bar',
    );
    box.value = 'main';
    await acceptQuickInput();
    assert.deepEqual((await firstWire).response, { action: 'accept', content: { branch: 'main' } });
    const secondWire = elicitVia('fixture', params);
    const again = await nextPrompt(s);
    s.broker.queue.settle(again.id, 'decline');
    assert.deepEqual((await secondWire).response, { action: 'decline' });
    assert.equal(s.memory.size, 0);
  });

  test('a policy block wins over a remembered answer', async () => {
    const params = { message: 'Proceed with the cleanup?', requestedSchema: confirm };
    const wire = elicitVia('fixture', params);
    await pickRow(await nextPrompt(s), 'Accept and remember in this workspace');
    await wire;
    const stored = s.context.workspaceState.get<{ version: number; answers: unknown[] }>(MEMORY_KEY);
    assert.equal(stored?.version, STORE_VERSION);
    assert.equal(stored?.answers.length, 1);
    try {
      await setPolicy(s, { fixture: 'block' });
      const blocked = await promptsDuring(() => elicitVia('fixture', params));
      assert.deepEqual(blocked.result.response, { action: 'decline' });
      assert.deepEqual(blocked.shown, []);
      assert.deepEqual(notes, [], 'not answered from memory');
    } finally {
      await vscode.workspace
        .getConfiguration('mcpElicitation')
        .update('serverPolicy', originalPolicy, vscode.ConfigurationTarget.Workspace);
      await waitFor(() => s.gatekeeper.policyFor('fixture') === 'allow', 'fixture allowed again');
    }
    const again = await promptsDuring(() => elicitVia('fixture', params));
    assert.deepEqual(again.result.response, { action: 'accept', content: {} });
    assert.deepEqual(again.shown, [], 'unblocked, the remembered answer applies again');
  });

  test('collision attempts are asked again: the same message with another schema, the same schema with other whitespace', async () => {
    const params = { message: 'Delete the old logs?', requestedSchema: confirm };
    const wire = elicitVia('fixture', params);
    await pickRow(await nextPrompt(s), 'Accept and remember for this session');
    await wire;
    for (const variant of [
      { message: 'Delete the old logs?', requestedSchema: { type: 'object', properties: { keep: { type: 'boolean', default: false } } } },
      { message: 'Delete the old  logs?', requestedSchema: confirm },
      { message: 'Delete the old logs? ', requestedSchema: confirm },
    ]) {
      const w = elicitVia('fixture', variant);
      const p = await nextPrompt(s);
      // Shown (nextPrompt resolved), not answered from memory.
      s.broker.queue.settle(p.id, 'decline');
      assert.deepEqual((await w).response, { action: 'decline' });
    }
    assert.deepEqual(notes, []);
  });

  test('a form with a secret-like field is never remembered, even if a remember choice arrives', async () => {
    const params = { message: 'Your API key?', requestedSchema: oneText('apiKey') };
    const offered: boolean[] = [];
    const answering = s.hooks.presenter.intercept('presentForm', () => (prompt) => {
      offered.push(prompt.canRemember === true);
      return Promise.resolve({ action: 'accept', content: { apiKey: 'k-123' }, remember: 'workspace' });
    });
    try {
      await elicitVia('fixture', params);
      await elicitVia('fixture', params);
    } finally {
      answering.dispose();
    }
    assert.deepEqual(offered, [false, false], 'not offered, and asked both times');
    assert.equal(s.memory.size, 0);
  });
});
