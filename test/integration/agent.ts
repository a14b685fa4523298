import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './helpers';

// Playing VS Code's agent without a language model: start a server through VS Code's own MCP
// client (workbench.mcp.startServer), find its tools in vscode.lm.tools and call them with
// vscode.lm.invokeTool, as chat in agent mode does. Shared by the gateway tests and the benchmark.

/** The server id VS Code gives a provider's server: the extension id, lowercased, "/", the label. */
export const gatewayServerId = (name: string): string => `${EXTENSION_ID.toLowerCase()}/${name}`;

/**
 * The agent's name for a tool of a server: `mcp_<prefix>_<tool>`, where VS Code shortens the
 * prefix (for a gateway server `gw-modern` became `gw-moder`): it must end with at least the first
 * six characters of the server's name (or all of a shorter name).
 */
export function agentTool(server: string, tool: string): vscode.LanguageModelToolInformation | undefined {
  const alnum = (v: string): string => v.replace(/[^a-z0-9]/gi, '').toLowerCase();
  const want = alnum(server);
  const candidates = vscode.lm.tools.filter((t) => t.name.startsWith('mcp_') && t.name.endsWith(`_${tool}`));
  const middle = (t: vscode.LanguageModelToolInformation): string => alnum(t.name.slice(4, -tool.length - 1));
  // Longest prefix first: VS Code may shorten a server's name, and `gwrelay` must not answer for `gwrelayhttp`.
  for (let k = want.length; k >= Math.min(want.length, 6); k--) {
    const hit = candidates.find((t) => middle(t).endsWith(want.slice(0, k)));
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Starts a server as chat would and waits until `tool` is listed. `id` defaults to our gateway's
 * id for `name`; `options` go to workbench.mcp.startServer after `waitForLiveTools`.
 */
export async function startAsAgent(
  name: string,
  tool = 'echo',
  id = gatewayServerId(name),
  options: Record<string, unknown> = {},
): Promise<void> {
  // The definition reaches the workbench a moment after its provider (or file) changes, and
  // starting an id the workbench does not know yet does nothing: ask again until the tools are in.
  // Started at least once even when a tool already matches: the match may be another server's
  // whose name starts the same way.
  const t0 = Date.now();
  do {
    if (Date.now() - t0 > 30_000) {
      throw new Error(
        `${name}'s ${tool} never reached vscode.lm.tools (have: ${vscode.lm.tools
          .map((t) => t.name)
          .filter((n) => n.startsWith('mcp_'))
          .join(', ')})`,
      );
    }
    await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true, ...options });
    if (agentTool(name, tool) === undefined) await new Promise((r) => setTimeout(r, 250));
  } while (agentTool(name, tool) === undefined);
}

export function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

export async function invoke(server: string, tool: string, input: object, token?: vscode.CancellationToken): Promise<string> {
  const info = agentTool(server, tool);
  assert.ok(info, `${tool} is listed for the agent`);
  return resultText(await vscode.lm.invokeTool(info.name, { input, toolInvocationToken: undefined }, token));
}
