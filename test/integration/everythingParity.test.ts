// Issue 24, checked as its text says, with the real `@modelcontextprotocol/server-everything` from
// npm (not a fixture written like it): run once from `.vscode/mcp.json` by VS Code's own client and
// once from our setting, routed to the agent through the gateway.
// - The server lists some tools only to a client that declares roots, elicitation and sampling
//   (and async ones to one that declares tasks), so the same tool names in `vscode.lm.tools` say our
//   client declares what VS Code's does.
// - Its `get-roots-list` answers the same from both copies: the same workspace roots reach it.
// - The agent cancelling `trigger-elicitation-request` closes our form (the server does not cancel
//   its question when its call is cancelled, and stdio carries no related-request id).
// VS Code names the tools after the serverInfo name, which both copies share, so the copies run
// one at a time (parityView.ts, `startCopiesInTurn`).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { gatewayServerId } from './agent';
import { answering, services, setPolicy } from './helpers';
import { bothCopies, callSole, cancelOnceAsked, startCopiesInTurn } from './parityView';

const ROOT = process.env['MCP_TEST_REPO_ROOT'] ?? '';
const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const definition = { command: 'node', args: [EVERYTHING, 'stdio'] };
const VSCODE = 'ev-vsc';
const OURS = 'ev-our';
const VSCODE_ID = `mcp.config.ws0.${VSCODE}`;
const ROOTS_TOOL = 'get-roots-list';
const ASK_TOOL = 'trigger-elicitation-request';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

suite('server-everything (from npm) run by VS Code and routed through us (issue 24)', () => {
  let s: TestServices;
  let copies: ReturnType<typeof bothCopies> | undefined;
  let savedPolicy: unknown;
  let theirNames: string[] = [];
  let ourNames: string[] = [];
  let theirRoots = '';

  suiteSetup(async function () {
    this.timeout(180_000);
    s = await services();
    savedPolicy = config().inspect('serverPolicy')?.workspaceValue;
    copies = bothCopies(s, { vscode: [VSCODE, definition], ours: [OURS, definition] });
    ({ theirs: theirNames, ours: ourNames } = await startCopiesInTurn(
      copies,
      { theirs: VSCODE_ID, ours: gatewayServerId(OURS) },
      'echo',
      async () => {
        theirRoots = await callSole(ROOTS_TOOL, {});
      },
    ));
  });

  suiteTeardown(async function () {
    this.timeout(60_000);
    await config().update('serverPolicy', savedPolicy, vscode.ConfigurationTarget.Workspace);
    await copies?.restore();
  });

  test('the agent gets the same tools by the same names, those shown only to a client that declares roots, elicitation, sampling and tasks included', () => {
    const short = theirNames.map((n) => n.replace(/^mcp_[^_]+_[^_]+_/, ''));
    for (const tool of [
      ROOTS_TOOL,
      ASK_TOOL,
      'trigger-sampling-request',
      'trigger-elicitation-request-async',
      'trigger-sampling-request-async',
    ]) {
      assert.ok(
        theirNames.some((n) => n.endsWith(`_${tool}`)),
        `VS Code's copy lists ${tool} (${short.join(', ')})`,
      );
    }
    assert.deepEqual(ourNames, theirNames);
  });

  test('get-roots-list answers the same from both copies: the workspace folder', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    assert.ok(theirRoots.includes(folder.uri.toString()), `VS Code's copy reports the folder: ${theirRoots}`);
    assert.equal(await callSole(ROOTS_TOOL, {}), theirRoots);
  });

  test('trigger-elicitation-request asks here, naming the server; declined, the agent hears so', async function () {
    this.timeout(60_000);
    await setPolicy(s, { [OURS]: 'allow' });
    const { prompts, done } = answering(s, () => ({ action: 'decline' }));
    try {
      assert.match(await callSole(ASK_TOOL, {}), /User declined to provide the requested information/);
      assert.deepEqual(
        prompts.map((p) => p.asker.name),
        [OURS],
      );
      assert.ok((prompts[0]?.form.fields.length ?? 0) > 3, 'its form of several fields');
    } finally {
      done.dispose();
    }
  });

  test('the agent cancelling trigger-elicitation-request closes the form it raised', async function () {
    this.timeout(60_000);
    await setPolicy(s, { [OURS]: 'allow' });
    await cancelOnceAsked(s, ASK_TOOL, {}, () =>
      assert.deepEqual(
        s.broker.queue.list().map((e) => [e.asker.name, e.state]),
        [[OURS, 'onScreen']],
        'the form is on screen',
      ),
    );
    const last = s.broker.queue.history.list().at(-1);
    assert.deepEqual([last?.asker.name, last?.action], [OURS, 'cancel']);
  });
});
