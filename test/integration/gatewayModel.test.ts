import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { EXTENSION_ID, services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

// The configuration model with VS Code's chat on (this host runs with AI features enabled):
// a server in .vscode/mcp.json is VS Code's and we never start it; "Route Through MCP Elicitation
// Host" moves it, with its input, into our setting, where it runs once, here, and reaches the
// agent through the gateway only; "Give Back to VS Code" moves it back.

const NAME = 'gw-move';
const RECORD_DIR = process.env['MCP_TEST_RECORD_DIR'] ?? '';
const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

function initializedRecords(name: string): { clientInfo?: { name?: string } }[] {
  const file = path.join(RECORD_DIR, `${name}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { kind: string; clientInfo?: { name?: string } })
    .filter((r) => r.kind === 'initialized');
}

/** VS Code shortens the server part of tool names (here `mcp_fixture_gw-mo_pid`). */
function agentTool(tool: string): vscode.LanguageModelToolInformation | undefined {
  return vscode.lm.tools.find(
    (t) => t.name.startsWith('mcp_') && t.name.replace(/[^a-z0-9]/gi, '_').includes('gw_mo') && t.name.endsWith(`_${tool}`),
  );
}

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

  test("with chat on, mcp.json is VS Code's; Route moves a server with its input here, where it runs once and reaches the agent; Give Back returns it", async () => {
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    await waitFor(
      () => !s.manager.get('fixture') && s.manager.vscodeOwned().some((d) => d.name === 'fixture'),
      'mcp.json servers handed to VS Code',
    );

    const json = JSON.parse(mcpJson.original) as { inputs: unknown[]; servers: Record<string, unknown> };
    json.inputs.push({ type: 'promptString', id: 'gwToken', description: 'Token for gw-move', default: 'tok-123' });
    json.servers[NAME] = {
      command: 'node',
      args: [FIXTURE, NAME],
      env: { FIXTURE_RECORD: path.join(RECORD_DIR, `${NAME}.jsonl`), FIXTURE_TOKEN: '${input:gwToken}' },
    };
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === NAME), "listed as VS Code's");
    assert.equal(s.manager.get(NAME), undefined, 'we do not run it');
    assert.equal(s.gateway.has(NAME), false, 'nor offer it to the agent (VS Code lists it itself)');
    assert.equal(initializedRecords(NAME).length, 0, 'no process was started for it');
    const def = s.manager.vscodeOwned().find((d) => d.name === NAME);
    assert.ok(def);
    const item = s.serversView.getTreeItem({ kind: 'vscodeServer', def });
    assert.match(String(item.description), /run by VS Code/);
    assert.equal(item.contextValue, 'vscodeServer.routable', 'the view offers Route Through MCP Elicitation Host');

    // Route: our input box asks for the input (its default is accepted like Enter).
    const routed = Promise.resolve(vscode.commands.executeCommand<boolean>('mcpElicitation.routeServer', NAME));
    for (let i = 0; i < 100 && s.manager.get(NAME)?.state.kind !== 'running'; i++) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(await routed, true);
    await waitForRunning(s, NAME);
    const file = JSON.parse(readFileSync(mcpJson.path, 'utf8')) as { inputs: { id: string }[]; servers: Record<string, unknown> };
    assert.equal(file.servers[NAME], undefined, 'gone from mcp.json, so VS Code no longer runs it');
    assert.ok(!file.inputs.some((i) => i.id === 'gwToken'), 'its input moved too');
    assert.ok(file.servers['fixture'], 'the other servers stay');
    assert.ok((config().inspect<Record<string, unknown>>('servers')?.workspaceValue ?? {})[NAME], 'in our setting');
    assert.deepEqual(
      config()
        .inspect<{ id: string }[]>('inputs')
        ?.workspaceValue?.map((i) => i.id),
      ['gwToken'],
    );
    const env = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', NAME, 'env', {
      name: 'FIXTURE_TOKEN',
    });
    assert.equal(env.content[0]?.text, 'tok-123', 'the input resolved');

    // The agent reaches it through the gateway, and it is the same single process.
    await waitFor(() => s.gateway.has(NAME), 'offered through the gateway');
    const t0 = Date.now();
    while (!agentTool('pid') && Date.now() - t0 < 30_000) {
      await vscode.commands.executeCommand('workbench.mcp.startServer', `${EXTENSION_ID.toLowerCase()}/${NAME}`, {
        waitForLiveTools: true,
      });
      if (!agentTool('pid')) await new Promise((r) => setTimeout(r, 250));
    }
    const pidTool = agentTool('pid');
    assert.ok(
      pidTool,
      `its tools reached vscode.lm.tools (have: ${vscode.lm.tools
        .map((t) => t.name)
        .filter((n) => n.startsWith('mcp_'))
        .join(', ')})`,
    );
    assert.equal(
      vscode.lm.tools.filter((t) => t.name.endsWith('_pid') && t.name.replace(/[^a-z0-9]/gi, '_').includes('gw_mo')).length,
      1,
      'listed once',
    );
    const result = await vscode.lm.invokeTool(pidTool.name, { input: {}, toolInvocationToken: undefined });
    const pid = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.equal(Number(pid), s.manager.get(NAME)?.pid);
    const inits = initializedRecords(NAME);
    assert.equal(inits.length, 1, `one process in all: ${JSON.stringify(inits)}`);
    assert.equal(inits[0]?.clientInfo?.name, 'mcp-elicitation-host');

    // Give Back: into mcp.json with its input; we stop it and stop offering it.
    assert.equal(await vscode.commands.executeCommand<boolean>('mcpElicitation.giveBackServer', NAME), true);
    await waitFor(() => !s.manager.get(NAME) && !s.gateway.has(NAME) && s.manager.vscodeOwned().some((d) => d.name === NAME), 'given back');
    const back = JSON.parse(readFileSync(mcpJson.path, 'utf8')) as { inputs: { id: string }[]; servers: Record<string, unknown> };
    assert.ok(back.servers[NAME]);
    assert.ok(back.inputs.some((i) => i.id === 'gwToken'));
    assert.equal((config().inspect<Record<string, unknown>>('servers')?.workspaceValue ?? {})[NAME], undefined);
    await waitFor(() => agentTool('pid') === undefined, "the gateway's copy left vscode.lm.tools");
  });
});
