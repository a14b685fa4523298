// Issue 40, "How it will be checked", in the real host with default settings: servers written with
// FastMCP 4, the official Python SDK and the TypeScript SDK v2 as their documentation shows
// (test/fixtures/py, test/fixtures/eraTsServer.mjs), over stdio and Streamable HTTP, with no
// `protocolVersion`. Every question each one asks reaches the UI through Run Tool, with VS Code's
// AI features off and on, and through VS Code's agent (the gateway). FastMCP's mixed server and
// the TypeScript SDK's stateless HTTP serving need 2026-07-28 for some tools: those calls work
// after the one offer to reconnect, answered here in the user's place.
//
// Each copy tells its config name as its own (MCP_FIXTURE_NAME): VS Code names the agent's tools
// after the name a server tells, which the stdio and HTTP copies of a fixture would share. The
// names are short, since VS Code shortens longer ones, and none ends another.
//
// Why `zy_`: this suite turns VS Code's AI features off and on (see zy_runToolSources.test.ts).
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { EraSwitchOffer } from '../../src/servers/connectionDeps';
import { acceptAll } from '../host/validAnswer';
import { answering, services, setPolicy, startHttpFixture, waitFor, waitForRunning } from './helpers';
import { invoke, startAsAgent } from './agent';

const ROOT = process.env['MCP_TEST_REPO_ROOT'] ?? '';
const PYTHON = process.env['MCP_TEST_PYTHON'] ?? 'python3';
const py = (f: string): string => path.join(ROOT, 'test', 'fixtures', 'py', f);
const ts = path.join(ROOT, 'test', 'fixtures', 'eraTsServer.mjs');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
const chat = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('chat');

interface Framework {
  readonly name: string;
  /** stdio: the command line; http: the script started in suiteSetup. */
  readonly command: string;
  readonly args: readonly string[];
  readonly http: boolean;
  /** The tools that ask, with their arguments. */
  readonly tools: Readonly<Record<string, object>>;
  /** Tools that need 2026-07-28 from this server, so the first call of each is offered a reconnect. */
  readonly modernTools?: readonly string[];
}

const IMPERATIVE = { ask_text: {}, ask_integer: {}, ask_confirm: {}, ask_choice: {}, ask_multi: {}, ask_titled: {}, ask_form: {} };
const FRAMEWORKS: readonly Framework[] = [
  { name: 'fmimp', command: PYTHON, args: [py('fastmcp_imperative.py')], http: false, tools: IMPERATIVE },
  { name: 'fmimp-h', command: PYTHON, args: [py('fastmcp_imperative.py')], http: true, tools: IMPERATIVE },
  {
    name: 'fmmrtr',
    command: PYTHON,
    args: [py('fastmcp_mrtr.py')],
    http: false,
    tools: { mrtr_text: {}, mrtr_confirm: {} },
    modernTools: ['mrtr_text'],
  },
  {
    name: 'fmmix',
    command: PYTHON,
    args: [py('fastmcp_mixed.py')],
    http: false,
    tools: { ask_imperative: {}, ask_mrtr: {} },
    modernTools: ['ask_mrtr'],
  },
  {
    name: 'fmmix-h',
    command: PYTHON,
    args: [py('fastmcp_mixed.py')],
    http: true,
    tools: { ask_imperative: {}, ask_mrtr: {} },
    modernTools: ['ask_mrtr'],
  },
  { name: 'pyimp', command: PYTHON, args: [py('pysdk_imperative.py')], http: false, tools: { book: {}, confirm: {} } },
  { name: 'pyimp-h', command: PYTHON, args: [py('pysdk_imperative.py')], http: true, tools: { book: {}, confirm: {} } },
  {
    name: 'pyres',
    command: PYTHON,
    args: [py('pysdk_resolver.py')],
    http: false,
    tools: { book: {}, deploy: { target: 'prod' } },
  },
  {
    name: 'pyres-h',
    command: PYTHON,
    args: [py('pysdk_resolver.py')],
    http: true,
    tools: { book: {}, deploy: { target: 'prod' } },
  },
  { name: 'tsd', command: 'node', args: [ts], http: false, tools: { ask_mrtr: {}, ask_imperative: {} } },
  // `elicitInput()` works on no revision over the SDK's stateless HTTP serving (VS Code's users never
  // see it either); `inputRequired()` needs 2026-07-28 there.
  { name: 'tsd-h', command: 'node', args: [ts], http: true, tools: { ask_mrtr: {} }, modernTools: ['ask_mrtr'] },
];

const resultText = (r: { content?: { type: string; text?: string }[] }): string => (r.content ?? []).map((c) => c.text ?? '').join('');

suite('Issue 40: FastMCP 4, the Python SDK and the TypeScript SDK v2 servers ask through Run Tool and the agent, by default', () => {
  let s: TestServices;
  const saved = { servers: undefined as unknown, policy: undefined as unknown, rate: undefined as unknown, ai: undefined as unknown };
  const children: ChildProcess[] = [];
  const urls = new Map<string, string>();
  let offers: EraSwitchOffer[] = [];
  let offering: vscode.Disposable | undefined;

  suiteSetup(async function () {
    this.timeout(180_000);
    s = await services();
    for (const f of FRAMEWORKS.filter((x) => x.http)) {
      urls.set(f.name, await startHttpFixture(f.args[0] ?? '', ['--http', '0'], children, { MCP_FIXTURE_NAME: f.name }, f.command));
    }
    saved.servers = config().inspect('servers')?.workspaceValue;
    saved.policy = config().inspect('serverPolicy')?.workspaceValue;
    saved.rate = config().inspect('rateLimit')?.workspaceValue;
    saved.ai = chat().inspect('disableAIFeatures')?.globalValue;
    await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    const defs = Object.fromEntries(
      FRAMEWORKS.map((f) => [
        f.name,
        f.http ? { type: 'http', url: urls.get(f.name) } : { command: f.command, args: [...f.args], env: { MCP_FIXTURE_NAME: f.name } },
      ]),
    );
    await config().update(
      'servers',
      { ...(saved.servers as Record<string, unknown> | undefined), ...defs },
      vscode.ConfigurationTarget.Workspace,
    );
    await setPolicy(s, Object.fromEntries(FRAMEWORKS.map((f) => [f.name, 'allow'])));
    for (const f of FRAMEWORKS) await waitForRunning(s, f.name);
    // The user says yes to "Reconnect and Run Again"; each offer is recorded.
    offering = s.hooks.eraOffer.intercept('ask', () => (offer) => {
      offers.push(offer);
      return Promise.resolve(true);
    });
  });
  suiteTeardown(async () => {
    offering?.dispose();
    await config().update('servers', saved.servers, vscode.ConfigurationTarget.Workspace);
    await config().update('serverPolicy', saved.policy, vscode.ConfigurationTarget.Workspace);
    await config().update('rateLimit', saved.rate, vscode.ConfigurationTarget.Workspace);
    await chat().update('disableAIFeatures', saved.ai, vscode.ConfigurationTarget.Global);
    for (const child of children) child.kill();
  });
  teardown(async () => {
    s.broker.queue.cancelAll();
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  test('every one is spoken to in 2025-11-25 by default, and its tooltip line says why', () => {
    for (const f of FRAMEWORKS) {
      const st = s.manager.get(f.name)?.state;
      assert.equal(st?.kind === 'running' ? st.protocolVersion : undefined, '2025-11-25', f.name);
      assert.equal(st?.kind === 'running' ? st.era?.why : undefined, 'vscode', f.name);
    }
  });

  /** Runs every asking tool of every server through `call`, answering each form; checks what the tool got. */
  async function everyQuestion(how: string, call: (server: string, tool: string, args: object) => Promise<string>): Promise<void> {
    const { prompts, done } = answering(s, acceptAll);
    offers = [];
    try {
      for (const f of FRAMEWORKS) {
        for (const [tool, args] of Object.entries(f.tools)) {
          const before = prompts.length;
          const text = await call(f.name, tool, args);
          assert.ok(prompts.length > before, `${how}: ${f.name}/${tool} showed its question (${text})`);
          assert.equal(prompts.at(-1)?.asker.name, f.name, `${how}: attributed to ${f.name}`);
          assert.match(text, /accept|Ada|true/, `${how}: ${f.name}/${tool} got the answer: ${text}`);
        }
      }
    } finally {
      done.dispose();
    }
  }

  for (const aiOff of [true, false]) {
    test(`Run Tool, AI features ${aiOff ? 'off' : 'on'}: every question of every server reaches the UI`, async function () {
      this.timeout(300_000);
      await chat().update('disableAIFeatures', aiOff, vscode.ConfigurationTarget.Global);
      await everyQuestion(`Run Tool (AI ${aiOff ? 'off' : 'on'})`, async (server, tool, args) =>
        resultText(
          await vscode.commands.executeCommand<{ content?: { type: string; text?: string }[] }>(
            'mcpElicitation.runTool',
            server,
            tool,
            args,
          ),
        ),
      );
      const asked = offers.map((o) => `${o.server}/${o.tool}→${o.needs}`);
      if (aiOff) {
        // The first pass: each tool written the 2026-07-28 way alone is offered once, and no other.
        assert.deepEqual(asked, ['fmmrtr/mrtr_text→modern', 'fmmix/ask_mrtr→modern', 'fmmix-h/ask_mrtr→modern', 'tsd-h/ask_mrtr→modern']);
      } else {
        // The mixed servers were left on 2026-07-28: their 2025-style tool is offered the way back, once.
        assert.deepEqual(asked, ['fmmix/ask_imperative→legacy', 'fmmix-h/ask_imperative→legacy']);
      }
    });
  }

  test('VS Code’s agent, through the gateway: every question of every server reaches the UI', async function () {
    this.timeout(300_000);
    await chat().update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    for (const f of FRAMEWORKS) await startAsAgent(f.name, Object.keys(f.tools)[0] ?? '');
    await everyQuestion('the agent', (server, tool, args) => invoke(server, tool, args));
    assert.deepEqual(offers, [], 'every tool is learned by now: each switch happens before its call, asking nobody');
  });
});
