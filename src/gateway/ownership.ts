/**
 * Who runs which server, so that a server runs once and its tools reach the agent once.
 *
 * - Servers in our setting `mcpElicitation.servers` are ours: we run them, and VS Code's agent
 *   reaches them only through our gateway.
 * - Servers in `.vscode/mcp.json` are VS Code's while its chat can run them: we leave them alone
 *   and offer to route them through us. When VS Code's AI features are off, nothing else runs
 *   them, so we do (Run Tool and the API keep working as before), without a gateway. The same
 *   when `chat.mcp.access` is `"registry"`: VS Code 1.139 then runs no server of those files (only
 *   ones installed from its MCP registry), but still runs extensions' servers, our gateway's.
 *
 * `mcpElicitation.workspaceMcpJson` overrides the automatic choice. No `vscode` import.
 */
import { vscodeReads } from '../config/parse/vscodeReads';

export { vscodeReads };

export type McpJsonMode = 'auto' | 'vscode' | 'ours';

export function parseMcpJsonMode(value: unknown): McpJsonMode {
  return value === 'vscode' || value === 'ours' ? value : 'auto';
}

/** VS Code's settings that decide which MCP servers its chat runs, as read. */
export interface ChatMcpSettings {
  readonly disableAIFeatures?: unknown;
  readonly mcpEnabled?: unknown;
  /** `chat.mcp.access`: `"all"` (default), `"registry"` or `"none"`; a policy may set it. */
  readonly mcpAccess?: unknown;
}

/**
 * Whether VS Code's chat can start MCP servers at all: extensions' servers, our gateway's among
 * them. `"registry"` does not stop those: 1.139 registers an extension's collection as the
 * extension provides it (MainThreadMcp `$upsertMcpCollection`), and its access check refuses
 * only `"none"` (AllowedMcpServersService `checkServerAllowed`).
 */
export function agentCanRunServers(chat: ChatMcpSettings): boolean {
  return chat.disableAIFeatures !== true && chat.mcpEnabled !== false && chat.mcpAccess !== 'none';
}

/**
 * Whether VS Code runs the servers of the mcp.json-style files it reads. With `"registry"`, 1.139
 * starts no discovery but the installed servers' one, and that one skips every server without
 * registry metadata checked against the registry (McpWorkbenchService `getEnablementStatus`:
 * "workspaceRoot" `.mcp.json`, or no `gallery`): a server written into a file by hand never runs.
 */
export function agentRunsFileServers(chat: ChatMcpSettings): boolean {
  return agentCanRunServers(chat) && chat.mcpAccess !== 'registry';
}

/** Who runs the servers defined in `.vscode/mcp.json`, given whether VS Code runs that file's servers. */
export function mcpJsonOwner(mode: McpJsonMode, agentRunsFiles: boolean): 'vscode' | 'us' {
  if (mode === 'auto') return agentRunsFiles ? 'vscode' : 'us';
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

/**
 * Whether the gateway offers a server we run: one of our setting, or one the user routed here
 * while VS Code runs its file's servers. When VS Code refuses that file's servers
 * (`chat.mcp.access: "registry"`) a route does not hand it to the agent: the agent would reach
 * through us a server VS Code's own access setting keeps from it.
 */
export function offeredThroughGateway(
  source: { readonly kind: string; readonly origin?: string },
  vscodeVersion: string,
  routed: boolean,
  agentRunsFiles: boolean,
): boolean {
  return offeredToAgent(source, vscodeVersion) || (routed && agentRunsFiles);
}
