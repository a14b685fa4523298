/**
 * Who runs which server, so that a server runs once and its tools reach the agent once.
 *
 * - Servers in our setting `mcpElicitation.servers` are ours: we run them, and VS Code's agent
 *   reaches them only through our gateway.
 * - Servers in `.vscode/mcp.json` are VS Code's while its chat can run them: we leave them alone
 *   and offer to route them through us. When VS Code's AI features are off, nothing else runs
 *   them, so we do (Run Tool and the API keep working as before), without a gateway.
 *
 * `mcpElicitation.workspaceMcpJson` overrides the automatic choice. No `vscode` import.
 */
import { vscodeReads } from '../config/parse/vscodeReads';

export { vscodeReads };

export type McpJsonMode = 'auto' | 'vscode' | 'ours';

export function parseMcpJsonMode(value: unknown): McpJsonMode {
  return value === 'vscode' || value === 'ours' ? value : 'auto';
}

/** Whether VS Code's chat can start MCP servers, from its settings as read. */
export function agentCanRunServers(chat: {
  readonly disableAIFeatures?: unknown;
  readonly mcpEnabled?: unknown;
  readonly mcpAccess?: unknown;
}): boolean {
  return chat.disableAIFeatures !== true && chat.mcpEnabled !== false && chat.mcpAccess !== 'none';
}

/** Who runs the servers defined in `.vscode/mcp.json`. */
export function mcpJsonOwner(mode: McpJsonMode, agentOn: boolean): 'vscode' | 'us' {
  if (mode === 'auto') return agentOn ? 'vscode' : 'us';
  return mode === 'vscode' ? 'vscode' : 'us';
}

/**
 * Whether the gateway offers a server to VS Code's agent: only servers VS Code does not read
 * itself (our setting; Copilot Global before 1.140). A server from mcp.json that we run (agent
 * off, or `ours`) is not offered, since VS Code reads that file itself and would list its tools a
 * second time.
 */
export function offeredToAgent(source: { readonly kind: string; readonly origin?: string }, vscodeVersion: string): boolean {
  return !vscodeReads(source, vscodeVersion);
}
