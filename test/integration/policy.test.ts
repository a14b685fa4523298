import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { ServerPolicy } from '../../src/elicitation/policy/policy';
import type { FinishedElicitation } from '../../src/elicitation/outcome';
import { acceptQuickInput, elicitVia, nextPrompt, parseToolText, services, waitFor, waitForRunning, type WireRecord } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
const oneText = (key = 'v'): Record<string, unknown> => ({ type: 'object', properties: { [key]: { type: 'string' } }, required: [key] });
/** The settings this suite changes; their workspace values are put back afterwards. */
const TOUCHED = ['serverPolicy', 'defaultPolicy', 'rateLimit', 'audit.includeValues'] as const;

interface AuditLine {
  readonly time: string;
  readonly server: string;
  readonly mode: string;
  readonly message: string;
  readonly fields: string[];
  readonly action: string;
  readonly decidedBy: string;
  readonly durationMs: number;
  readonly url?: string;
  readonly content?: Record<string, unknown>;
}

/** Runs `elicitMany` on the fixture: every request is sent at once (or `gapMs` apart), outcomes in sending order. */
function elicitMany(requests: Record<string, unknown>[], gapMs?: number): Promise<WireRecord[]> {
  return Promise.resolve(
    vscode.commands.executeCommand('mcpElicitation.runTool', 'fixture', 'elicitMany', { requests, ...(gapMs ? { gapMs } : {}) }),
  ).then((r) => parseToolText(r) as unknown as WireRecord[]);
}

/**
 * Cancels the question that has the turn, as the Cancel button of the prompt (or of the pending
 * list) does. Escape would not: it only sets the question aside, unanswered.
 */
function cancelPrompt(s: TestServices): void {
  const current = s.broker.queue.list().find((e) => e.state === 'onScreen' || e.state === 'aside');
  if (current) s.broker.queue.settle(current.id, 'cancel');
}

suite('Policy, rate limit, pending queue and audit log (in the real host)', () => {
  let s: TestServices;
  const original = new Map<string, unknown>();

  /** The finished elicitation with this message (the newest, if several). */
  const finished = (message: string): FinishedElicitation | undefined =>
    s.broker.queue.history
      .list()
      .filter((h) => h.message === message)
      .at(-1);

  async function setServerPolicy(value: Record<string, string> | undefined, fixturePolicy: ServerPolicy): Promise<void> {
    await config().update('serverPolicy', value, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.gatekeeper.policyFor('fixture') === fixturePolicy, `fixture policy ${fixturePolicy}`);
  }

  /**
   * Sets the rate limit with full buckets. The limiter keeps what a bucket holds across limit
   * changes (so editing the setting is no way to refill it), but "unlimited" forgets every bucket:
   * passing through it gives this test its own budget whatever earlier suites spent.
   */
  async function freshRateLimit(value: unknown): Promise<void> {
    if (s.limiter.current.requests !== 0 && s.limiter.current.perSeconds !== 0) {
      await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
      await waitFor(() => s.limiter.current.requests === 0, 'unlimited rate');
    }
    await config().update('rateLimit', value, vscode.ConfigurationTarget.Workspace);
    const expected = (value ?? config().inspect<{ requests: number; perSeconds: number }>('rateLimit')?.defaultValue) as {
      requests: number;
      perSeconds: number;
    };
    await waitFor(
      () => s.limiter.current.requests === expected.requests && s.limiter.current.perSeconds === expected.perSeconds,
      `rate limit ${JSON.stringify(expected)}`,
    );
  }

  /** keep-alive notifications the fixture received for requests tagged `tag`. */
  function progressLines(tag: string): number {
    const recordFile = path.join(process.env['MCP_TEST_RECORD_DIR'] ?? '', 'fixture.jsonl');
    if (!existsSync(recordFile)) return 0;
    return readFileSync(recordFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"kind":"progress"') && l.includes(`"tag":"${tag}"`)).length;
  }

  function auditLines(): AuditLine[] {
    if (!existsSync(s.audit.file)) return [];
    return readFileSync(s.audit.file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as AuditLine);
  }

  suiteSetup(async () => {
    s = await services();
    await waitForRunning(s, 'fixture');
    for (const key of TOUCHED) original.set(key, config().inspect(key)?.workspaceValue);
    // This suite sends far more than ten requests a minute; only the rate-limit test wants a limit.
    await freshRateLimit({ requests: 0, perSeconds: 0 });
  });

  // A failed test must not leave a prompt open, or the fixture blocked, for the next one.
  teardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
    await config().update('serverPolicy', original.get('serverPolicy'), vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.gatekeeper.policyFor('fixture') === 'allow', 'fixture allowed again');
  });

  suiteTeardown(async () => {
    // Through "unlimited" so the suites after this one start with full buckets too.
    await freshRateLimit(original.get('rateLimit'));
    for (const key of TOUCHED) await config().update(key, original.get(key), vscode.ConfigurationTarget.Workspace);
  });

  test('settings: workspace serverPolicy entries override user ones, other user entries stay; defaultPolicy covers the rest', async () => {
    const userOriginal = config().inspect('serverPolicy')?.globalValue;
    try {
      await config().update('serverPolicy', { fixture: 'block', other: 'ask' }, vscode.ConfigurationTarget.Global);
      await waitFor(() => s.gatekeeper.policyFor('other') === 'ask', 'user setting in force');
      assert.equal(s.gatekeeper.policyFor('fixture'), 'block');
      await setServerPolicy({ fixture: 'allow' }, 'allow');
      assert.equal(s.gatekeeper.policyFor('other'), 'ask', 'user entry for another server survives');
      await config().update('defaultPolicy', 'block', vscode.ConfigurationTarget.Workspace);
      await waitFor(() => s.gatekeeper.policyFor('unlisted') === 'block', 'default policy');
      assert.equal(s.gatekeeper.policyFor('fixture'), 'allow', 'an own entry beats the default');
    } finally {
      await config().update('defaultPolicy', original.get('defaultPolicy'), vscode.ConfigurationTarget.Workspace);
      await config().update('serverPolicy', userOriginal, vscode.ConfigurationTarget.Global);
      await waitFor(
        () => s.gatekeeper.policyFor('unlisted') === 'allow' && s.gatekeeper.policyFor('other') === 'allow',
        'settings restored',
      );
    }
  });

  test('Unblock removes the block and allows nothing: the entries go, or ask where a block stays in force (issue 41)', async () => {
    const userOriginal = config().inspect('serverPolicy')?.globalValue;
    try {
      await config().update('serverPolicy', { fixture: 'block', other: 'ask' }, vscode.ConfigurationTarget.Global);
      await setServerPolicy({ fixture: 'block', keep: 'block' }, 'block');
      await s.policyActions.unblockServer('fixture');
      await waitFor(() => s.gatekeeper.policyFor('fixture') !== 'block', 'fixture unblocked');
      assert.deepEqual(config().inspect('serverPolicy')?.workspaceValue, { keep: 'block' }, 'the workspace entry is gone, not allow');
      assert.deepEqual(config().inspect('serverPolicy')?.globalValue, { other: 'ask' }, 'the user entry too');
      // A block that stays in force without an entry of the server's own: ask, still not allow.
      await config().update('defaultPolicy', 'block', vscode.ConfigurationTarget.Workspace);
      await waitFor(() => s.gatekeeper.policyFor('fixture') === 'block', 'default block');
      await s.policyActions.unblockServer('fixture');
      await waitFor(() => s.gatekeeper.policyFor('fixture') === 'ask', 'fixture set to ask');
      assert.equal((config().inspect('serverPolicy')?.workspaceValue as Record<string, unknown> | undefined)?.['fixture'], 'ask');
    } finally {
      await config().update('defaultPolicy', original.get('defaultPolicy'), vscode.ConfigurationTarget.Workspace);
      await config().update('serverPolicy', userOriginal, vscode.ConfigurationTarget.Global);
    }
  });

  test('block: the server gets decline at once, nothing is shown, history says policy', async () => {
    await setServerPolicy({ fixture: 'block' }, 'block');
    const shown: string[] = [];
    const sub = s.hooks.onDidShowPrompt((e) => shown.push(e.kind));
    try {
      const r = await elicitVia('fixture', { message: 'Blocked question', requestedSchema: oneText() });
      assert.equal(r.kind, 'result');
      assert.deepEqual(r.response, { action: 'decline' });
    } finally {
      sub.dispose();
    }
    assert.deepEqual(shown, [], 'no prompt for a blocked server');
    assert.equal(s.broker.queue.size, 0);
    assert.equal(finished('Blocked question')?.decidedBy, 'policy');
  });

  test('ask: nothing is shown while the notification waits, but it is pending and counted; blocking the server declines it at once', async () => {
    await setServerPolicy({ fixture: 'ask' }, 'ask');
    const shown: string[] = [];
    const sub = s.hooks.onDidShowPrompt((e) => shown.push(e.kind));
    // The notification may wait as long as a prompt: keep-alives go out meanwhile.
    s.hooks.keepAliveMs = 100;
    try {
      const wire = elicitVia('fixture', { message: 'May I ask?', requestedSchema: oneText() }, { progress: true, tag: 'ask' });
      await waitFor(() => s.presenter.pendingAsks === 1, 'the ask notification');
      await waitFor(() => progressLines('ask') >= 2, 'keep-alive while the notification waits');
      // Listed and counted while it waits, but holding no turn: nothing is on screen for it.
      assert.deepEqual(
        s.broker.queue.list().map((e) => [e.message, e.state]),
        [['May I ask?', 'asking']],
      );
      assert.match(s.statusBar.pendingText, /\b1$/);
      // The user blocks the server elsewhere (Servers view, another prompt) while the notification waits.
      await setServerPolicy({ fixture: 'block' }, 'block');
      const r = await wire;
      assert.deepEqual(r.response, { action: 'decline' });
    } finally {
      sub.dispose();
      s.hooks.keepAliveMs = undefined;
    }
    assert.deepEqual(shown, []);
    assert.equal(s.presenter.pendingAsks, 0);
    assert.equal(finished('May I ask?')?.decidedBy, 'policy');
  });

  test('rate limit: of a burst of 25, the first 10 are shown and 15 are declined on the wire at once', async () => {
    await freshRateLimit({ requests: 10, perSeconds: 60 });
    // "Allow More" from an earlier notification would lift the limit for the session.
    s.gatekeeper.resetSession();
    const notices: [string, number, number][] = [];
    const noticing = s.hooks.presenter.intercept('notifyRateLimited', (notify) => (asker, count, seconds) => {
      notices.push([asker.name, count, seconds]);
      notify(asker, count, seconds);
    });
    const shown: string[] = [];
    const sub = s.hooks.onDidShowPrompt((e) => {
      shown.push(e.id);
      // Each prompt is dismissed as it appears (Escape), so the next one can come.
      cancelPrompt(s);
    });
    let records: WireRecord[];
    try {
      records = await elicitMany(Array.from({ length: 25 }, (_, i) => ({ message: `Burst ${i + 1}`, requestedSchema: oneText() })));
    } finally {
      sub.dispose();
      noticing.dispose();
      await freshRateLimit({ requests: 0, perSeconds: 0 });
    }
    // Once per window, at the first rejection: "fixture sent 11 requests in 60 s".
    assert.deepEqual(notices, [['fixture', 11, 60]]);
    assert.equal(shown.length, 10, 'exactly ten prompts in the window');
    // Requests arrive in sending order over stdio, so the first ten got the tokens.
    assert.deepEqual(
      records.map((r) => r.response?.action),
      [...Array<string>(10).fill('cancel'), ...Array<string>(15).fill('decline')],
    );
    const decided = Array.from({ length: 25 }, (_, i) => finished(`Burst ${i + 1}`)?.decidedBy);
    assert.deepEqual(decided, [...Array<string>(10).fill('user'), ...Array<string>(15).fill('rateLimit')]);
  });

  test('three queued requests: arrival order and states, status bar count, settled from the list as decline and cancel', async () => {
    const call = elicitMany(
      ['one', 'two', 'three'].map((message) => ({ message, requestedSchema: oneText() })),
      100,
    );
    await nextPrompt(s);
    await waitFor(() => s.broker.queue.size === 3, 'three pending');
    const list = s.broker.queue.list();
    assert.deepEqual(
      list.map((e) => [e.asker.name, e.message, e.mode, e.state]),
      [
        ['fixture', 'one', 'form', 'onScreen'],
        ['fixture', 'two', 'form', 'queued'],
        ['fixture', 'three', 'form', 'queued'],
      ],
    );
    assert.equal(s.statusBar.pendingText, '$(comment-discussion) 3');
    const [one, two, three] = list;
    assert.ok(one && two && three);
    assert.ok(s.broker.queue.settle(two.id, 'decline'));
    await waitFor(() => s.broker.queue.size === 2, 'two settled');
    assert.equal(s.statusBar.pendingText, '$(comment-discussion) 2');
    assert.ok(s.broker.queue.settle(three.id, 'cancel'));
    // The one on screen: its prompt closes and the server gets the decline.
    assert.ok(s.broker.queue.settle(one.id, 'decline'));
    const records = await call;
    assert.deepEqual(
      records.map((r) => r.response),
      [{ action: 'decline' }, { action: 'decline' }, { action: 'cancel' }],
    );
    await waitFor(() => s.broker.queue.size === 0, 'queue empty');
    assert.equal(s.statusBar.pendingText, '');
    assert.deepEqual(
      ['one', 'two', 'three'].map((m) => finished(m)?.decidedBy),
      ['user', 'user', 'user'],
    );
  });

  test('blocking a server declines its queued requests at once; the one on screen stays', async () => {
    const call = elicitMany(
      ['b1', 'b2', 'b3'].map((message) => ({ message, requestedSchema: oneText() })),
      100,
    );
    await nextPrompt(s);
    await waitFor(() => s.broker.queue.size === 3, 'three pending');
    await setServerPolicy({ fixture: 'block' }, 'block');
    await waitFor(() => s.broker.queue.size === 1, 'queued ones declined');
    assert.deepEqual(
      s.broker.queue.list().map((e) => [e.message, e.state]),
      [['b1', 'onScreen']],
    );
    cancelPrompt(s);
    const records = await call;
    assert.deepEqual(
      records.map((r) => r.response),
      [{ action: 'cancel' }, { action: 'decline' }, { action: 'decline' }],
    );
    assert.deepEqual(
      ['b1', 'b2', 'b3'].map((m) => finished(m)?.decidedBy),
      ['user', 'policy', 'policy'],
    );
  });

  test('a server crash removes its entries, settles every handler and tells the user once', async () => {
    const told: string[] = [];
    const telling = s.hooks.presenter.intercept('notifyServerGone', (notify) => (asker) => {
      told.push(asker.name);
      notify(asker);
    });
    try {
      const call = elicitMany(
        ['d1', 'd2', 'd3'].map((message) => ({ message, requestedSchema: oneText() })),
        100,
      ).then(
        () => 'resolved',
        () => 'rejected',
      );
      await nextPrompt(s);
      await waitFor(() => s.broker.queue.size === 3, 'three pending');
      await vscode.commands.executeCommand('mcpElicitation.runTool', 'fixture', 'crash', { delayMs: 50 });
      await waitFor(() => s.broker.queue.size === 0, 'entries removed');
      assert.equal(await call, 'rejected', 'the tool call fails with the connection');
      assert.deepEqual(
        ['d1', 'd2', 'd3'].map((m) => [finished(m)?.action, finished(m)?.decidedBy]),
        [
          ['cancel', 'disconnect'],
          ['cancel', 'disconnect'],
          ['cancel', 'disconnect'],
        ],
      );
      assert.deepEqual(told, ['fixture'], 'one notice: a prompt of that server was on screen');
    } finally {
      telling.dispose();
    }
    await waitForRunning(s, 'fixture');
    await waitFor(() => s.manager.get('fixture')?.tools.some((t) => t.name === 'elicitMany') ?? false, 'fixture tools after restart');
  });

  test('stopping a server closes its prompt and drops its queue; history says disconnect', async () => {
    const call = elicitMany(
      ['s1', 's2'].map((message) => ({ message, requestedSchema: oneText() })),
      100,
    ).then(
      () => 'resolved',
      () => 'rejected',
    );
    await nextPrompt(s);
    await waitFor(() => s.broker.queue.size === 2, 'two pending');
    await vscode.commands.executeCommand('mcpElicitation.stopServer', 'fixture');
    await waitFor(() => s.broker.queue.size === 0, 'entries removed');
    assert.equal(await call, 'rejected');
    assert.deepEqual(
      ['s1', 's2'].map((m) => finished(m)?.decidedBy),
      ['disconnect', 'disconnect'],
    );
    await vscode.commands.executeCommand('mcpElicitation.startServer', 'fixture');
    await waitForRunning(s, 'fixture');
    await waitFor(() => s.manager.get('fixture')?.tools.some((t) => t.name === 'elicitMany') ?? false, 'fixture tools after start');
  });

  test('keep-alive: with a progressToken the server receives notifications/progress while the prompt is open', async () => {
    // The services read this per request; 15 s is too long to wait for in a test.
    s.hooks.keepAliveMs = 100;
    try {
      const wire = elicitVia('fixture', { message: 'Take your time', requestedSchema: oneText() }, { progress: true, tag: 'keepalive' });
      const p = await nextPrompt(s);
      await waitFor(() => progressLines('keepalive') >= 3, 'three keep-alive notifications at the server');
      (p.widget as vscode.InputBox).value = 'done';
      await acceptQuickInput();
      const r = (await wire) as WireRecord & { progressCount?: number };
      assert.deepEqual(r.response, { action: 'accept', content: { v: 'done' } });
      assert.ok((r.progressCount ?? 0) >= 3, `progress counted by the server: ${r.progressCount}`);
    } finally {
      s.hooks.keepAliveMs = undefined;
    }
  });

  test('audit log: one line per elicitation with fields, action and decidedBy; no values by default; url without query', async () => {
    await s.audit.flush();
    const before = auditLines().length;
    const wire = elicitVia('fixture', { message: 'Audit me', requestedSchema: oneText('city') });
    const p = await nextPrompt(s);
    (p.widget as vscode.InputBox).value = 'Paris';
    await acceptQuickInput();
    assert.deepEqual((await wire).response, { action: 'accept', content: { city: 'Paris' } });
    await setServerPolicy({ fixture: 'block' }, 'block');
    const url = 'https://auth.example.com/authorize?code=SECRET-CODE&state=xyz#frag';
    const u = await elicitVia('fixture', { mode: 'url', message: 'Audit url', url, elicitationId: 'audit-1' });
    assert.deepEqual(u.response, { action: 'decline' });
    await s.audit.flush();
    const added = auditLines().slice(before);
    const form = added.find((l) => l.message === 'Audit me');
    assert.ok(form, 'a line for the form');
    assert.equal(form.server, 'fixture');
    assert.equal(form.mode, 'form');
    assert.deepEqual(form.fields, ['city']);
    assert.equal(form.action, 'accept');
    assert.equal(form.decidedBy, 'user');
    assert.equal(typeof form.durationMs, 'number');
    assert.ok(!Number.isNaN(Date.parse(form.time)));
    assert.equal('content' in form, false, 'no values unless audit.includeValues');
    const link = added.find((l) => l.message === 'Audit url');
    assert.ok(link, 'a line for the url request');
    assert.equal(link.mode, 'url');
    assert.equal(link.url, 'https://auth.example.com/authorize');
    assert.equal(link.decidedBy, 'policy');
    const text = readFileSync(s.audit.file, 'utf8');
    assert.ok(!text.includes('Paris') && !text.includes('SECRET-CODE'), 'neither the answer nor the query reached the file');
    await vscode.commands.executeCommand('mcpElicitation.openAuditLog');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, s.audit.file, 'Open Audit Log shows the file');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('audit log with includeValues: values written, secret-like fields redacted', async () => {
    await config().update('audit.includeValues', true, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => config().get('audit.includeValues') === true, 'includeValues on');
    await s.audit.flush();
    const before = auditLines().length;
    for (const [message, key, value] of [
      ['Audit city', 'city', 'Lyon'],
      ['Audit password', 'password', 'hunter2'],
    ] as const) {
      const wire = elicitVia('fixture', { message, requestedSchema: oneText(key) });
      const p = await nextPrompt(s);
      (p.widget as vscode.InputBox).value = value;
      await acceptQuickInput();
      assert.deepEqual((await wire).response, { action: 'accept', content: { [key]: value } });
    }
    await s.audit.flush();
    const added = auditLines().slice(before);
    assert.deepEqual(added.find((l) => l.message === 'Audit city')?.content, { city: 'Lyon' });
    assert.deepEqual(added.find((l) => l.message === 'Audit password')?.content, { password: '[redacted]' });
    assert.ok(!readFileSync(s.audit.file, 'utf8').includes('hunter2'));
    await config().update('audit.includeValues', original.get('audit.includeValues'), vscode.ConfigurationTarget.Workspace);
  });

  test('"Block this server" writes the workspace setting and keeps other entries', async () => {
    await setServerPolicy({ other: 'ask' }, 'allow');
    const target = await s.policyActions.blockServer('fixture');
    assert.equal(target, vscode.ConfigurationTarget.Workspace);
    assert.deepEqual(config().inspect('serverPolicy')?.workspaceValue, { other: 'ask', fixture: 'block' });
    await waitFor(() => s.gatekeeper.policyFor('fixture') === 'block', 'block in force');
  });
});
