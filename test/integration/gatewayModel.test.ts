import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { EXTENSION_ID, nextPrompt, services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';
import { agentTools, alive, chooseEnable, initializedClients, invokeText, startInVscode } from './routeFlow';
import { recordFile } from './fixtureRecord';

// The configuration model with VS Code's chat on (this host runs with AI features enabled):
// a server in .vscode/mcp.json is VS Code's and we never start it. "Route Through MCP Elicitation
// Host" is a per-user choice that edits no file (src/gateway/routes.ts): we run the server from
// where it is defined and offer it to the agent under the label of VS Code's own copy, and once
// the user chooses "Enable" for ours in VS Code's own server options, VS Code's collision rule
// runs ours only. The reference is VS Code itself: its copy runs first, and must be gone after.

const NAME = 'gw-move';
const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

suite('Agent gateway configuration model: a server runs once, its tools appear once', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  const saved = { mode: undefined as unknown, servers: undefined as unknown, inputs: undefined as unknown };

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    saved.mode = config().inspect('workspaceMcpJson')?.workspaceValue;
    saved.servers = config().inspect('servers')?.workspaceValue;
    saved.inputs = config().inspect('inputs')?.workspaceValue;
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    mcpJson.restore();
    await config().update('servers', saved.servers, vscode.ConfigurationTarget.Workspace);
    await config().update('inputs', saved.inputs, vscode.ConfigurationTarget.Workspace);
    await config().update('workspaceMcpJson', saved.mode, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.manager.get(NAME), `${NAME} gone`);
    // The rest of the suite drives the mcp.json fixtures through our connections again.
    await waitForRunning(s, 'fixture');
    await waitForRunning(s, 'fixture-http');
  });

  test("Route is a per-user choice: no file changes, VS Code's running copy stops, the agent reaches ours and its questions come here; Give Back restores VS Code's", async function () {
    // Two copies of a server started by VS Code and one by us, on a loaded machine.
    this.timeout(300_000);
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    await waitFor(
      () => !s.manager.get('fixture') && s.manager.vscodeOwned().some((d) => d.name === 'fixture'),
      'mcp.json servers handed to VS Code',
    );

    const json = JSON.parse(mcpJson.original) as { inputs: unknown[]; servers: Record<string, unknown> };
    json.servers[NAME] = { command: 'node', args: [FIXTURE, NAME], env: { FIXTURE_RECORD: recordFile(NAME) } };
    // A teammate's comment and layout: Route and Give Back must leave every byte.
    const text = `// shared with the team\n${JSON.stringify(json, null, 2)}\n`;
    writeFileSync(mcpJson.path, text);
    await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === NAME), "listed as VS Code's");
    assert.equal(s.manager.get(NAME), undefined, 'we do not run it');
    assert.equal(s.gateway.has(NAME), false, 'nor offer it to the agent (VS Code lists it itself)');
    const def = s.manager.vscodeOwned().find((d) => d.name === NAME);
    assert.ok(def);
    const item = s.serversView.getTreeItem({ kind: 'vscodeServer', def });
    assert.match(String(item.description), /run by VS Code/);
    assert.equal(item.contextValue, 'vscodeServer.routable', 'the view offers Route Through MCP Elicitation Host');

    // The reference: VS Code runs its own copy, and the agent's pid tool answers from it.
    const vscodeId = `mcp.config.ws0.${NAME}`;
    const theirs = await startInVscode(NAME, vscodeId, () => true, "VS Code's copy");
    assert.ok(alive(theirs));
    assert.notEqual(initializedClients(recordFile(NAME)).at(-1), 'mcp-elicitation-host', "VS Code's own client started it");
    assert.equal(await vscode.commands.executeCommand<boolean>('mcpElicitation.routeServer', NAME), true);
    await waitForRunning(s, NAME);
    assert.equal(readFileSync(mcpJson.path, 'utf8'), text, 'mcp.json unchanged, comment included: a teammate keeps the server');
    assert.equal(
      (config().inspect<Record<string, unknown>>('servers')?.workspaceValue ?? {})[NAME],
      undefined,
      'not copied into a setting',
    );
    assert.ok(!s.manager.vscodeOwned().some((d) => d.name === NAME), "no longer listed as VS Code's");
    await waitFor(() => s.gateway.has(NAME), 'offered through the gateway');
    assert.equal(s.gateway.definitions().find((d) => d.name === NAME)?.label, NAME, "under the label of VS Code's copy");
    // VS Code knows the routed copy once the gateway's endpoint has a session of VS Code's.
    const ourId = `${EXTENSION_ID.toLowerCase()}/${NAME}`;
    const t0 = Date.now();
    while (s.gateway.reach(NAME).kind !== 'offered' || (s.gateway.reach(NAME) as { sessions: number }).sessions === 0) {
      if (Date.now() - t0 > 60_000) throw new Error('VS Code never connected to the routed copy');
      await vscode.commands.executeCommand('workbench.mcp.startServer', ourId);
      await new Promise((r) => setTimeout(r, 250));
    }
    // The user's one choice in VS Code's own menu (Route's notification opens it): "Enable" for the routed copy.
    await chooseEnable(() => vscode.commands.executeCommand('mcpElicitation.enableRoutedInVscode', NAME));
    await waitFor(() => !alive(theirs), 'VS Code stopped its copy', 45_000);

    // The agent's one pid tool now answers from the process we manage.
    const ourPid = await startInVscode(NAME, ourId, (pid) => pid === s.manager.get(NAME)?.pid, 'our copy for the agent');
    assert.notEqual(ourPid, theirs);
    assert.equal(agentTools(NAME, 'pid').length, 1, "VS Code's disabled copy lists no tools");
    // A question the agent's call raises comes to our UI.
    const [elicit] = agentTools(NAME, 'elicit');
    assert.ok(elicit, 'the elicit tool is listed for the agent');
    const call = invokeText(elicit, {
      params: { message: 'Routed: your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
      tag: 'routed',
    });
    const p = await nextPrompt(s);
    assert.equal(p.kind, 'inputBox');
    assert.match((p.widget as vscode.InputBox).title ?? '', new RegExp(NAME), 'attributed to the routed server');
    (p.widget as vscode.InputBox).value = 'Ada';
    await new Promise((r) => setTimeout(r, 0));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.match(await call, /Ada/);
    // Give Back: we stop and stop offering it; the file is still untouched; VS Code's copy, enabled again, runs.
    assert.equal(await vscode.commands.executeCommand<boolean>('mcpElicitation.giveBackServer', NAME), true);
    await waitFor(() => !s.manager.get(NAME) && !s.gateway.has(NAME) && s.manager.vscodeOwned().some((d) => d.name === NAME), 'given back');
    assert.equal(readFileSync(mcpJson.path, 'utf8'), text, 'mcp.json still unchanged');
    assert.equal(s.routes.all().length, 0, 'no route left');
    await chooseEnable(() => vscode.commands.executeCommand('workbench.mcp.serverOptions', vscodeId));
    const again = await startInVscode(NAME, vscodeId, (pid) => pid !== ourPid, "VS Code's copy again");
    assert.ok(alive(again));
  });
});
