import * as vscode from 'vscode';
import { SECRET_HEADER } from './admission';
import type { Gateway } from './gateway';

/** The id in package.json's `contributes.mcpServerDefinitionProviders`. */
export const PROVIDER_ID = 'mcpElicitation.gateway';

/**
 * Tells VS Code about the servers we broker: one HTTP definition per server, labelled with its
 * name and pointing at its gateway endpoint. The activation secret is added only when VS Code
 * resolves a definition to start it: VS Code caches the listed definitions on disk, and a key
 * written there would outlive this session and be readable by anything that reads that cache.
 */
export class GatewayDefinitionProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> {
  readonly onDidChangeMcpServerDefinitions: vscode.Event<void>;

  constructor(private readonly gateway: Gateway) {
    this.onDidChangeMcpServerDefinitions = gateway.onDidChangeDefinitions;
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    return this.gateway.definitions().map((d) => new vscode.McpHttpServerDefinition(d.label, vscode.Uri.parse(d.url)));
  }

  /** Adds the key for this start; a server removed since VS Code listed it is not started. */
  resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition): vscode.McpHttpServerDefinition | undefined {
    const current = this.gateway.definitions().find((d) => d.label === server.label);
    if (!current) return undefined;
    // The endpoint of the moment, should the listed one be stale (a port changes when an endpoint reopens).
    return new vscode.McpHttpServerDefinition(
      server.label,
      vscode.Uri.parse(current.url),
      { ...server.headers, [SECRET_HEADER]: this.gateway.secret },
      server.version,
    );
  }
}

export function registerGatewayProvider(gateway: Gateway): vscode.Disposable {
  return vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, new GatewayDefinitionProvider(gateway));
}
