// Issue 24, "How it will be checked", second half, with a server the team did not build with the
// SDK: pyServer.py (Python's standard library, written from the spec) runs twice, once from
// `.vscode/mcp.json` by VS Code's own client (2025-11-25, the only revision VS Code speaks) and
// once from our setting, spoken to in 2026-07-28 (pinned) and routed to the agent through the gateway. The
// agent must see the same server: tool names in `vscode.lm.tools`, serverInfo and capabilities.
// Then the agent calls the routed copy's tool that asks for roots, a sample and a form in one round.
// All of it over stdio, and again over Streamable HTTP (the Python server's own HTTP framing,
// VS Code's HTTP client against ours).
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TestServices } from '../host/testServices';
import { agentTool, invoke, startAsAgent } from './agent';
import { answering, services, setPolicy, skipSamplingReview, startHttpFixture } from './helpers';
import { bothCopies, gatewayTransport, seenBy, toolNamesBeside } from './parityView';

const SCRIPT = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'pyServer.py');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

/** The agent's tool names of one copy: those that share its `echo` tool's prefix, prefix cut. */
const toolsOf = (name: string): string[] => toolNamesBeside(agentTool(name, 'echo'));

/** What an agent (an SDK client declaring roots, sampling and elicitation) is told at initialize over `transport`. */
const seenByAgent = (transport: Transport): Promise<{ serverInfo: unknown; capabilities: unknown; tools: unknown }> =>
  seenBy('independent-parity-probe', { roots: {}, sampling: {}, elicitation: {} }, transport, async (client) => ({
    serverInfo: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
    tools: (await client.listTools()).tools,
  }));

for (const wire of ['stdio', 'http'] as const) {
  // Same length, so that VS Code shortens both names alike.
  const VSCODE = wire === 'stdio' ? 'py-vsc' : 'ph-vsc';
  const OURS = wire === 'stdio' ? 'py-our' : 'ph-our';
  const VSCODE_ID = `mcp.config.ws0.${VSCODE}`;
  const children: ChildProcess[] = [];
  /** One Python process per copy over HTTP, and a third that the agent's view is compared with. */
  const urls = new Map<string, string>();
  // Ours is pinned to 2026-07-28: by default a dual-era server is spoken to in 2025-11-25, as
  // VS Code speaks to it (servers/era/eraChoice.ts); the pin keeps this suite about the other era.
  const definition = (name: string): Record<string, unknown> => ({
    ...(wire === 'stdio' ? { command: 'python3', args: [SCRIPT, name] } : { type: 'http', url: urls.get(name) }),
    ...(name === OURS ? { protocolVersion: '2026-07-28' } : {}),
  });
  const direct = (): Transport =>
    wire === 'stdio'
      ? new StdioClientTransport({ command: 'python3', args: [SCRIPT, OURS], stderr: 'ignore' })
      : new StreamableHTTPClientTransport(new URL(urls.get(`${OURS}-direct`) ?? ''));

  suite(`Independent server parity over ${wire}: a Python server run by VS Code and routed through us (issue 24)`, () => {
    let s: TestServices;
    let copies: ReturnType<typeof bothCopies> | undefined;
    let savedPolicy: unknown;

    suiteSetup(async function () {
      this.timeout(180_000);
      s = await services();
      savedPolicy = config().inspect('serverPolicy')?.workspaceValue;
      if (wire === 'http') {
        // The direct copy takes our copy's name: the agent's view of both must be the same.
        for (const [key, name] of [
          [VSCODE, VSCODE],
          [OURS, OURS],
          [`${OURS}-direct`, OURS],
        ] as const) {
          urls.set(key, await startHttpFixture(SCRIPT, [name, '--http', '0'], children, {}, 'python3'));
        }
      }
      copies = bothCopies(s, { vscode: [VSCODE, definition(VSCODE)], ours: [OURS, definition(OURS)] });
      await copies.start();
      await startAsAgent(OURS);
      await startAsAgent(VSCODE, 'echo', VSCODE_ID);
    });

    suiteTeardown(async function () {
      this.timeout(60_000);
      await skipSamplingReview(undefined);
      await vscode.commands.executeCommand('mcpTest.samplingModel.unregister');
      await config().update('serverPolicy', savedPolicy, vscode.ConfigurationTarget.Workspace);
      await copies?.restore();
      for (const child of children) child.kill();
    });

    test('our copy speaks 2026-07-28 to the server; the agent gets the same tool names as from VS Code’s copy', async () => {
      assert.equal((JSON.parse(await invoke(OURS, 'ask', { what: [] })) as { era?: string }).era, '2026-07-28');
      assert.deepEqual(toolsOf(VSCODE), ['ask', 'echo', 'launch', 'vanish']);
      assert.deepEqual(toolsOf(OURS), toolsOf(VSCODE));
      assert.equal(await invoke(OURS, 'echo', { text: 'same' }), await invoke(VSCODE, 'echo', { text: 'same' }));
    });

    test('the agent may send either copy a 12 MB argument, as VS Code’s own client sends any size', async function () {
      this.timeout(120_000);
      // Past the 8 MB the gateway once refused with 413 (a file's contents, an MCP App's upload).
      const text = 'big '.repeat(3_000_000);
      const theirs = await invoke(VSCODE, 'echo', { text });
      assert.ok(theirs.includes(text), `VS Code's copy echoed it (${theirs.length} characters)`);
      assert.equal(await invoke(OURS, 'echo', { text }), theirs);
    });

    test('through the gateway an agent is told the serverInfo (title, description, websiteUrl, icons), capabilities and tools the server tells it directly', async function () {
      this.timeout(60_000);
      const endpoint = s.gateway.definitions().find((d) => d.name === OURS);
      assert.ok(endpoint, 'ours is offered');
      const told = await seenByAgent(direct());
      const routed = await seenByAgent(gatewayTransport(s, endpoint));
      assert.deepEqual(routed.serverInfo, told.serverInfo);
      // The gateway adds `listChanged`: it tells the agent when a restart of the server changes its tools.
      const capabilities = told.capabilities as Record<string, object>;
      assert.deepEqual(routed.capabilities, { ...capabilities, tools: { ...capabilities['tools'], listChanged: true } });
      assert.deepEqual(routed.tools, told.tools);
    });

    test('the agent calls the routed copy: roots, a sample and a form in one 2026-07-28 round, answered here', async function () {
      this.timeout(60_000);
      await vscode.commands.executeCommand('mcpTest.samplingModel.register');
      await setPolicy(s, { [OURS]: 'allow' });
      await skipSamplingReview([OURS]);
      const { prompts, done } = answering(s, () => ({ action: 'accept', content: { name: 'Lin' } }));
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
}
