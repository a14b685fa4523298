// Run Tool with servers in any source, with VS Code's AI features on and off: a server VS Code
// runs is listed with Route and Run (which routes it here, then runs the tool), and "No MCP
// server is configured" is said only when no source defines one.
//
// Why `zy_`: the files run in name order, and this suite turns VS Code's AI features off and on
// again. That activates VS Code's built-in chat extension, which registers a language model
// (`copilotcli`, "Auto") that nothing can unregister, so the Sampling suite, which needs a host
// with no model but the test's own, must run first. Only zz_deactivate comes after it.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { CONTEXT_KEYS } from '../../src/ui/commandContext';
import { OFFER_ANSWER_KEY } from '../../src/ui/routingOffer';
import { acceptQuickInput, nextPrompt, services, waitFor, waitForRunning, workspaceMcpJson, type ShownPrompt } from './helpers';

const RECORD_DIR = process.env['MCP_TEST_RECORD_DIR'] ?? '';
const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
/** Sorts first among VS Code's servers, so the picker's first row (Enter) is this one. */
const ROUTED = 'a-route-and-run';
const PORTABLE = 'dot-mcp-server';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
const chat = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('chat');

/** The next Run Tool prompt: the server picker with its rows, or the no-server notice. */
function nextRunToolPrompt(s: TestServices): Promise<ShownPrompt> {
  return new Promise((resolve) => {
    const sub = s.hooks.onDidShowPrompt((e) => {
      if (e.kind !== 'runTool.server' && e.kind !== 'runTool.noServer') return;
      sub.dispose();
      resolve(e);
    });
  });
}

/** Opens Run Tool, returns what it showed first, and closes the picker again. */
async function runToolShows(s: TestServices): Promise<ShownPrompt> {
  const shown = nextRunToolPrompt(s);
  const run = Promise.resolve(vscode.commands.executeCommand('mcpElicitation.runTool'));
  const prompt = await shown;
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  assert.equal(await run, undefined, 'closing the picker runs nothing');
  return prompt;
}

function row(prompt: ShownPrompt, label: string): vscode.QuickPickItem | undefined {
  return prompt.items?.find((i) => i.label === label && i.kind !== vscode.QuickPickItemKind.Separator);
}

suite('Run Tool lists servers from every source: VS Code’s with Route and Run, AI features on or off', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  let dotMcp: string;
  const saved = { mode: undefined as unknown, servers: undefined as unknown, inputs: undefined as unknown, ai: undefined as unknown };

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    dotMcp = path.join(path.dirname(path.dirname(mcpJson.path)), '.mcp.json');
    saved.mode = config().inspect('workspaceMcpJson')?.workspaceValue;
    saved.servers = config().inspect('servers')?.workspaceValue;
    saved.inputs = config().inspect('inputs')?.workspaceValue;
    saved.ai = chat().inspect('disableAIFeatures')?.globalValue;
    await waitForRunning(s, 'fixture');
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    mcpJson.restore();
    if (existsSync(dotMcp)) rmSync(dotMcp);
    await config().update('servers', saved.servers, vscode.ConfigurationTarget.Workspace);
    await config().update('inputs', saved.inputs, vscode.ConfigurationTarget.Workspace);
    await chat().update('disableAIFeatures', saved.ai, vscode.ConfigurationTarget.Global);
    await config().update('workspaceMcpJson', saved.mode, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.manager.get(ROUTED) && !s.manager.get(PORTABLE), 'the suite’s servers gone');
    // The rest of the suite drives the mcp.json fixtures through our connections again.
    await waitForRunning(s, 'fixture');
    await waitForRunning(s, 'fixture-http');
  });

  test("AI features on: VS Code's servers of .vscode/mcp.json and .mcp.json are listed with Route and Run, each named by its file", async () => {
    writeFileSync(dotMcp, JSON.stringify({ mcpServers: { [PORTABLE]: { command: 'node', args: [FIXTURE, PORTABLE] } } }));
    await chat().update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    await waitFor(
      () => !s.manager.get('fixture') && ['fixture', PORTABLE].every((n) => s.manager.vscodeOwned().some((d) => d.name === n)),
      'mcp.json and .mcp.json servers handed to VS Code',
    );
    assert.equal(
      s.manager.list().filter((e) => e.connection).length,
      0,
      `no server of ours: ${s.manager
        .list()
        .map((e) => e.name)
        .join(', ')}`,
    );
    // Run Tool shows in the palette: it can route one of VS Code's servers.
    await waitFor(() => s.commandContext.get(CONTEXT_KEYS.canRunTool) === true, 'Run Tool offered (canRunTool)');

    const prompt = await runToolShows(s);
    assert.equal(prompt.kind, 'runTool.server', 'a picker, not "No MCP server is configured"');
    assert.ok(
      prompt.items?.some((i) => i.kind === vscode.QuickPickItemKind.Separator && i.label === 'Run by VS Code'),
      'a section for VS Code’s servers',
    );
    for (const name of ['fixture', 'fixture-http']) {
      const item = row(prompt, name);
      assert.ok(item, `${name} is listed`);
      assert.equal(item.description, 'run by VS Code · .vscode/mcp.json');
      assert.match(item.detail ?? '', /^Route and Run: /);
    }
    const portable = row(prompt, PORTABLE);
    assert.ok(portable, `${PORTABLE} is listed`);
    assert.equal(portable.description, 'run by VS Code · .mcp.json', 'named by the file it is really in');
    assert.match(portable.detail ?? '', /^Route and Run: /);
  });

  test('AI features on: Route and Run moves the server here, starts it, and runs the tool picked', async () => {
    const json = JSON.parse(mcpJson.original) as { servers: Record<string, unknown> };
    json.servers[ROUTED] = { command: 'node', args: [FIXTURE, ROUTED], env: { FIXTURE_RECORD: path.join(RECORD_DIR, `${ROUTED}.jsonl`) } };
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === ROUTED), `${ROUTED} listed as VS Code's`);
    assert.equal(s.manager.get(ROUTED), undefined);

    const serverPicker = nextRunToolPrompt(s);
    const run = Promise.resolve(vscode.commands.executeCommand<{ content: { text: string }[] } | undefined>('mcpElicitation.runTool'));
    const shown = await serverPicker;
    const first = shown.items?.find((i) => i.kind !== vscode.QuickPickItemKind.Separator);
    assert.equal(first?.label, ROUTED, 'the first row, which Enter picks');
    assert.match(first?.detail ?? '', /^Route and Run: /);
    const toolPicker = nextPrompt(s, 60_000);
    await acceptQuickInput();
    assert.equal((await toolPicker).kind, 'runTool.tool', 'routed and started: its tools are offered');
    assert.ok(s.manager.get(ROUTED)?.ready, 'our copy runs');
    const file = JSON.parse(readFileSync(mcpJson.path, 'utf8')) as { servers: Record<string, unknown> };
    assert.ok(file.servers[ROUTED], 'routed for this user: the file is unchanged');
    assert.equal(
      s.manager.vscodeOwned().some((d) => d.name === ROUTED),
      false,
      "no longer VS Code's",
    );

    // The first tool is echo: its one argument is asked for in our InputBox.
    const args = nextPrompt(s, 30_000);
    await acceptQuickInput();
    const argsBox = await args;
    assert.equal(argsBox.kind, 'inputBox');
    const box = argsBox.widget as vscode.InputBox;
    box.value = 'routed and run';
    await acceptQuickInput();
    const result = await run;
    assert.equal(result?.content[0]?.text, 'routed and run', 'the tool ran on the routed server');
    // Undo the route, so the rest of the suite finds no route of ours.
    assert.equal(await vscode.commands.executeCommand<boolean>('mcpElicitation.giveBackServer', ROUTED), true);
    await waitFor(() => !s.manager.get(ROUTED) && s.manager.vscodeOwned().some((d) => d.name === ROUTED), 'given back');
  });

  test('AI features off: the same servers are ours, listed as usual with nothing to route', async () => {
    mcpJson.restore();
    await config().update('servers', saved.servers, vscode.ConfigurationTarget.Workspace);
    await chat().update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    await waitFor(() => s.manager.vscodeOwned().length === 0, 'nothing left to VS Code');
    await waitFor(() => ['fixture', 'fixture-http', PORTABLE].every((n) => s.manager.get(n)), 'every source run here');
    await waitFor(() => s.commandContext.get(CONTEXT_KEYS.canRoute) === false, 'Route hidden');
    assert.equal(s.commandContext.get(CONTEXT_KEYS.canRunTool), true);

    const prompt = await runToolShows(s);
    assert.equal(prompt.kind, 'runTool.server');
    for (const name of ['fixture', 'fixture-http', PORTABLE]) assert.ok(row(prompt, name), `${name} is listed`);
    assert.equal(
      prompt.items?.some((i) => /^Route and Run/.test(i.detail ?? '') || i.label === 'Run by VS Code'),
      false,
      'nothing to route',
    );
  });

  test('AI features off: no offer to route, though it is on and unanswered, and the servers run here; turned on, the offer comes', async () => {
    // Left by the test before: AI features off, the servers of .vscode/mcp.json and .mcp.json ours.
    const asked: string[][] = [];
    const intercepted = s.hooks.routingOffer.intercept('ask', () => (servers) => {
      asked.push(servers.map((d) => d.name));
      // Closed unanswered: nothing is kept, nothing routed.
      return Promise.resolve(undefined);
    });
    const savedOffer = config().inspect('offerRouting')?.workspaceValue;
    const savedAnswer: unknown = s.context.workspaceState.get(OFFER_ANSWER_KEY);
    try {
      await s.context.workspaceState.update(OFFER_ANSWER_KEY, undefined);
      // Off and on: the user's way to have the offer again in this window.
      await config().update('offerRouting', false, vscode.ConfigurationTarget.Workspace);
      await config().update('offerRouting', true, vscode.ConfigurationTarget.Workspace);
      await s.manager.reload();
      for (const name of ['fixture', 'fixture-http', PORTABLE]) await waitForRunning(s, name);
      assert.deepEqual(s.manager.vscodeOwned(), [], 'VS Code runs none of them');
      assert.deepEqual(asked, [], 'no offer: with AI features off there is nothing of VS Code’s to route');

      // The same workspace with AI features on: VS Code runs them now, and the offer lists them.
      await chat().update('disableAIFeatures', false, vscode.ConfigurationTarget.Global);
      await waitFor(() => asked.length === 1, 'the offer, once AI features are on', 30_000);
      assert.deepEqual(asked[0], [PORTABLE, 'fixture', 'fixture-http']);
    } finally {
      intercepted.dispose();
      await config().update('offerRouting', savedOffer, vscode.ConfigurationTarget.Workspace);
      await s.context.workspaceState.update(OFFER_ANSWER_KEY, savedAnswer);
      await chat().update('disableAIFeatures', true, vscode.ConfigurationTarget.Global);
    }
  });

  test('"No MCP server is configured" only when no source defines one, with AI features off and on', async () => {
    rmSync(dotMcp);
    writeFileSync(mcpJson.path, JSON.stringify({ inputs: [], servers: {} }, null, 2));
    for (const aiOff of [true, false]) {
      await chat().update('disableAIFeatures', aiOff, vscode.ConfigurationTarget.Global);
      await waitFor(() => s.manager.list().length === 0 && s.manager.vscodeOwned().length === 0, 'no server anywhere');
      await waitFor(() => s.commandContext.get(CONTEXT_KEYS.canRunTool) === false, 'Run Tool hidden');
      const shown = nextRunToolPrompt(s);
      assert.equal(await vscode.commands.executeCommand('mcpElicitation.runTool'), undefined);
      assert.equal((await shown).kind, 'runTool.noServer', `AI features ${aiOff ? 'off' : 'on'}: the no-server notice`);
    }
    await vscode.commands.executeCommand('notifications.clearAll');
  });
});
