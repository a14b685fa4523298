import { writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ShownPrompt, TestServices } from '../host/testServices';
import { GatewayDefinitionProvider } from '../../src/gateway/definitionProvider';
import { resultText } from './agent';
import { nextPrompt, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

// What the parity suites (agentParity.test.ts, independentParity.test.ts) compare between the copy
// of a server VS Code runs and the copy routed through us: the tool names the agent is given, and
// what an independent MCP client is told at initialize, directly and through the gateway.

/**
 * The agent's tool names of one copy of a server: those in vscode.lm.tools that share the prefix
 * of `known` (that copy's tool named `knownName`, however the suite found it), prefix cut, sorted.
 */
export function toolNamesBeside(known: vscode.LanguageModelToolInformation | undefined, knownName = 'echo'): string[] {
  if (!known) return [];
  const prefix = known.name.slice(0, -knownName.length);
  return vscode.lm.tools
    .filter((t) => t.name.startsWith(prefix))
    .map((t) => t.name.slice(prefix.length))
    .sort();
}

/**
 * The agent's tool `tool` of the one copy of a server that runs. VS Code names a server's tools
 * after the name in its serverInfo (`mcp_azure_mcp_ser_*` for "Azure MCP Server"), which both
 * copies of a third-party server report alike, so those suites run the copies one at a time.
 */
export const soleTool = (tool: string): vscode.LanguageModelToolInformation | undefined =>
  vscode.lm.tools.find((t) => t.name.startsWith('mcp_') && t.name.endsWith(`_${tool}`));

/** Starts the copy `id` as chat would, waits for its tool `tool`, and returns all its tools' full names. */
async function startSoleCopy(id: string, tool: string): Promise<string[]> {
  // As in startAsAgent: the workbench may not know the definition yet, so ask until the tools are in.
  const t0 = Date.now();
  while (soleTool(tool) === undefined) {
    if (Date.now() - t0 > 60_000) throw new Error(`${id}'s ${tool} never reached vscode.lm.tools`);
    await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true });
    if (soleTool(tool) === undefined) await new Promise((r) => setTimeout(r, 250));
  }
  const prefix = (soleTool(tool)?.name ?? '').slice(0, -tool.length);
  return toolNamesBeside(soleTool(tool), tool).map((n) => prefix + n);
}

/**
 * Starts `copies` (bothCopies) one at a time as chat would, each found by its tool `tool`: VS
 * Code's (`theirId`), which `meanwhile` may call while it runs, then, once it is removed (a stopped
 * server's tools stay listed, a removed one's go), ours (`ourId`). Returns each one's full tool names.
 */
export async function startCopiesInTurn(
  copies: ReturnType<typeof bothCopies>,
  ids: { readonly theirs: string; readonly ours: string },
  tool: string,
  meanwhile: () => Promise<void> = () => Promise.resolve(),
): Promise<{ theirs: string[]; ours: string[] }> {
  const pristine = workspaceMcpJson();
  await copies.start();
  const theirs = await startSoleCopy(ids.theirs, tool);
  await meanwhile();
  pristine.restore();
  await waitFor(() => soleTool(tool) === undefined, 'VS Code’s copy is gone', 30_000);
  return { theirs, ours: await startSoleCopy(ids.ours, tool) };
}

/** The agent calls the running copy's `tool` with `input`, and gets its text. */
export async function callSole(tool: string, input: object, token?: vscode.CancellationToken): Promise<string> {
  const info = soleTool(tool);
  if (!info) throw new Error(`${tool} is not listed for the agent`);
  return resultText(await vscode.lm.invokeTool(info.name, { input, toolInvocationToken: undefined }, token));
}

/**
 * The agent calls the running copy's `tool`, and cancels the call once the question it raised is on
 * screen (after `onScreen` looked at it). Resolves once the call ended and no question is left.
 */
export async function cancelOnceAsked(s: TestServices, tool: string, input: object, onScreen: (shown: ShownPrompt) => void): Promise<void> {
  const cts = new vscode.CancellationTokenSource();
  try {
    const call = callSole(tool, input, cts.token).then(
      () => 'settled',
      () => 'rejected',
    );
    onScreen(await nextPrompt(s));
    cts.cancel();
    await call;
    await waitFor(() => s.broker.queue.size === 0, 'the question closed');
  } finally {
    cts.dispose();
  }
}

/**
 * Connects an SDK client named `clientName` that declares `capabilities` over `transport`, takes
 * what `read` reads of what it was told, and closes it.
 */
export async function seenBy<T>(
  clientName: string,
  capabilities: Record<string, unknown>,
  transport: Transport,
  read: (client: Client) => T | Promise<T>,
): Promise<T> {
  const client = new Client({ name: clientName, version: '0' }, { capabilities });
  await client.connect(transport);
  try {
    return await read(client);
  } finally {
    await client.close();
  }
}

/**
 * A transport to a server's gateway as VS Code's agent opens it by default: the stdio definition
 * our provider resolves for it (our relay, with the socket and key in its environment), started as
 * VS Code starts one (extHostMcpNode.ts: the host's environment, then the definition's; null removes).
 */
export function gatewayTransport(s: TestServices, def: { readonly label: string }): StdioClientTransport {
  const provider = new GatewayDefinitionProvider(s.gateway, path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'dist', 'stdioRelay.js'));
  const listed = provider.provideMcpServerDefinitions().find((d) => d.label === def.label);
  const resolved = listed && provider.resolveMcpServerDefinition(listed);
  if (!(resolved instanceof vscode.McpStdioServerDefinition)) throw new Error(`the gateway offers ${def.label} over no stdio definition`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...resolved.env })) if (v !== null && v !== undefined) env[k] = String(v);
  return new StdioClientTransport({ command: resolved.command, args: resolved.args, env });
}

/**
 * One server run twice, as the parity suites compare it: `vscode` from `.vscode/mcp.json`, which
 * with chat on and `workspaceMcpJson: auto` is VS Code's to run, and `ours` from our workspace
 * setting. `start` resolves once ours runs and the gateway offers it (neither copy is started for
 * the agent yet); `restore` puts the file and both settings back, whether or not `start` got far,
 * and waits until ours is gone.
 */
export function bothCopies(
  s: TestServices,
  copies: { readonly vscode: readonly [string, Record<string, unknown>]; readonly ours: readonly [string, Record<string, unknown>] },
): { start(): Promise<void>; restore(): Promise<void> } {
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
  const mcpJson = workspaceMcpJson();
  const mode = config().inspect('workspaceMcpJson')?.workspaceValue;
  const servers = config().inspect('servers')?.workspaceValue;
  const [theirs, theirDefinition] = copies.vscode;
  const [ours, ourDefinition] = copies.ours;
  return {
    async start() {
      // VS Code's copy: chat is on in this host, so with `auto` the mcp.json servers are VS Code's.
      await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
      const json = JSON.parse(mcpJson.original) as { servers: Record<string, unknown> };
      json.servers[theirs] = theirDefinition;
      writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
      await config().update(
        'servers',
        { ...(servers as Record<string, unknown> | undefined), [ours]: ourDefinition },
        vscode.ConfigurationTarget.Workspace,
      );
      await waitForRunning(s, ours);
      await waitFor(() => s.gateway.has(ours), 'the gateway offers ours');
    },
    async restore() {
      mcpJson.restore();
      await config().update('servers', servers, vscode.ConfigurationTarget.Workspace);
      await config().update('workspaceMcpJson', mode, vscode.ConfigurationTarget.Workspace);
      await waitFor(() => !s.manager.get(ours), `${ours} gone`);
    },
  };
}
