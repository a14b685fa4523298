import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { UrlAnswer, UrlPrompt } from '../../src/elicitation/presenter';
import { elicitVia, services, waitFor, waitForRunning } from './helpers';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
/** The settings this suite changes; their workspace values are put back afterwards. */
const TOUCHED = ['serverPolicy', 'rateLimit', 'url.pendingExpiryMinutes'] as const;

/** Attempts the fixture's `urlRequired` tool recorded for `elicitationId`. */
function attempts(elicitationId: string): number {
  const file = path.join(process.env['MCP_TEST_RECORD_DIR'] ?? '', 'fixture.jsonl');
  if (!existsSync(file)) return 0;
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; elicitationId?: string })
    .filter((r) => r.kind === 'toolAttempt' && r.elicitationId === elicitationId).length;
}

function runTool(server: string, tool: string, args: Record<string, unknown>): Promise<unknown> {
  return Promise.resolve(vscode.commands.executeCommand('mcpElicitation.runTool', server, tool, args));
}

/** What the error of a failed `runTool` carries for its caller. */
interface ToolFailure {
  readonly message: string;
  readonly code?: number;
  readonly data?: { elicitations?: { url: string; elicitationId: string }[] };
}

async function failure(p: Promise<unknown>): Promise<ToolFailure> {
  try {
    await p;
  } catch (e) {
    return e as ToolFailure;
  }
  throw new Error('the tool call succeeded, but it should have failed');
}

/**
 * The url consent is a modal dialog, which code in the extension host cannot click (the e2e suite,
 * test/e2e/urlMode.test.ts, clicks the real one). Where a test needs the user to have consented,
 * the presenter's consent step answers for them; connection, broker, queue, settings and the
 * fixture server stay real.
 */
function consentAnswers(s: TestServices, answer: UrlAnswer): { readonly shown: UrlPrompt[]; restore(): void } {
  const shown: UrlPrompt[] = [];
  const answering = s.hooks.presenter.intercept('presentUrl', () => (prompt) => {
    shown.push(prompt);
    return Promise.resolve(answer);
  });
  return {
    shown,
    restore: () => {
      answering.dispose();
    },
  };
}

suite('URL mode: completion notices, expiry and -32042 without the modal (in the real host)', () => {
  let s: TestServices;
  const original = new Map<string, unknown>();
  let consent: ReturnType<typeof consentAnswers> | undefined;

  const pendingUrl = (server: string, elicitationId: string) =>
    s.broker.queue.list().find((e) => e.asker.name === server && e.elicitationId === elicitationId);
  const snapshot = (): string[] => s.broker.queue.list().map((e) => `${e.asker.name}/${e.elicitationId ?? '-'}/${e.state}`);

  suiteSetup(async () => {
    s = await services();
    await waitForRunning(s, 'fixture');
    await waitForRunning(s, 'fixture-http');
    for (const key of TOUCHED) original.set(key, config().inspect(key)?.workspaceValue);
    // Earlier suites may have spent this minute's budget of the fixture; no limit here ("unlimited" also forgets the buckets).
    await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.limiter.current.requests === 0, 'unlimited rate');
  });

  teardown(async () => {
    consent?.restore();
    consent = undefined;
    // Nothing this suite accepted may stay pending for the suites after it.
    for (const e of s.broker.queue.list()) if (e.state === 'awaitingCompletion') s.broker.queue.settle(e.id, 'cancel');
    await config().update('serverPolicy', original.get('serverPolicy'), vscode.ConfigurationTarget.Workspace);
    await config().update('url.pendingExpiryMinutes', original.get('url.pendingExpiryMinutes'), vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.gatekeeper.policyFor('fixture') === 'allow', 'fixture allowed again');
  });

  suiteTeardown(async () => {
    for (const key of TOUCHED) await config().update(key, original.get(key), vscode.ConfigurationTarget.Workspace);
  });

  test('completion notices for foreign, unknown and already-completed ids are ignored; the real one settles it and names the server', async () => {
    consent = consentAnswers(s, { action: 'accept', browser: 'opened' });
    const notices: string[] = [];
    const noticing = s.hooks.presenter.intercept('notifyUrlCompleted', (notify) => (asker) => {
      notices.push(asker.name);
      notify(asker);
    });
    // Which notices reached the broker: the HTTP fixture's arrive on their own stream, maybe after its tool result.
    const received: string[] = [];
    const receiving = s.hooks.sink.intercept('complete', (complete) => (server, id) => {
      received.push(`${server}/${id}`);
      complete(server, id);
    });
    try {
      const reply = await elicitVia('fixture', {
        mode: 'url',
        message: 'Sign in',
        url: 'https://auth.example.com/in-host',
        elicitationId: 'ih-1',
      });
      assert.deepEqual(reply.response, { action: 'accept' });
      assert.equal(consent.shown.length, 1);
      assert.equal(pendingUrl('fixture', 'ih-1')?.state, 'awaitingCompletion', 'accepted, so pending until the server completes it');
      let outcome: string | undefined;
      void s.broker.waitForCompletion('fixture', 'ih-1').then((o) => (outcome = o));
      const before = snapshot();

      // Another server naming the same id: not its elicitation.
      await runTool('fixture-http', 'complete', { elicitationId: 'ih-1' });
      await waitFor(() => received.includes('fixture-http/ih-1'), 'the foreign notice reached the broker');
      // An id nobody issued.
      await runTool('fixture', 'complete', { elicitationId: 'ih-unknown' });
      assert.ok(received.includes('fixture/ih-unknown'));
      assert.deepEqual(snapshot(), before, 'foreign and unknown ids change nothing');
      assert.equal(outcome, undefined);
      assert.deepEqual(notices, []);

      await runTool('fixture', 'complete', { elicitationId: 'ih-1' });
      await waitFor(() => outcome !== undefined, 'completion');
      assert.equal(outcome, 'completed');
      assert.equal(pendingUrl('fixture', 'ih-1'), undefined);
      assert.deepEqual(notices, ['fixture'], 'one notice, naming the server');

      // The same id again: already completed.
      const after = snapshot();
      await runTool('fixture', 'complete', { elicitationId: 'ih-1' });
      assert.equal(received.filter((r) => r === 'fixture/ih-1').length, 2);
      assert.deepEqual(snapshot(), after);
      assert.deepEqual(notices, ['fixture']);
    } finally {
      noticing.dispose();
      receiving.dispose();
    }
  });

  test('an accepted url elicitation expires after url.pendingExpiryMinutes (fractional minutes work)', async () => {
    await config().update('url.pendingExpiryMinutes', 0.01, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => config().get('url.pendingExpiryMinutes') === 0.01, 'expiry setting in force');
    consent = consentAnswers(s, { action: 'accept', browser: 'opened' });
    const t0 = Date.now();
    const reply = await elicitVia('fixture', {
      mode: 'url',
      message: 'Sign in',
      url: 'https://auth.example.com/expiry',
      elicitationId: 'ih-exp',
    });
    assert.deepEqual(reply.response, { action: 'accept' });
    assert.equal(pendingUrl('fixture', 'ih-exp')?.state, 'awaitingCompletion');
    assert.equal(await s.broker.waitForCompletion('fixture', 'ih-exp'), 'expired');
    assert.ok(Date.now() - t0 >= 600, 'not before 0.01 minutes');
    assert.equal(pendingUrl('fixture', 'ih-exp'), undefined, 'gone from the pending list');

    // A tool waiting on it gives up with the original error, without a retry.
    const err = await failure(
      runTool('fixture', 'urlRequired', { url: 'https://auth.example.com/expiry-tool', elicitationId: 'ih-exp-tool' }),
    );
    assert.equal(err.code, -32042);
    assert.match(err.message, /expired/);
    assert.equal(attempts('ih-exp-tool'), 1);
  });

  test('-32042 declined (server blocked by policy): the original error reaches the caller and the tool is not retried', async () => {
    await config().update('serverPolicy', { fixture: 'block' }, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.gatekeeper.policyFor('fixture') === 'block', 'fixture blocked');
    const prompts: string[] = [];
    const sub = s.hooks.onDidShowPrompt((e) => prompts.push(e.kind));
    try {
      const url = 'https://auth.example.com/blocked-tool';
      const err = await failure(runTool('fixture', 'urlRequired', { url, elicitationId: 'ih-block' }));
      assert.equal(err.code, -32042, 'the caller still sees URLElicitationRequired');
      assert.deepEqual(
        err.data?.elicitations?.map((e) => [e.url, e.elicitationId]),
        [[url, 'ih-block']],
      );
      assert.equal(attempts('ih-block'), 1, 'no retry after a decline');
      assert.deepEqual(prompts, [], 'a blocked server shows no consent');
      assert.equal(s.broker.queue.history.list().at(-1)?.decidedBy, 'policy');
    } finally {
      sub.dispose();
    }
  });
});
