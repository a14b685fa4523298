// Issue 21 in the real extension host: a 2026-07-28 server whose every tool declares an
// `outputSchema` (test/fixtures/outputSchemaFixture.mjs, SDK v2) over stdio and over Streamable
// HTTP, asked through Run Tool and through the agent gateway, for tools/call, prompts/get and
// resources/read rounds; and the hand-written server's answers no SDK server sends
// (rawModernServer.mjs, tools out*). Assertions about the protocol read what the server received.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { TestServices } from '../host/testServices';
import { keyHeaders } from '../../src/gateway/admission';
import { invoke, startAsAgent } from './agent';
import { acceptQuickInput, nextPrompt, services, skipSamplingReview, startHttpFixture, waitFor, waitForRunning } from './helpers';

const RECORD_DIR = process.env['MCP_TEST_RECORD_DIR'] ?? '';
const fixture = (name: string): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', name);
const record = (server: string): string => path.join(RECORD_DIR, `${server}.jsonl`);
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

const STDIO = 'os-stdio';
const HTTP = 'os-http';
const RAW = 'os-raw';
const RAW_HTTP = 'os-raw-http';
const MODERN = [STDIO, HTTP] as const;
const RAWS = [RAW, RAW_HTTP] as const;

interface Received {
  readonly kind: string;
  readonly id: string | number;
  readonly method: string;
  readonly tag?: string;
  readonly inputResponses?: Record<string, { action: string; content?: Record<string, unknown> }>;
}

/** The requests `server` received: `tools/call` legs tagged `tag`, or every leg of `method`. */
function received(server: string, filter: (r: Received) => boolean): Received[] {
  const file = record(server);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Received)
    .filter((r) => r.kind === 'received' && filter(r));
}
const tagged = (server: string, tag: string): Received[] => received(server, (r) => r.tag === tag);

function run(server: string, tool: string, args: Record<string, unknown>): Promise<unknown> {
  return Promise.resolve(vscode.commands.executeCommand('mcpElicitation.runTool', server, tool, args));
}
const structured = (r: unknown): unknown => (r as { structuredContent?: unknown }).structuredContent;

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

/** Picks `label` in the next QuickPick. */
async function answerPick(s: TestServices, label: string): Promise<void> {
  const p = await nextPrompt(s);
  const qp = p.widget as vscode.QuickPick<vscode.QuickPickItem>;
  const item = qp.items.find((i) => i.label === label);
  assert.ok(item, `${label} offered`);
  qp.activeItems = [item];
  await acceptQuickInput();
}

/** Starts modernHttpServer.mjs serving the output-schema fixture; resolves with its URL. */
const httpServer = (name: string, children: ChildProcess[]): Promise<string> =>
  startHttpFixture(fixture('modernHttpServer.mjs'), ['0', name, 'outschema'], children, { FIXTURE_RECORD: record(name) });

suite('Issue 21: a 2026-07-28 tool with an output schema asks (stdio and HTTP, Run Tool and the gateway)', () => {
  let s: TestServices;
  let saved: unknown;
  let savedRate: unknown;
  const children: ChildProcess[] = [];

  suiteSetup(async function () {
    this.timeout(90_000);
    s = await services();
    saved = config().inspect('servers')?.workspaceValue;
    savedRate = config().inspect('rateLimit')?.workspaceValue;
    await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    const url = await httpServer(HTTP, children);
    const rawUrl = await startHttpFixture(fixture('rawModernServer.mjs'), [RAW_HTTP, 'http'], children, {
      FIXTURE_RECORD: record(RAW_HTTP),
    });
    await config().update(
      'servers',
      {
        ...(saved as Record<string, unknown> | undefined),
        [STDIO]: { command: 'node', args: [fixture('outputSchemaStdioServer.mjs'), STDIO], env: { FIXTURE_RECORD: record(STDIO) } },
        [HTTP]: { type: 'http', url },
        [RAW]: { command: 'node', args: [fixture('rawModernServer.mjs'), RAW], env: { FIXTURE_RECORD: record(RAW) } },
        [RAW_HTTP]: { type: 'http', url: rawUrl },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    for (const n of [...MODERN, ...RAWS]) await waitForRunning(s, n);
    await waitFor(
      () => [...MODERN, ...RAWS].every((n) => s.manager.get(n)?.ready === true && s.gateway.has(n)),
      'tools listed and gateway endpoints open',
    );
    for (const n of MODERN) await startAsAgent(n, 'book');
    for (const n of RAWS) await startAsAgent(n, 'outEmptyRound');
  });
  suiteTeardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await config().update('servers', saved, vscode.ConfigurationTarget.Workspace);
    await config().update('rateLimit', savedRate, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => ![...MODERN, ...RAWS].some((n) => s.manager.get(n)), 'servers removed');
    for (const c of children.splice(0)) c.kill('SIGTERM');
  });
  // A failed test must not leave its prompt open in front of the next one.
  teardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  test('both servers speak 2026-07-28 and every tool declares an output schema', () => {
    for (const n of MODERN) {
      const conn = s.manager.get(n);
      assert.equal(conn?.state.kind === 'running' ? conn.state.protocolVersion : undefined, '2026-07-28', n);
      assert.ok(
        conn && conn.tools.length >= 4 && conn.tools.every((t) => t.outputSchema !== undefined),
        `${n}: ${conn?.tools.map((t) => t.name).join(', ')}`,
      );
    }
  });

  test('Run Tool: the round is a prompt, the retry carries the answer, the structured result comes back', async () => {
    for (const n of MODERN) {
      const result = run(n, 'book', { party: 3, tag: `run-${n}` });
      await answerBox(s, 'Ada', /Name for the booking\?/);
      assert.deepEqual(structured(await result), { name: 'Ada', party: 3 }, n);
      const legs = tagged(n, `run-${n}`);
      assert.equal(legs.length, 2, `${n}: one call, one retry`);
      assert.notEqual(legs[0]?.id, legs[1]?.id);
      assert.deepEqual(legs[1]?.inputResponses, { name: { action: 'accept', content: { name: 'Ada' } } });
    }
  });

  test('Run Tool: a tool that needs two rounds asks twice', async () => {
    for (const n of MODERN) {
      const result = run(n, 'twoRounds', { tag: `two-${n}` });
      await answerBox(s, 'Bo', /Name for the booking\?/);
      await answerPick(s, '20:00');
      assert.deepEqual(structured(await result), { name: 'Bo', time: '20:00', rounds: 2 }, n);
      assert.equal(tagged(n, `two-${n}`).length, 3, n);
    }
  });

  test('Run Tool: a form-only round succeeds; form, roots and a sample at once: the form is asked, the roots answered, and with no model the sample ends the call with a clear error', async () => {
    // No model in the host for this test, whatever an earlier suite registered: the refusal is the
    // one outcome a round without a sample reply can have (sampling.test.ts covers the reply).
    await vscode.commands.executeCommand('mcpTest.samplingModel.unregister');
    for (const n of MODERN) {
      const ok = run(n, 'ask', { kinds: ['form'], tag: `form-${n}` });
      await answerBox(s, 'Cy');
      assert.deepEqual(structured(await ok), { answered: ['Cy'] }, n);
      const all = failure(run(n, 'ask', { kinds: ['form', 'roots', 'sampling'], tag: `all-${n}` }));
      await answerBox(s, 'Di');
      const err = await all;
      assert.match(
        err.message,
        new RegExp(`${n}. asked ask for a language model reply, which was not given \\(No language model is available`),
        `${n}: ${err.message}`,
      );
      assert.equal(tagged(n, `all-${n}`).length, 1, `${n}: no retry without the sample`);
    }
  });

  test('with a model and the server set to allow: form, roots and a sample in one round, through Run Tool and the gateway; the retry carries all three and the structured result arrives', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the test host opens a folder');
    const savedPolicy = config().inspect('serverPolicy')?.workspaceValue;
    await vscode.commands.executeCommand('mcpTest.samplingModel.register');
    try {
      assert.equal((await vscode.lm.selectChatModels({ vendor: 'mcp-test-sampling' })).length, 2, 'the test models are registered');
      // The user's own skipReview sends the sample to the model without the consent (sampling.test.ts
      // covers the consent); the form is still shown and answered.
      await config().update(
        'serverPolicy',
        { ...(savedPolicy as Record<string, unknown> | undefined), [STDIO]: 'allow', [HTTP]: 'allow' },
        vscode.ConfigurationTarget.Workspace,
      );
      await waitFor(() => MODERN.every((n) => s.gatekeeper.explicitPolicy(n) === 'allow'), 'policy in force');
      await skipSamplingReview(MODERN);
      await vscode.commands.executeCommand('mcpTest.samplingModel.received');
      for (const n of MODERN) {
        const all = run(n, 'ask', { kinds: ['form', 'roots', 'sampling'], tag: `model-${n}` });
        await answerBox(s, 'Eli', /Name for the booking\?/);
        const r = (await all) as { structuredContent?: { answered?: string[] } };
        const reply = r.structuredContent?.answered?.[2] ?? '';
        assert.deepEqual(r.structuredContent?.answered?.slice(0, 2), ['Eli', folder.uri.toString()], n);
        assert.match(reply, /^sampling-(large|mini) heard: Suggest a table$/, n);
        const legs = tagged(n, `model-${n}`);
        assert.equal(legs.length, 2, `${n}: one call, one retry`);
        const answers = legs[1]?.inputResponses as Record<string, unknown> | undefined;
        assert.deepEqual(answers?.['name'], { action: 'accept', content: { name: 'Eli' } }, n);
        assert.deepEqual(answers?.['where'], { roots: [{ uri: folder.uri.toString(), name: folder.name }] }, n);
        assert.deepEqual((answers?.['llm'] as { content?: unknown } | undefined)?.content, { type: 'text', text: reply }, n);
        assert.equal((answers?.['llm'] as { role?: unknown } | undefined)?.role, 'assistant', n);
      }
      // The agent, through the gateway: the same round, answered by us, the same result.
      for (const n of MODERN) {
        const call = invoke(n, 'ask', { kinds: ['form', 'roots', 'sampling'], tag: `gw-model-${n}` });
        await answerBox(s, 'Flo', /Name for the booking\?/);
        const answered = (JSON.parse(await call) as { answered: string[] }).answered;
        assert.deepEqual(answered.slice(0, 2), ['Flo', folder.uri.toString()], n);
        assert.match(answered[2] ?? '', /^sampling-(large|mini) heard: Suggest a table$/, n);
        assert.equal(tagged(n, `gw-model-${n}`).length, 2, `${n}: one call, one retry`);
      }
      const got = (await vscode.commands.executeCommand<{ messages: { text: string }[] }[]>('mcpTest.samplingModel.received')) ?? [];
      assert.deepEqual(
        got.map((g) => g.messages.at(-1)?.text),
        Array.from({ length: 4 }, () => 'Suggest a table'),
        'one model request per call',
      );
    } finally {
      await skipSamplingReview(undefined);
      await config().update('serverPolicy', savedPolicy, vscode.ConfigurationTarget.Workspace);
      await vscode.commands.executeCommand('mcpTest.samplingModel.unregister');
    }
  });

  test('the final result is still checked (stdio and HTTP): none structured is the tool error, of the wrong shape too; isError passes', async () => {
    for (const n of RAWS) {
      const noStructured = run(n, 'outNoStructured', {});
      await answerBox(s, 'Fay');
      assert.match((await failure(noStructured)).message, /outNoStructured has an output schema but did not return structured content/, n);
      const wrong = run(n, 'outWrongShape', {});
      await answerBox(s, 'Gus');
      assert.match((await failure(wrong)).message, /does not match the tool's output schema/, n);
    }
    const refused = run(STDIO, 'refuse', { tag: 'refuse' });
    await answerBox(s, 'Hal');
    const r = (await refused) as { isError?: boolean; content: { text: string }[] };
    assert.equal(r.isError, true);
    assert.equal(r.content[0]?.text, 'No table for Hal');
  });

  test('bad input over stdio and Streamable HTTP, through Run Tool and the gateway: a round with structuredContent, an empty round, a result with inputRequests: each a clear error, no retry, nothing pending', async () => {
    let shown = 0;
    const sub = s.hooks.onDidShowPrompt(() => shown++);
    const legs = (n: string, tool: string): number => received(n, (r) => (r as { tool?: string }).tool === tool).length;
    try {
      const cases: [string, RegExp][] = [
        ['outRoundWithResult', /also carries a result \(structuredContent\)/],
        ['outEmptyRound', /asks for nothing/],
        ['outResultWithRequests', /still asks for input \(inputRequests\)/],
      ];
      for (const n of RAWS) {
        for (const [tool, expected] of cases) {
          const before = legs(n, tool);
          const err = await failure(run(n, tool, {}));
          assert.match(err.message, new RegExp(`${n}.*${tool}`), `${n} ${tool}`);
          assert.match(err.message, expected, `${n} ${tool}`);
          // The agent, through the gateway: the same reason, as an error (VS Code may throw it or return it as text).
          const agent = await invoke(n, tool, {}).then(
            (text) => text,
            (e: unknown) => (e instanceof Error ? e.message : String(e)),
          );
          assert.match(agent, expected, `${n} ${tool} through the gateway: ${agent}`);
          assert.equal(legs(n, tool) - before, 2, `${n} ${tool}: one leg per call, no retry`);
        }
      }
    } finally {
      sub.dispose();
    }
    assert.equal(shown, 0);
    assert.equal(s.broker.queue.size, 0);
  });

  test('gateway: a tool that needs two rounds (stdio and HTTP): the agent’s call is asked twice, each retry carries its answer, and the final result passes the output schema', async () => {
    for (const n of MODERN) {
      const call = invoke(n, 'twoRounds', { tag: `gw-two-${n}` });
      await answerBox(s, 'Ivy', /Name for the booking\?/);
      await answerPick(s, '20:00');
      assert.deepEqual(JSON.parse(await call), { name: 'Ivy', time: '20:00', rounds: 2 }, n);
      const sent = tagged(n, `gw-two-${n}`);
      assert.equal(sent.length, 3, `${n}: one call, two retries`);
      assert.deepEqual(sent[1]?.inputResponses, { name: { action: 'accept', content: { name: 'Ivy' } } }, n);
      assert.deepEqual(sent[2]?.inputResponses, { time: { action: 'accept', content: { time: '20:00' } } }, n);
    }
    // A client of the gateway that checks output schemas as the SDK does: it lists the tools (with
    // their schemas, relayed) and validates the structured result of the two-round call against it.
    for (const n of MODERN) {
      const def = s.gateway.definitions().find((d) => d.name === n);
      assert.ok(def, `${n} has a gateway endpoint`);
      const client = new Client({ name: 'gateway-schema-check', version: '0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(def.url), { requestInit: { headers: keyHeaders(s.gateway.secret) } }));
      try {
        const listed = (await client.listTools()).tools.find((t) => t.name === 'twoRounds');
        assert.deepEqual(listed?.outputSchema?.['required'], ['name', 'time', 'rounds'], `${n}: the output schema reaches the agent`);
        const result = client.callTool({ name: 'twoRounds', arguments: { tag: `gw-schema-${n}` } });
        await answerBox(s, 'Jo');
        await answerPick(s, '20:00');
        assert.deepEqual((await result).structuredContent, { name: 'Jo', time: '20:00', rounds: 2 }, n);
      } finally {
        await client.close();
      }
    }
  });

  test('gateway: the agent calls a tool with an output schema; our prompt answers its round', async () => {
    for (const n of MODERN) {
      const call = invoke(n, 'book', { party: 5, tag: `gw-${n}` });
      const p = await nextPrompt(s);
      const box = p.widget as vscode.InputBox;
      assert.match(box.title ?? '', new RegExp(n), 'attributed to the server');
      box.value = 'Grace';
      await acceptQuickInput();
      assert.deepEqual(JSON.parse(await call), { name: 'Grace', party: 5 }, n);
      assert.deepEqual(tagged(n, `gw-${n}`)[1]?.inputResponses, { name: { action: 'accept', content: { name: 'Grace' } } });
    }
  });

  test('gateway: prompts/get and resources/read rounds of the same servers', async () => {
    for (const n of MODERN) {
      const def = s.gateway.definitions().find((d) => d.name === n);
      assert.ok(def, `${n} has a gateway endpoint`);
      const client = new Client({ name: 'gateway-probe', version: '0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(def.url), { requestInit: { headers: keyHeaders(s.gateway.secret) } }));
      try {
        const prompt = client.getPrompt({ name: 'greeting' });
        await answerBox(s, 'Kay', /Name for the booking\?/);
        assert.deepEqual((await prompt).messages[0]?.content, { type: 'text', text: 'Hello Kay' }, n);
        const resource = client.readResource({ uri: 'outschema://secret' });
        await answerBox(s, 'sesame', /Passphrase\?/);
        assert.deepEqual((await resource).contents[0], { uri: 'outschema://secret', text: 'opened with sesame' }, n);
      } finally {
        await client.close();
      }
      assert.equal(received(n, (r) => r.method === 'prompts/get').length, 2, `${n}: prompts/get and its retry`);
      assert.equal(received(n, (r) => r.method === 'resources/read').length, 2, `${n}: resources/read and its retry`);
    }
  });
});
