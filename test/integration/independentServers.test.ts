// Issue 24, "How it will be checked": servers the team did not build with the official TypeScript
// SDK, which ask for roots, a sample and a form, each alone and all in one round, in both eras.
// - pyServer.py: Python's standard library only, JSON-RPC written from the spec, over stdio and over
//   Streamable HTTP (its own framing: CRLF event streams, comments, events split over chunks, a
//   2025 session, 2026 header checks), so the HTTP client meets a server that is not the SDK's;
// - tmcpServer.mjs: `tmcp`, a TypeScript MCP SDK of its own (no @modelcontextprotocol/sdk), which
//   answers our 2025-11-25 `initialize` with 2025-06-18 and sends no roots in 2026-07-28.
// Each runs twice, once pinned to the 2025 handshake
// (pushed requests) and once left to `auto` (2026-07-28 `input_required` rounds). What a tool
// returns is what the server received from us, so the assertions read the wire.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { FormPrompt } from '../../src/elicitation/presenter';
import type { AnswerContent, AnswerValue } from '../../src/shared/fieldModel';
import { callToolWithElicitation } from '../../src/servers/toolRunner';
import { answering, nextPrompt, services, setPolicy, skipSamplingReview, startHttpFixture, waitFor, waitForRunning } from './helpers';
import { recordedLines, recordFile } from './fixtureRecord';

const fixture = (name: string): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', name);
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

interface Independent {
  /** The name in `mcpElicitation.servers`. */
  readonly name: string;
  /** Called once the HTTP servers have their addresses. */
  readonly definition: () => Record<string, unknown>;
  /** The revision the server reports it spoke (`era` in its answers). */
  readonly era: string;
  /** What the server can ask for in this era (a library may not offer every kind). */
  readonly kinds: readonly Kind[];
}
type Kind = 'roots' | 'sample' | 'form';

const python = (name: string, protocolVersion?: string) => (): Record<string, unknown> => ({
  command: 'python3',
  args: [fixture('pyServer.py'), name],
  env: { FIXTURE_RECORD: recordFile(name) },
  ...(protocolVersion ? { protocolVersion } : {}),
});

/** The Python server's HTTP processes, by name, started in suiteSetup. */
const httpUrls = new Map<string, string>();
const pythonHttp = (name: string, protocolVersion?: string) => (): Record<string, unknown> => ({
  type: 'http',
  url: httpUrls.get(name),
  ...(protocolVersion ? { protocolVersion } : {}),
});

const tmcp = (name: string, protocolVersion?: string) => (): Record<string, unknown> => ({
  command: 'node',
  args: [fixture('tmcpServer.mjs'), name],
  ...(protocolVersion ? { protocolVersion } : {}),
});

const SERVERS: readonly Independent[] = [
  { name: 'py-2025', definition: python('py-2025', '2025-11-25'), era: '2025-11-25', kinds: ['roots', 'sample', 'form'] },
  { name: 'py-modern', definition: python('py-modern', '2026-07-28'), era: '2026-07-28', kinds: ['roots', 'sample', 'form'] },
  { name: 'py-http-2025', definition: pythonHttp('py-http-2025', '2025-11-25'), era: '2025-11-25', kinds: ['roots', 'sample', 'form'] },
  { name: 'py-http-modern', definition: pythonHttp('py-http-modern', '2026-07-28'), era: '2026-07-28', kinds: ['roots', 'sample', 'form'] },
  // tmcp reports no revision for a session; the handshake settles on its newest, 2025-06-18.
  { name: 'tmcp-2025', definition: tmcp('tmcp-2025', '2025-11-25'), era: 'session', kinds: ['roots', 'sample', 'form'] },
  { name: 'tmcp-modern', definition: tmcp('tmcp-modern', '2026-07-28'), era: '2026-07-28', kinds: ['sample', 'form'] },
];

/** What the Python server recorded: every message it received, responses to its requests included. */
const received = (server: string): Record<string, unknown>[] => recordedLines(recordFile(server));

interface Answers {
  readonly era?: string;
  readonly roots?: { roots: { uri: string; name?: string }[] };
  readonly sample?: { role: string; content: { type: string; text: string }; model: string };
  readonly form?: { action: string; content?: Record<string, unknown> };
  readonly error?: string;
}

async function ask(server: string, what: readonly Kind[], text = 'Hello from an independent server'): Promise<Answers> {
  const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', server, 'ask', {
    what,
    text,
  });
  return JSON.parse(r.content[0]?.text ?? 'null') as Answers;
}

suite('Independent servers: other languages and SDKs ask for roots, samples and forms (issue 24)', () => {
  let s: TestServices;
  let savedServers: unknown;
  let savedPolicy: unknown;
  let savedRate: unknown;
  const children: ChildProcess[] = [];

  suiteSetup(async function () {
    this.timeout(120_000);
    s = await services();
    for (const x of SERVERS.filter((y) => y.name.startsWith('py-http-'))) {
      const env = { FIXTURE_RECORD: recordFile(x.name) };
      httpUrls.set(x.name, await startHttpFixture(fixture('pyServer.py'), [x.name, '--http', '0'], children, env, 'python3'));
    }
    savedServers = config().inspect('servers')?.workspaceValue;
    savedPolicy = config().inspect('serverPolicy')?.workspaceValue;
    savedRate = config().inspect('rateLimit')?.workspaceValue;
    await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    await config().update(
      'servers',
      { ...(savedServers as Record<string, unknown> | undefined), ...Object.fromEntries(SERVERS.map((x) => [x.name, x.definition()])) },
      vscode.ConfigurationTarget.Workspace,
    );
    // Their samples go to the model with no consent (the user's own skipReview; the consent has its
    // own tests in sampling.test.ts); forms are still shown, and answered below in the user's place.
    await setPolicy(s, Object.fromEntries(SERVERS.map((x) => [x.name, 'allow'])));
    await skipSamplingReview(SERVERS.map((x) => x.name));
    await vscode.commands.executeCommand('mcpTest.samplingModel.register');
    for (const x of SERVERS) await waitForRunning(s, x.name);
  });
  suiteTeardown(async () => {
    await skipSamplingReview(undefined);
    // sampling.test.ts starts from a VS Code without models.
    await vscode.commands.executeCommand('mcpTest.samplingModel.unregister');
    await config().update('servers', savedServers, vscode.ConfigurationTarget.Workspace);
    await config().update('serverPolicy', savedPolicy, vscode.ConfigurationTarget.Workspace);
    await config().update('rateLimit', savedRate, vscode.ConfigurationTarget.Workspace);
    for (const child of children) child.kill();
  });
  teardown(async () => {
    s.broker.queue.cancelAll();
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  const folderRoots = (): { uri: string; name: string }[] => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opens a folder');
    return [{ uri: folder.uri.toString(), name: folder.name }];
  };

  for (const x of SERVERS) {
    test(`${x.name}: ${x.kinds.join(', ')}, each alone (${x.era})`, async function () {
      this.timeout(60_000);
      const { prompts, done } = answering(s, () => ({ action: 'accept', content: { name: 'Ada' } }));
      try {
        if (x.kinds.includes('roots')) assert.deepEqual(await ask(x.name, ['roots']), { era: x.era, roots: { roots: folderRoots() } });
        if (x.kinds.includes('sample')) {
          const r = await ask(x.name, ['sample'], 'alone');
          assert.equal(r.era, x.era);
          assert.deepEqual(
            [r.sample?.role, r.sample?.content, r.sample?.model],
            ['assistant', { type: 'text', text: `${r.sample?.model ?? ''} heard: alone` }, r.sample?.model],
          );
          assert.match(r.sample?.model ?? '', /^sampling-(large|mini)$/);
        }
        if (x.kinds.includes('form')) {
          assert.deepEqual(await ask(x.name, ['form']), { era: x.era, form: { action: 'accept', content: { name: 'Ada' } } });
          assert.equal(prompts.at(-1)?.asker.name, x.name, 'the form names the server that asks');
        }
      } finally {
        done.dispose();
      }
    });

    test(`${x.name}: all of them in one round (${x.era})`, async function () {
      this.timeout(60_000);
      const { prompts, done } = answering(s, () => ({ action: 'accept', content: { name: 'Grace' } }));
      try {
        const r = await ask(x.name, x.kinds, 'together: grüße ✓');
        assert.equal(r.era, x.era);
        if (x.kinds.includes('roots')) assert.deepEqual(r.roots, { roots: folderRoots() });
        if (x.kinds.includes('sample')) assert.equal(r.sample?.content.text, `${r.sample?.model ?? ''} heard: together: grüße ✓`);
        assert.deepEqual(r.form, { action: 'accept', content: { name: 'Grace' } });
        assert.equal(prompts.length, 1, 'one form, however many questions came with it');
      } finally {
        done.dispose();
      }
      const history = s.broker.queue.history.list().slice(x.kinds.includes('sample') ? -2 : -1);
      assert.deepEqual(
        history.map((h) => [h.asker.name, h.mode, h.action]).sort(),
        x.kinds.includes('sample')
          ? [
              [x.name, 'form', 'accept'],
              [x.name, 'sampling', 'accept'],
            ]
          : [[x.name, 'form', 'accept']],
        'the sample and the form are in the history like any question',
      );
    });
  }

  for (const x of SERVERS) {
    test(`${x.name}: without the user's skipReview, the sample's consent and review and the form, asked at once, are each shown and answered (${x.era})`, async function () {
      this.timeout(60_000);
      await setPolicy(s, Object.fromEntries(SERVERS.filter((y) => y !== x).map((y) => [y.name, 'allow'])));
      await skipSamplingReview(SERVERS.filter((y) => y !== x).map((y) => y.name));
      const { prompts, done } = answering(s, (p) => {
        const keys = p.form.fields.map((f) => f.key);
        // The form asks for a name; the consent and the review are accepted as shown.
        if (keys.includes('name')) return { action: 'accept', content: { name: 'Kim' } };
        const content: AnswerContent = {};
        for (const f of p.form.fields) if (f.default !== undefined) content[f.key] = f.default as AnswerValue;
        return { action: 'accept', content };
      });
      try {
        const r = await ask(x.name, ['sample', 'form'], 'consented');
        assert.equal(r.sample?.content.text, `${r.sample?.model ?? ''} heard: consented`);
        assert.deepEqual(r.form, { action: 'accept', content: { name: 'Kim' } });
        assert.deepEqual(
          prompts.map((p) => p.asker.name),
          [x.name, x.name, x.name],
        );
        const kind = (p: FormPrompt): string => {
          const keys = p.form.fields.map((f) => f.key);
          return keys.includes('name') ? 'form' : keys.includes('reply') ? 'review' : keys.includes('model') ? 'consent' : keys.join();
        };
        assert.deepEqual(prompts.map(kind).sort(), ['consent', 'form', 'review']);
        assert.ok(prompts.map(kind).indexOf('consent') < prompts.map(kind).indexOf('review'), 'the reply is reviewed after the consent');
      } finally {
        done.dispose();
        await setPolicy(s, Object.fromEntries(SERVERS.map((y) => [y.name, 'allow'])));
        await skipSamplingReview(SERVERS.map((y) => y.name));
      }
    });
  }

  for (const x of SERVERS) {
    test(`${x.name}: cancelling the call closes the form it raised (${x.era})`, async function () {
      this.timeout(60_000);
      const conn = s.manager.get(x.name);
      assert.ok(conn);
      const before = received(x.name).length;
      const ac = new AbortController();
      const text = `cancel me ${Date.now()}`;
      const done = callToolWithElicitation(
        conn,
        s.broker,
        { name: 'ask', arguments: { what: ['form'], text } },
        { signal: ac.signal },
      ).then(
        () => 'settled',
        () => 'rejected',
      );
      const shown = await nextPrompt(s);
      assert.match(shown.widget?.title ?? '', new RegExp(x.name), 'the form is on screen, naming the server');
      ac.abort();
      await done;
      await waitFor(() => s.broker.queue.size === 0, 'the form closed');
      const last = s.broker.queue.history.list().at(-1);
      assert.deepEqual([last?.asker.name, last?.action, last?.decidedBy], [x.name, 'cancel', 'callCancel']);
      if (!x.name.startsWith('py-')) return;
      // What the Python server got: the cancellation of its call and, in 2025, `cancel` for its question.
      const calls = (): Record<string, unknown>[] => received(x.name).slice(before);
      const call = calls().find((r) => r['method'] === 'tools/call');
      assert.ok(call, 'the call reached the server');
      if (x.era === '2026-07-28') {
        assert.equal(calls().filter((r) => r['method'] === 'tools/call').length, 1, 'no retry after the cancel');
      } else {
        await waitFor(() => calls().some((r) => r['kind'] === 'response'), 'the server got an answer to its question');
        assert.deepEqual(
          calls()
            .filter((r) => r['kind'] === 'response')
            .map((r) => r['result']),
          [{ action: 'cancel' }],
        );
        await waitFor(
          () =>
            calls().some(
              (r) => r['method'] === 'notifications/cancelled' && (r['params'] as { requestId?: unknown }).requestId === call['id'],
            ),
          'the server heard its call cancelled',
        );
      }
    });
  }

  test('the log level reaches the Python server in both eras: logging/setLevel (2025), _meta on every tools request (2026-07-28)', async () => {
    await ask('py-modern', []);
    const setLevel = received('py-2025').filter((r) => r['method'] === 'logging/setLevel');
    const level = (setLevel.at(-1)?.['params'] as { level?: string } | undefined)?.level;
    assert.match(level ?? '', /^(debug|info|notice|warning|error|critical|alert|emergency)$/, 'py-2025 was told a level');
    const metaLevels = received('py-modern')
      .filter((r) => r['kind'] === 'received' && String(r['method']).startsWith('tools/'))
      .map((r) => (r['params'] as { _meta?: Record<string, unknown> })._meta?.['io.modelcontextprotocol/logLevel']);
    assert.ok(metaLevels.length > 0);
    assert.deepEqual([...new Set(metaLevels)], [level], 'every 2026-07-28 tools request carries the same level');
  });

  for (const x of SERVERS.filter((y) => y.name.startsWith('py-http-'))) {
    test(`${x.name}: a call whose event stream ends unanswered fails at once${x.era === '2026-07-28' ? ', after one re-issue' : ''} (${x.era})`, async function () {
      // Without the fix the call waited for its fifteen-minute deadline: this timeout fails it.
      this.timeout(30_000);
      const conn = s.manager.get(x.name);
      assert.ok(conn);
      const before = received(x.name).length;
      const vanish = (key: string, times: number): Promise<unknown> =>
        callToolWithElicitation(conn, s.broker, { name: 'vanish', arguments: { key, times } }, {});
      const key = `k${Date.now()}`;
      const calls = (k: string): Record<string, unknown>[] =>
        received(x.name)
          .slice(before)
          .filter((r) => r['method'] === 'tools/call' && (r['params'] as { arguments?: { key?: string } }).arguments?.key === k);
      if (x.era === '2026-07-28') {
        // 2026-07-28 has no resumption: the client re-issues the request once, with a new id.
        const r = (await vanish(key, 1)) as { content: { text: string }[] };
        assert.deepEqual(JSON.parse(r.content[0]?.text ?? 'null'), { key, calls: 2 });
        const ids = calls(key).map((c) => c['id']);
        assert.equal(ids.length, 2);
        assert.notEqual(ids[0], ids[1], 'the re-issued request has a new id');
        await assert.rejects(vanish(`${key}-twice`, 2), /ended the stream of this tools\/call without answering it/);
        assert.equal(calls(`${key}-twice`).length, 2, 'sent again once, not more');
      } else {
        // 2025: the client tries to resume the stream (the server has no resumption: 405), then fails the call.
        await assert.rejects(vanish(key, 1), /ended the stream of this tools\/call without answering it/);
        assert.equal(calls(key).length, 1, 'a 2025 call is not sent twice');
      }
      // The server is still there for the next call.
      const r = (await vanish(key, 0)) as { content: { text: string }[] };
      assert.equal((JSON.parse(r.content[0]?.text ?? 'null') as { key: string }).key, key);
    });
  }

  for (const x of SERVERS.filter((y) => y.name.startsWith('py-'))) {
    test(`${x.name}: a 12 MB answer arrives, as it does when VS Code runs the server (${x.era})`, async function () {
      // Over stdio the SDK's 10 MiB line limit closed the connection ("Connection closed").
      this.timeout(60_000);
      const conn = s.manager.get(x.name);
      assert.ok(conn);
      const r = (await callToolWithElicitation(
        conn,
        s.broker,
        { name: 'echo', arguments: { text: 'ab'.repeat(512), repeat: 12 * 1024 } },
        {},
      )) as {
        content: { text: string }[];
      };
      const { text } = JSON.parse(r.content[0]?.text ?? 'null') as { text: string };
      assert.equal(text.length, 12 * 1024 * 1024);
      assert.equal(text, 'ab'.repeat(6 * 1024 * 1024));
      assert.equal(s.manager.get(x.name), conn, 'the same connection');
      assert.equal(conn.state.kind, 'running', 'the server is still running');
    });
  }

  test('a declined form reaches each independent server as `decline`, with no content', async function () {
    this.timeout(60_000);
    const { done } = answering(s, () => ({ action: 'decline' }));
    try {
      for (const x of SERVERS) assert.deepEqual((await ask(x.name, ['form'])).form, { action: 'decline' }, x.name);
    } finally {
      done.dispose();
    }
  });
});
