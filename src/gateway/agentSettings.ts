import * as vscode from 'vscode';
import { agentCanRunServers, mcpJsonOwner, parseMcpJsonMode } from './ownership';

/** Whether VS Code's chat can start MCP servers (its AI features and MCP support are on). */
export function agentOn(): boolean {
  const chat = vscode.workspace.getConfiguration('chat');
  return agentCanRunServers({
    disableAIFeatures: chat.get('disableAIFeatures'),
    mcpEnabled: chat.get('mcp.enabled'),
    mcpAccess: chat.get('mcp.access'),
  });
}

/** Who runs the servers of `.vscode/mcp.json`, from our setting and VS Code's. */
export function currentMcpJsonOwner(): 'vscode' | 'us' {
  return mcpJsonOwner(parseMcpJsonMode(vscode.workspace.getConfiguration('mcpElicitation').get('workspaceMcpJson')), agentOn());
}

/** Fires when anything that decides ownership or the agent's reach changes. */
export function onDidChangeAgentSettings(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (
      e.affectsConfiguration('chat.disableAIFeatures') ||
      e.affectsConfiguration('chat.mcp') ||
      e.affectsConfiguration('mcpElicitation.workspaceMcpJson')
    ) {
      listener();
    }
  });
}
