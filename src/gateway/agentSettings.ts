import * as vscode from 'vscode';
import { agentCanRunServers, agentRunsFileServers, mcpJsonOwner, parseMcpJsonMode, type ChatMcpSettings } from './ownership';

function chatSettings(): ChatMcpSettings {
  const chat = vscode.workspace.getConfiguration('chat');
  return {
    disableAIFeatures: chat.get('disableAIFeatures'),
    mcpEnabled: chat.get('mcp.enabled'),
    mcpAccess: chat.get('mcp.access'),
  };
}

/** Whether VS Code's chat can start MCP servers (its AI features and MCP support are on): our gateway's included. */
export function agentOn(): boolean {
  return agentCanRunServers(chatSettings());
}

/** Whether VS Code's chat runs the servers of the files it reads (not with `chat.mcp.access: "registry"`). */
export function agentRunsFiles(): boolean {
  return agentRunsFileServers(chatSettings());
}

/** Who runs the servers of `.vscode/mcp.json`, from our setting and VS Code's. */
export function currentMcpJsonOwner(): 'vscode' | 'us' {
  return mcpJsonOwner(parseMcpJsonMode(vscode.workspace.getConfiguration('mcpElicitation').get('workspaceMcpJson')), agentRunsFiles());
}

/** How VS Code's agent reaches the gateway: a relay process over stdio (the default), or HTTP. */
export function gatewayTransport(): 'stdio' | 'http' {
  return vscode.workspace.getConfiguration('mcpElicitation').get('gateway.transport') === 'http' ? 'http' : 'stdio';
}

/** Fires when anything that decides ownership or the agent's reach changes. */
export function onDidChangeAgentSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (
      e.affectsConfiguration('chat.disableAIFeatures') ||
      e.affectsConfiguration('chat.mcp') ||
      e.affectsConfiguration('mcpElicitation.workspaceMcpJson') ||
      e.affectsConfiguration('mcpElicitation.gateway.transport')
    ) {
      listener();
    }
  });
}
