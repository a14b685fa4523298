// Issue 24, "How it will be checked", second half, with a server the team did not build with the
// SDK: pyStdioServer.py (Python's standard library, written from the spec) runs twice, once from
// `.vscode/mcp.json` by VS Code's own client (2025-11-25, the only revision VS Code speaks) and
// once from our setting, spoken to in 2026-07-28 and routed to the agent through the gateway. The
// agent must see the same server: tool names in `vscode.lm.tools`, serverInfo and capabilities.
// Then the agent calls the routed copy's tool that asks for roots, a sample and a form in one round.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestServices } from '../host/testServices';
import type { FormPrompt } from '../../src/elicitation/presenter';
import { SECRET_HEADER } from '../../src/gateway/admission';
import { agentTool, invoke, startAsAgent } from './agent';
import { services, setPolicy, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

const SCRIPT = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'pyStdioServer.py');
/** Same length, so that VS Code shortens both names alike. */
const VSCODE = 'py-vsc';
const OURS = 'py-our';
const VSCODE_ID = `mcp.config.ws0.${VSCODE}`;
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

/** The agent's tool names of one copy: those that share its `echo` tool's prefix, prefix cut. */
function toolsOf(name: string): string[] {
  const echo = agentTool(name, 'echo');
  if (!echo) return [];
  const prefix = echo.name.slice(0, -'echo'.length);
  return vscode.lm.tools
    .filter((t) => t.name.startsWith(prefix))
    .map((t) => t.name.slice(prefix.length))
    .sort();
}

/** What an agent (an SDK client declaring `capabilities`) is told at initialize over `transport`. */
async function seenBy(
  transport: StdioClientTransport | StreamableHTTPClientTransport,
): Promise<{ serverInfo: unknown; capabilities: unknown; tools: unknown }> {
  const client = new Client(
    { name: 'independent-parity-probe', version: '0' },
    { capabilities: { roots: {}, sampling: {}, elicitation: {} } },
  );
  await client.connect(transport);
  try {
    return {
      serverInfo: client.getServerVersion(),
      capabilities: client.getServerCapabilities(),
      tools: (await client.listTools()).tools,
    };
  } finally {
    await client.close();
  }
}

suite('Independent server parity: a Python server run by VS Code and routed through us (issue 24)', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  const saved = { mode: undefined as unknown, servers: undefined as unknown, policy: undefined as unknown };

  suiteSetup(async function () {
    this.timeout(180_000);
    s = await services();
    mcpJson = workspaceMcpJson();
    saved.mode = config().inspect('workspaceMcpJson')?.workspaceValue;
    saved.servers = config().inspect('servers')?.workspaceValue;
    saved.policy = config().inspect('serverPolicy')?.workspaceValue;
    // VS Code's copy: chat is on in this host, so with `auto` the mcp.json servers are VS Code's.
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    const json = JSON.parse(mcpJson.original) as { servers: Record<string, unknown> };
    json.servers[VSCODE] = { command: 'python3', args: [SCRIPT, VSCODE] };
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    await config().update(
      'servers',
      { ...(saved.servers as Record<string, unknown> | undefined), [OURS]: { command: 'python3', args: [SCRIPT, OURS] } },
      vscode.ConfigurationTarget.Workspace,
    );
    await waitForRunning(s, OURS);
    await waitFor(() => s.gateway.has(OURS), 'the gateway offers ours');
    await startAsAgent(OURS);
    await startAsAgent(VSCODE, 'echo', VSCODE_ID);
  });

  suiteTeardown(async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('mcpTest.samplingModel.unregister');
    mcpJson.restore();
    await config().update('servers', saved.servers, vscode.ConfigurationTarget.Workspace);
    await config().update('serverPolicy', saved.policy, vscode.ConfigurationTarget.Workspace);
    await config().update('workspaceMcpJson', saved.mode, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.manager.get(OURS), `${OURS} gone`);
  });

  test('our copy speaks 2026-07-28 to the server; the agent gets the same tool names as from VS Code’s copy', async () => {
    assert.equal((JSON.parse(await invoke(OURS, 'ask', { what: [] })) as { era?: string }).era, '2026-07-28');
    assert.deepEqual(toolsOf(VSCODE), ['ask', 'echo', 'launch']);
    assert.deepEqual(toolsOf(OURS), toolsOf(VSCODE));
    assert.equal(await invoke(OURS, 'echo', { text: 'same' }), await invoke(VSCODE, 'echo', { text: 'same' }));
  });

  test('through the gateway an agent is told the serverInfo (title, description, websiteUrl, icons), capabilities and tools the server tells it directly', async function () {
    this.timeout(60_000);
    const endpoint = s.gateway.definitions().find((d) => d.name === OURS);
    assert.ok(endpoint, 'ours is offered');
    const direct = await seenBy(new StdioClientTransport({ command: 'python3', args: [SCRIPT, OURS], stderr: 'ignore' }));
    const routed = await seenBy(
      new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: { [SECRET_HEADER]: s.gateway.secret } } }),
    );
    assert.deepEqual(routed.serverInfo, direct.serverInfo);
    // The gateway adds `listChanged`: it tells the agent when a restart of the server changes its tools.
    const capabilities = direct.capabilities as Record<string, object>;
    assert.deepEqual(routed.capabilities, { ...capabilities, tools: { ...capabilities['tools'], listChanged: true } });
    assert.deepEqual(routed.tools, direct.tools);
  });

  test('the agent calls the routed copy: roots, a sample and a form in one 2026-07-28 round, answered here', async function () {
    this.timeout(60_000);
    await vscode.commands.executeCommand('mcpTest.samplingModel.register');
    await setPolicy(s, { [OURS]: 'allow' });
    const prompts: FormPrompt[] = [];
    const done = s.hooks.presenter.intercept('presentForm', () => (prompt) => {
      prompts.push(prompt);
      return Promise.resolve({ action: 'accept', content: { name: 'Lin' } });
    });
    try {
      const r = JSON.parse(await invoke(OURS, 'ask', { what: ['roots', 'sample', 'form'], text: 'agent asks' })) as Record<
        string,
        { roots?: unknown; content?: unknown; model?: string }
      >;
      const folder = vscode.workspace.workspaceFolders?.[0];
      assert.ok(folder);
      assert.deepEqual(r['roots'], { roots: [{ uri: folder.uri.toString(), name: folder.name }] });
      assert.deepEqual(r['sample']?.content, { type: 'text', text: `${r['sample']?.model ?? ''} heard: agent asks` });
      assert.deepEqual(r['form'], { action: 'accept', content: { name: 'Lin' } });
      assert.deepEqual(
        prompts.map((p) => p.asker.name),
        [OURS],
      );
    } finally {
      done.dispose();
    }
  });
});
