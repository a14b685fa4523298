import * as vscode from 'vscode';
import { SECRET_HEADER } from './admission';
import type { Gateway } from './gateway';

/** The id in package.json's `contributes.mcpServerDefinitionProviders`. */
export const PROVIDER_ID = 'mcpElicitation.gateway';

/**
 * Tells VS Code about the servers we broker: one HTTP definition per server, labelled with its
 * name, pointing at its gateway endpoint and carrying the activation secret.
 */
export class GatewayDefinitionProvider implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> {
  readonly onDidChangeMcpServerDefinitions: vscode.Event<void>;

  constructor(private readonly gateway: Gateway) {
    this.onDidChangeMcpServerDefinitions = gateway.onDidChangeDefinitions;
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    return this.gateway.definitions().map((d) => new vscode.McpHttpServerDefinition(d.name, vscode.Uri.parse(d.url), { [SECRET_HEADER]: this.gateway.secret }));
  }

  /** A server removed since VS Code listed it is not started. */
  resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition): vscode.McpHttpServerDefinition | undefined {
    return this.gateway.has(server.label) ? server : undefined;
  }
}

export function registerGatewayProvider(gateway: Gateway): vscode.Disposable {
  return vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, new GatewayDefinitionProvider(gateway));
}
