import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { vscodeIcons } from '../unit/support/linkPatterns';
import { STRAY_ACCEPT_MS } from '../../src/ui/quickInput/strayAccept';
import { acceptQuickInput, messageText, elicitVia, nextPrompt, services, waitFor, waitForRunning } from './helpers';

/** The stray-accept guard in these tests, ms: as in the extension (quickInput/strayAccept.ts). */
const STRAY_MS = STRAY_ACCEPT_MS;

const schema = (properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> => ({
  type: 'object',
  properties,
  required,
});

suite('Form mode on native widgets (answers checked on the wire)', () => {
  let s: TestServices;
  suiteSetup(async () => {
    s = await services();
    await waitForRunning(s, 'fixture');
    // More requests than the default rate limit lets through in a minute: "Allow More", for this suite.
    s.gatekeeper.allowMore('fixture');
  });
  suiteTeardown(() => s.gatekeeper.resetSession());
  // A failed test must not leave its prompt open in front of the next one.
  teardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  test('single text field: InputBox with attribution, typed value accepted', async () => {
    const wire = elicitVia('fixture', {
      message: 'What is your name?',
      requestedSchema: schema({ name: { type: 'string', title: 'Name', minLength: 2 } }, ['name']),
    });
    const p = await nextPrompt(s);
    assert.equal(p.kind, 'inputBox');
    const box = p.widget as vscode.InputBox;
    assert.match(box.title ?? '', /fixture/);
    assert.match(box.prompt ?? '', /What is your name\?/);
    // Setting .value from code fires no change event; Enter runs the same validator.
    box.value = 'A';
    await acceptQuickInput();
    await waitFor(() => messageText(box.validationMessage) !== '', 'too-short validation message');
    assert.equal(s.broker.queue.size, 1, 'an invalid value is not sent');
    box.value = 'Ada';
    await acceptQuickInput();
    const r = await wire;
    assert.deepEqual(r.response, { action: 'accept', content: { name: 'Ada' } });
  });

  test('number with bounds: out-of-range refused, then a valid number sent as a number', async () => {
    const wire = elicitVia('fixture', {
      message: 'How many?',
      requestedSchema: schema({ n: { type: 'integer', minimum: 1, maximum: 10 } }, ['n']),
    });
    const box = (await nextPrompt(s)).widget as vscode.InputBox;
    box.value = '42';
    await acceptQuickInput();
    await waitFor(() => /10/.test(messageText(box.validationMessage)), 'range message');
    // Still open: an invalid value is never sent.
    assert.equal(s.broker.queue.size, 1);
    box.value = '7';
    await acceptQuickInput();
    assert.deepEqual((await wire).response, { action: 'accept', content: { n: 7 } });
  });

  test('boolean: QuickPick Yes/No with default preselected', async () => {
    const wire = elicitVia('fixture', {
      message: 'Proceed?',
      requestedSchema: schema({ ok: { type: 'boolean', default: false } }, ['ok']),
    });
    const p = await nextPrompt(s);
    const qp = p.widget as vscode.QuickPick<vscode.QuickPickItem>;
    assert.equal(p.kind, 'quickPick');
    await waitFor(() => qp.activeItems.length > 0, 'active item');
    assert.equal(qp.activeItems[0]?.label, 'No');
    qp.activeItems = [qp.items.find((i) => i.label === 'Yes')!];
    await acceptQuickInput();
    assert.deepEqual((await wire).response, { action: 'accept', content: { ok: true } });
  });

  test('titled enum: titles as labels, the const value on the wire', async () => {
    const wire = elicitVia('fixture', {
      message: 'Pick a region',
      requestedSchema: schema(
        {
          region: {
            type: 'string',
            oneOf: [
              { const: 'eu-west-1', title: 'Europe (Ireland)' },
              { const: 'us-east-1', title: 'US East' },
            ],
          },
        },
        ['region'],
      ),
    });
    const qp = (await nextPrompt(s)).widget as vscode.QuickPick<vscode.QuickPickItem>;
    const item = qp.items.find((i) => i.label === 'US East');
    assert.ok(item, 'title shown as label');
    assert.equal(item.detail, 'us-east-1');
    qp.activeItems = [item];
    await acceptQuickInput();
    assert.deepEqual((await wire).response, { action: 'accept', content: { region: 'us-east-1' } });
  });

  test('server text cannot draw icons in a QuickPick ($(…) is broken, and still reads as written)', async () => {
    const wire = elicitVia('fixture', {
      message: 'Pick one',
      requestedSchema: schema(
        {
          c: {
            type: 'string',
            oneOf: [
              { const: 'x', title: '$(check) Accept and send' },
              { const: 'y', title: 'Plain' },
            ],
          },
        },
        ['c'],
      ),
    });
    const qp = (await nextPrompt(s)).widget as vscode.QuickPick<vscode.QuickPickItem>;
    const labels = qp.items.map((i) => i.label);
    const label = labels.find((l) => l.replace(/\u200b/g, '') === '$(check) Accept and send');
    assert.ok(label, `the label reads as written in ${JSON.stringify(labels)}`);
    assert.deepEqual(vscodeIcons(label), [], 'VS Code draws no icon for it');
    qp.activeItems = qp.items.filter((i) => i.label === 'Plain');
    await acceptQuickInput();
    assert.deepEqual((await wire).response, { action: 'accept', content: { c: 'y' } });
  });

  test('server text cannot draw icons in an InputBox prompt either (VS Code draws $(…) there too)', async () => {
    const wire = elicitVia('fixture', {
      message: '$(verified-filled) Verified by VS Code',
      requestedSchema: schema({ token: { type: 'string', title: '$(lock) Token', description: '$(shield) stays on this machine' } }),
    });
    const box = (await nextPrompt(s)).widget as vscode.InputBox;
    const prompt = box.prompt ?? '';
    assert.match(prompt.replace(/\u200b/g, ''), /\$\(verified-filled\) Verified by VS Code.*\$\(lock\) Token: \$\(shield\) stays/);
    assert.deepEqual(vscodeIcons(prompt), [], `no icon drawn in ${JSON.stringify(prompt)}`);
    s.broker.queue.cancelAll();
    assert.equal((await wire).response?.action, 'cancel');
  });

  test('the review shows what will be sent as text: a default with a bidi override is marked, not reordered, and draws no icon', async () => {
    // U+202E would show "\u202e001 USD" as "DSU 100": the review, where the user confirms what is
    // sent, would read differently from the value on the wire. Two fields: native on request.
    const config = vscode.workspace.getConfiguration('mcpElicitation');
    const before = config.inspect('presentation')?.workspaceValue;
    await config.update('presentation', 'quickInput', vscode.ConfigurationTarget.Workspace);
    try {
      await reviewRows();
    } finally {
      await config.update('presentation', before, vscode.ConfigurationTarget.Workspace);
    }
  });

  async function reviewRows(): Promise<void> {
    const wire = elicitVia('fixture', {
      message: 'Confirm the transfer',
      requestedSchema: schema({
        amount: { type: 'string', title: 'Amount', default: '\u202e001 USD' },
        note: { type: 'string', title: 'Note', default: '$(verified-filled) approved' },
      }),
    });
    // The box must hold the exact value; its prompt says what the value is.
    const amount = (await nextPrompt(s)).widget as vscode.InputBox;
    assert.equal(amount.value, '\u202e001 USD', 'the box holds the value as sent');
    assert.ok(amount.prompt?.includes('⟨U+202E⟩001 USD'), `the prompt shows the hidden character: ${amount.prompt ?? ''}`);
    const second = nextPrompt(s);
    await acceptQuickInput();
    const note = (await second).widget as vscode.InputBox;
    // The form's warnings are on every step; the note's own value, without such characters, is not flagged.
    assert.ok(note.prompt?.includes('“Amount”: the suggested value'), note.prompt ?? '');
    assert.ok(!note.prompt?.includes('“Note”: the suggested value'), note.prompt ?? '');
    const review = nextPrompt(s);
    await acceptQuickInput();
    const qp = (await review).widget as vscode.QuickPick<vscode.QuickPickItem>;
    const row = (title: string): string => qp.items.find((i) => i.label === title)?.description ?? '';
    assert.equal(row('Amount'), '⟨U+202E⟩001 USD');
    assert.equal(row('Note').replace(/\u200b/g, ''), '$(verified-filled) approved');
    assert.deepEqual(vscodeIcons(row('Note')), []);
    s.broker.queue.cancelAll();
    assert.equal((await wire).response?.action, 'cancel');
  }

  test('multi-select: defaults picked, string[] on the wire', async () => {
    const wire = elicitVia('fixture', {
      message: 'Toppings?',
      requestedSchema: schema(
        {
          t: { type: 'array', items: { type: 'string', enum: ['cheese', 'ham', 'olives'] }, minItems: 1, maxItems: 2, default: ['cheese'] },
        },
        ['t'],
      ),
    });
    const qp = (await nextPrompt(s)).widget as vscode.QuickPick<vscode.QuickPickItem>;
    assert.deepEqual(
      qp.selectedItems.map((i) => i.label),
      ['cheese'],
    );
    qp.selectedItems = qp.items.filter((i) => i.label === 'cheese' || i.label === 'olives');
    await acceptQuickInput();
    assert.deepEqual((await wire).response, { action: 'accept', content: { t: ['cheese', 'olives'] } });
  });

  test('hiding the question (Escape, or another quick input) sets it aside: no reply, still pending; Answer from the list shows it again with the draft', async () => {
    let replied = false;
    const wire = elicitVia('fixture', { message: 'Hide me', requestedSchema: schema({ name: { type: 'string' } }, ['name']) }).finally(
      () => (replied = true),
    );
    const first = await nextPrompt(s);
    (first.widget as vscode.InputBox).value = 'Gra';
    // The command palette takes the place of the prompt, as F1 does.
    await new Promise((r) => setTimeout(r, 0));
    await vscode.commands.executeCommand('workbench.action.showCommands');
    await waitFor(() => s.broker.queue.list()[0]?.state === 'aside', 'the question set aside');
    assert.equal(s.broker.queue.size, 1, 'still pending');
    assert.match(s.statusBar.pendingText, /\b1$/);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    // Escape on the palette (and any number of them) does not touch the question.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(replied, false, 'the server got no reply');
    const entry = s.broker.queue.list()[0];
    assert.ok(entry);
    const again = nextPrompt(s);
    await vscode.commands.executeCommand('mcpElicitation.pending.reveal', { kind: 'entry', entry });
    const box = (await again).widget as vscode.InputBox;
    assert.equal(box.value, 'Gra', 'the text typed before is still there');
    assert.equal(s.broker.queue.list()[0]?.state, 'onScreen');
    // Escape on the question itself: set aside too.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => s.broker.queue.list()[0]?.state === 'aside', 'set aside by Escape');
    const third = nextPrompt(s);
    await vscode.commands.executeCommand('mcpElicitation.pending.reveal', { kind: 'entry', entry: s.broker.queue.list()[0] });
    const box3 = (await third).widget as vscode.InputBox;
    box3.value = 'Grace';
    await acceptQuickInput();
    assert.deepEqual((await wire).response, { action: 'accept', content: { name: 'Grace' } });
  });

  test('a question set aside is cancelled from the pending list: the server gets cancel', async () => {
    const wire = elicitVia('fixture', { message: 'Aside then cancel', requestedSchema: schema({ a: { type: 'string' } }) });
    await nextPrompt(s);
    await new Promise((r) => setTimeout(r, 0));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => s.broker.queue.list()[0]?.state === 'aside', 'set aside');
    s.broker.queue.settle(s.broker.queue.list()[0]?.id ?? '', 'cancel');
    assert.deepEqual((await wire).response, { action: 'cancel' });
  });

  for (const [choice, response] of [
    ['Accept', { action: 'accept', content: {} }],
    ['Decline', { action: 'decline' }],
    ['Cancel', { action: 'cancel' }],
  ] as const) {
    test(`a form without fields is a confirmation on a QuickPick, even with presentation "webview": ${choice} sends ${JSON.stringify(response)}`, async () => {
      const config = vscode.workspace.getConfiguration('mcpElicitation');
      const before = config.inspect('presentation')?.workspaceValue;
      await config.update('presentation', 'webview', vscode.ConfigurationTarget.Workspace);
      try {
        const wire = elicitVia('fixture', { message: 'Proceed with the deployment?', requestedSchema: { type: 'object', properties: {} } });
        const p = await nextPrompt(s);
        assert.equal(p.kind, 'quickPick');
        const qp = p.widget as vscode.QuickPick<vscode.QuickPickItem>;
        assert.match(qp.title ?? '', /fixture/);
        assert.match((qp as { prompt?: string }).prompt ?? qp.items.map((i) => i.label).join(' '), /Proceed with the deployment\?/);
        const labels = qp.items
          .filter((i) => i.kind !== vscode.QuickPickItemKind.Separator)
          .map((i) => i.label.replace(/^\$\([\w-]+\) /, ''));
        // The three answers first; remembering (issue 26 item 3) comes after them.
        assert.deepEqual(labels, [
          'Accept',
          'Decline',
          'Cancel',
          'Accept and remember for this session',
          'Accept and remember in this workspace',
        ]);
        // Nothing starts active: Enter alone answers nothing (else it would say yes to every confirmation).
        await acceptQuickInput();
        assert.ok(
          qp.activeItems.every((i) => !i.label.endsWith('Accept')),
          `active: ${JSON.stringify(qp.activeItems.map((i) => i.label))}`,
        );
        qp.activeItems = qp.items.filter((i) => i.label.endsWith(choice));
        await acceptQuickInput();
        const r = await wire;
        assert.equal(r.kind, 'result');
        assert.deepEqual(r.response, response);
      } finally {
        await config.update('presentation', before, vscode.ConfigurationTarget.Workspace);
      }
    });
  }

  suite('a question that opens by itself takes no accept right away (a stray Enter)', () => {
    setup(() => (s.hooks.strayAcceptMs = STRAY_MS));
    teardown(() => (s.hooks.strayAcceptMs = 0));
    /** Until the guard is over, by the clock (the guard is a time). */
    const afterGuard = (shownAt: number): Promise<void> => waitFor(() => Date.now() - shownAt > STRAY_MS, 'the guard is over');

    test('one field: an Enter as it appears is not taken; a later one is', async () => {
      const wire = elicitVia('fixture', { message: 'Branch to push to?', requestedSchema: schema({ branch: { type: 'string' } }) });
      const p = await nextPrompt(s);
      const box = p.widget as vscode.InputBox;
      box.value = 'main';
      await acceptQuickInput();
      box.value = 'feature/x';
      await afterGuard(p.at);
      await acceptQuickInput();
      assert.deepEqual((await wire).response, { action: 'accept', content: { branch: 'feature/x' } }, 'the early Enter sent nothing');
    });

    test('a confirmation: Accept is not active, and even picked it is not taken as the question appears', async () => {
      const wire = elicitVia('fixture', { message: 'Push to main?', requestedSchema: { type: 'object', properties: {} } });
      const p = await nextPrompt(s);
      const qp = p.widget as vscode.QuickPick<vscode.QuickPickItem>;
      const row = (label: string): vscode.QuickPickItem[] => qp.items.filter((i) => i.label.endsWith(label));
      qp.activeItems = row('Accept');
      await acceptQuickInput();
      qp.activeItems = row('Decline');
      await afterGuard(p.at);
      await acceptQuickInput();
      assert.deepEqual((await wire).response, { action: 'decline' }, 'the early accept sent nothing');
    });
  });

  test('a server cancellation closes the open prompt and nothing is sent', async () => {
    const wire = elicitVia(
      'fixture',
      { message: 'Soon withdrawn', requestedSchema: schema({ a: { type: 'string' } }) },
      { cancelAfterMs: 1500 },
    );
    const box = (await nextPrompt(s)).widget as vscode.InputBox;
    const r = await wire;
    assert.equal(r.kind, 'cancelled');
    await waitFor(() => s.broker.queue.size === 0, 'queue empty');
    const last = s.broker.queue.history.list().at(-1);
    assert.equal(last?.decidedBy, 'serverCancel');
    assert.ok(box);
  });

  test('two concurrent requests are shown one at a time, in arrival order', async () => {
    const call = Promise.resolve(
      vscode.commands.executeCommand('mcpElicitation.runTool', 'fixture', 'elicitMany', {
        requests: [
          { message: 'first', requestedSchema: schema({ v: { type: 'string' } }, ['v']) },
          { message: 'second', requestedSchema: schema({ v: { type: 'string' } }, ['v']) },
        ],
        gapMs: 100,
      }),
    );
    const p1 = await nextPrompt(s);
    await waitFor(() => s.broker.queue.size === 2, 'both pending');
    assert.deepEqual(
      s.broker.queue.list().map((e) => [e.message, e.state]),
      [
        ['first', 'onScreen'],
        ['second', 'queued'],
      ],
    );
    assert.ok(p1.widget);
    (p1.widget as vscode.InputBox).value = 'one';
    const p2promise = nextPrompt(s);
    await acceptQuickInput();
    const p2 = await p2promise;
    assert.match((p2.widget as vscode.InputBox).prompt ?? '', /second/);
    (p2.widget as vscode.InputBox).value = 'two';
    await acceptQuickInput();
    const result = (await call) as { content: { text: string }[] };
    const records = JSON.parse(result.content[0]?.text ?? '[]') as { response: unknown }[];
    assert.deepEqual(
      records.map((r) => r.response),
      [
        { action: 'accept', content: { v: 'one' } },
        { action: 'accept', content: { v: 'two' } },
      ],
    );
  });

  test('an invalid schema gets -32602 naming the property, and nothing is shown', async () => {
    let shown = false;
    const sub = s.hooks.onDidShowPrompt(() => (shown = true));
    const r = await elicitVia('fixture', { message: 'bad', requestedSchema: schema({ address: { type: 'object', properties: {} } }) });
    sub.dispose();
    assert.equal(r.kind, 'error');
    assert.equal(r.error?.code, -32602);
    assert.match(r.error?.message ?? '', /address/);
    assert.equal(shown, false);
  });
});
