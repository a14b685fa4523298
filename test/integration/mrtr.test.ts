// MCP 2026-07-28 in the real extension host: SDK v2 fixture servers (modern-only and dual) that
// ask through `input_required`, answered on the real widgets through the real broker. Every
// assertion about the protocol reads what the server received (test/fixtures/mrtrFixture.mjs
// records each request raw off the wire).
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { callToolWithElicitation } from '../../src/servers/toolRunner';
import type { UrlAnswer, UrlPrompt } from '../../src/elicitation/presenter';
import { acceptQuickInput, nextPrompt, services, waitFor, waitForRunning } from './helpers';

const recordDir = (): string => process.env['MCP_TEST_RECORD_DIR'] ?? '';
const fixture = (name: string): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', name);
const record = (server: string): string => path.join(recordDir(), `${server}.jsonl`);

function mrtrServer(name: string, kind: 'modern' | 'dual', protocolVersion?: string): Record<string, unknown> {
  return {
    command: 'node',
    args: [fixture('mrtrStdioServer.mjs'), name, kind],
    env: { FIXTURE_RECORD: record(name) },
    ...(protocolVersion ? { protocolVersion } : {}),
  };
}

interface Received {
  readonly kind: string;
  readonly id: string | number;
  readonly tool?: string;
  readonly tag?: string;
  readonly hasRequestState: boolean;
  readonly requestState?: string;
  readonly inputResponses?: Record<string, { action: string; content?: Record<string, unknown> }>;
  readonly protocolVersion?: string;
}

/** The `tools/call` legs `server` received for calls tagged `tag`, in order. */
function legs(server: string, tag: string): Received[] {
  const file = record(server);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Received)
    .filter((r) => r.kind === 'received' && r.tag === tag);
}

function run(server: string, tool: string, args: Record<string, unknown>): Promise<unknown> {
  return Promise.resolve(vscode.commands.executeCommand('mcpElicitation.runTool', server, tool, args));
}
const toolJson = (r: unknown): unknown => JSON.parse((r as { content: { text: string }[] }).content[0]?.text ?? 'null');

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('the call succeeded, but it should have failed');
}

/** Types `value` into the next InputBox and presses Enter. */
async function answerBox(s: TestServices, value: string, expect?: RegExp): Promise<void> {
  const p = await nextPrompt(s);
  assert.equal(p.kind, 'inputBox');
  const box = p.widget as vscode.InputBox;
  if (expect) assert.match(box.prompt ?? '', expect);
  box.value = value;
  await acceptQuickInput();
}

const STATE = (tag: string, round: number): string => `st\u00e4te:${tag}:${round} "q" \\ \n\u{1F512}  `;

suite('MCP 2026-07-28: input_required through the broker (asserted on the wire)', () => {
  let s: TestServices;
  let previous: unknown;
  let previousRate: unknown;

  suiteSetup(async function () {
    this.timeout(60_000);
    s = await services();
    const config = vscode.workspace.getConfiguration('mcpElicitation');
    previous = config.inspect('servers')?.workspaceValue;
    previousRate = config.inspect('rateLimit')?.workspaceValue;
    // This suite shows more prompts of one server than the default rate limit lets through.
    await config.update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    await config.update(
      'servers',
      {
        ...(previous as Record<string, unknown> | undefined),
        'mrtr-modern': mrtrServer('mrtr-modern', 'modern'),
        'mrtr-dual': mrtrServer('mrtr-dual', 'dual'),
        'mrtr-dual-2025': mrtrServer('mrtr-dual-2025', 'dual', '2025-11-25'),
        'mrtr-raw': { command: 'node', args: [fixture('rawModernServer.mjs'), 'mrtr-raw'], env: { FIXTURE_RECORD: record('mrtr-raw') } },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    for (const n of ['mrtr-modern', 'mrtr-dual', 'mrtr-dual-2025', 'mrtr-raw']) await waitForRunning(s, n);
  });
  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('mcpElicitation').update('servers', previous, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.getConfiguration('mcpElicitation').update('rateLimit', previousRate, vscode.ConfigurationTarget.Workspace);
  });
  // A failed test must not leave its prompt open in front of the next one.
  teardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  test('each server shows the revision it speaks and why: 2025-11-25 to what accepts it, 2026-07-28 to what refuses it, and the override', () => {
    const running = (n: string) => {
      const st = s.manager.get(n)?.state;
      return st?.kind === 'running' ? st : undefined;
    };
    assert.equal(running('mrtr-modern')?.protocolVersion, '2026-07-28');
    assert.equal(running('mrtr-modern')?.era?.why, 'modernOnly', 'it refused 2025-11-25');
    assert.equal(running('mrtr-dual')?.protocolVersion, '2025-11-25', 'a dual-era server is spoken to as VS Code speaks to it');
    assert.equal(running('mrtr-dual')?.era?.why, 'vscode');
    assert.equal(running('mrtr-dual-2025')?.protocolVersion, '2025-11-25');
    assert.equal(running('mrtr-dual-2025')?.era?.why, 'pinned', 'the per-server override');
    assert.equal(running('fixture')?.protocolVersion, '2025-11-25', 'an SDK 1.x server answers initialize');
  });

  test('a tool list change reaches us from both revisions (2026-07-28: on the subscriptions/listen stream)', async () => {
    for (const name of ['mrtr-modern', 'mrtr-dual-2025']) {
      const tool = `late_${name.replace(/\W/g, '_')}`;
      assert.ok(!s.manager.get(name)?.tools.some((t) => t.name === tool));
      await vscode.commands.executeCommand('mcpElicitation.runTool', name, 'addTool', { name: tool });
      await waitFor(() => s.manager.get(name)?.tools.some((t) => t.name === tool) === true, `${name}'s new tool listed`);
    }
  });

  test('the same form tool: identical content on the wire on every kind and revision', async () => {
    for (const server of ['mrtr-modern', 'mrtr-dual', 'mrtr-dual-2025']) {
      const result = run(server, 'form', { tag: 'same' });
      await answerBox(s, 'Ada', /What is your name\?/);
      assert.deepEqual(toolJson(await result), { action: 'accept', content: { name: 'Ada' }, requestState: null }, server);
    }
    const modern = legs('mrtr-modern', 'same');
    assert.equal(modern.length, 2);
    assert.deepEqual(modern[1]?.inputResponses, { name: { action: 'accept', content: { name: 'Ada' } } });
    assert.equal(modern[1]?.protocolVersion, '2026-07-28');
  });

  test('requestState comes back byte for byte, on a new request id', async () => {
    const result = run('mrtr-modern', 'form', { withState: true, tag: 'echo' });
    await answerBox(s, 'Grace');
    assert.deepEqual(toolJson(await result), { action: 'accept', content: { name: 'Grace' }, requestState: STATE('echo', 1) });
    const [first, retry] = legs('mrtr-modern', 'echo');
    assert.ok(first && retry);
    assert.notEqual(first.id, retry.id, 'the retry is a new request');
    assert.equal(first.hasRequestState, false);
    assert.equal(first.inputResponses, undefined);
    assert.equal(retry.requestState, STATE('echo', 1));
  });

  test('no requestState on the retry when none came', async () => {
    const result = run('mrtr-modern', 'form', { tag: 'nostate' });
    await answerBox(s, 'Lin');
    await result;
    const [, retry] = legs('mrtr-modern', 'nostate');
    assert.equal(retry?.hasRequestState, false);
  });

  test('two parallel calls to one server: each gets its own round', async () => {
    const a = run('mrtr-modern', 'form', { withState: true, tag: 'par-a', holdMs: 300 });
    const b = run('mrtr-modern', 'form', { withState: true, tag: 'par-b' });
    // b's prompt comes first (a's first answer is held back); answer in the order shown.
    await answerBox(s, 'Bee');
    await answerBox(s, 'Ay');
    const [ra, rb] = [
      toolJson(await a) as { content: { name: string }; requestState: string },
      toolJson(await b) as { content: { name: string }; requestState: string },
    ];
    assert.equal(ra.requestState, STATE('par-a', 1));
    assert.equal(rb.requestState, STATE('par-b', 1));
    assert.equal(legs('mrtr-modern', 'par-a')[1]?.requestState, STATE('par-a', 1));
    assert.equal(legs('mrtr-modern', 'par-b')[1]?.requestState, STATE('par-b', 1));
    assert.deepEqual(new Set([ra.content.name, rb.content.name]), new Set(['Ay', 'Bee']));
  });

  test('several inputs in one round: shown one after the other, sent back in one retry', async () => {
    const shown = nextPrompt(s);
    const result = run('mrtr-modern', 'multi', { tag: 'multi' });
    const first = await shown;
    // The pending list says which call, round and request is on screen, and that one more follows.
    const { callId, ...round } = s.broker.queue.list()[0]?.round ?? { call: '' };
    assert.deepEqual(round, { call: 'multi', round: 1, key: 'name', index: 1, total: 2 });
    assert.match(callId ?? '', /^mrtr-modern#/);
    const box = first.widget as vscode.InputBox;
    assert.match(box.prompt ?? '', /What is your name\?/);
    // The prompt itself says where it stands in the round.
    assert.match(box.title ?? '', /mrtr-modern.* · 1 of 2/);
    box.value = 'Kay';
    await acceptQuickInput();
    const p = await nextPrompt(s);
    const qp = p.widget as vscode.QuickPick<vscode.QuickPickItem>;
    assert.match(qp.title ?? '', /mrtr-modern.* · 2 of 2/);
    qp.activeItems = [qp.items.find((i) => i.label === 'green')!];
    await acceptQuickInput();
    assert.deepEqual(toolJson(await result), {
      name: { action: 'accept', content: { name: 'Kay' } },
      color: { action: 'accept', content: { color: 'green' } },
    });
    const all = legs('mrtr-modern', 'multi');
    assert.equal(all.length, 2);
    assert.deepEqual(Object.keys(all[1]?.inputResponses ?? {}).sort(), ['color', 'name']);
  });

  test('asks again until the answer satisfies the server', async () => {
    const result = run('mrtr-modern', 'untilValid', { tag: 'until' });
    await answerBox(s, '3', /at least 10/);
    await answerBox(s, '12', /3 is too small/);
    assert.deepEqual(toolJson(await result), { n: 12, rounds: 2 });
    const all = legs('mrtr-modern', 'until');
    assert.equal(all.length, 3);
    assert.equal(new Set(all.map((l) => l.id)).size, 3, 'every leg has its own id');
    // The history groups the call's rounds under one node: server, tool, number of rounds.
    const root = s.pendingTree.getChildren().find((n) => n.kind === 'historyRoot')!;
    const top = s.pendingTree.getChildren(root);
    const call = top[0]!;
    assert.equal(call.kind, 'call', 'the newest history node is the call');
    const item = s.pendingTree.getTreeItem(call);
    assert.equal(item.label, 'mrtr-modern: untilValid');
    assert.match(String(item.description), /^2 round\(s\)/);
    const rounds = s.pendingTree.getChildren(call).map((n) => (n.kind === 'history' ? n.item.round?.round : undefined));
    assert.deepEqual(rounds, [1, 2], 'its rounds are its children, oldest first');
    assert.equal(
      top.filter(
        (n) =>
          n.kind === 'history' && n.item.round?.call === 'untilValid' && n.item.round.callId === (call.kind === 'call' ? call.callId : ''),
      ).length,
      0,
      'and not also flat beside it',
    );
  });

  test('a server that never stops asking ends at the round limit with a clear error', async () => {
    const err = await failure(run('mrtr-modern', 'forever', { tag: 'forever' }));
    assert.match(err.message, /mrtr-modern/);
    assert.match(err.message, /10/);
    assert.equal(legs('mrtr-modern', 'forever').length, 11, 'the first leg and ten retries, then nothing');
  });

  test('decline and cancel from the pending list go back as answers', async () => {
    const declined = run('mrtr-modern', 'form', { tag: 'decline' });
    await nextPrompt(s);
    const entry = s.broker.queue.list()[0];
    assert.ok(entry);
    s.broker.queue.settle(entry.id, 'decline');
    assert.deepEqual(toolJson(await declined), { action: 'decline', requestState: null });
    const cancelled = run('mrtr-modern', 'form', { tag: 'cancel' });
    await nextPrompt(s);
    // From the list too: closing the quick input would only set the question aside.
    const open = s.broker.queue.list()[0];
    assert.ok(open);
    s.broker.queue.settle(open.id, 'cancel');
    assert.deepEqual(toolJson(await cancelled), { action: 'cancel', requestState: null });
    assert.deepEqual(legs('mrtr-modern', 'cancel')[1]?.inputResponses, { name: { action: 'cancel' } });
  });

  test('a cancelled call closes its prompt and sends no retry', async () => {
    const conn = s.manager.get('mrtr-modern');
    assert.ok(conn);
    const ac = new AbortController();
    const call = callToolWithElicitation(conn, s.broker, { name: 'form', arguments: { tag: 'abort' } }, { signal: ac.signal });
    await nextPrompt(s);
    ac.abort();
    const err = await failure(call);
    assert.match(err.message, /cancel/i);
    await waitFor(() => s.broker.queue.size === 0, 'prompt closed');
    // Give a stray retry time to arrive before asserting there was none.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(legs('mrtr-modern', 'abort').length, 1);
  });

  // needsSampling (a form and a sample in one round) is answered now that the client declares
  // sampling: see sampling.test.ts. -32021 itself is covered in test/unit/session.test.ts.

  test('an input kind we do not declare ends the call; nothing is shown', async () => {
    let shown = 0;
    const sub = s.hooks.onDidShowPrompt(() => shown++);
    try {
      const err = await failure(run('mrtr-raw', 'undeclared', {}));
      assert.match(err.message, /mrtr-raw/);
      assert.match(err.message, /experimental\/unknown/);
    } finally {
      sub.dispose();
    }
    assert.equal(shown, 0);
  });

  test('a round asking for a name and the roots at once: the form is shown, the roots answered from the workspace', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const result = run('mrtr-raw', 'roots', {});
    await answerBox(s, 'Ada', /Name\?/);
    assert.deepEqual(toolJson(await result), {
      name: { name: 'Ada' },
      where: { roots: [{ uri: folder.uri.toString(), name: folder.name }] },
    });
  });

  test('-32022 after the version was chosen: a clear error, then the connection probes again', async () => {
    const conn = s.manager.get('mrtr-raw');
    assert.ok(conn);
    const pid = conn.pid;
    const err = await failure(run('mrtr-raw', 'versionGone', {}));
    assert.match(err.message, /mrtr-raw/);
    assert.match(err.message, /2027-01-01/);
    await waitFor(() => conn.state.kind === 'running' && conn.pid !== pid, 'mrtr-raw reconnected');
    assert.equal(conn.state.kind === 'running' && conn.state.protocolVersion, '2026-07-28');
  });

  test('url mode: the consent dialog, then a retry; the server decides when it is done', async () => {
    // The consent dialog is modal (the e2e suite clicks it); here the presenter's consent step answers.
    const shown: UrlPrompt[] = [];
    const answering = s.hooks.presenter.intercept('presentUrl', () => (prompt): Promise<UrlAnswer> => {
      shown.push(prompt);
      return Promise.resolve({ action: 'accept' });
    });
    try {
      const result = await run('mrtr-modern', 'url', { url: 'https://example.com/sign-in', tag: 'url' });
      assert.deepEqual(toolJson(result), { done: true, rounds: 1 });
      assert.equal(shown.length, 1);
      assert.equal(shown[0]?.url, 'https://example.com/sign-in');
      assert.deepEqual(legs('mrtr-modern', 'url')[1]?.inputResponses, { login: { action: 'accept' } });
      assert.equal(s.broker.queue.size, 0, 'no browser step left pending');
    } finally {
      answering.dispose();
    }
  });
});
