import * as vscode from 'vscode';
import { keyHeaders } from './admission';
import type { Gateway } from './gateway';
import { KEY_ENV, SOCKET_ENV } from './relayEnv';

/** The id in package.json's `contributes.mcpServerDefinitionProviders`. */
export const PROVIDER_ID = 'mcpElicitation.gateway';

type GatewayDefinition = vscode.McpStdioServerDefinition | vscode.McpHttpServerDefinition;

/**
 * Tells VS Code about the servers we broker, one definition per server, labelled with its name.
 * By default a stdio definition: VS Code runs our relay (stdioRelay.ts) with its own runtime, and
 * the relay joins VS Code's stdio to the server's gateway socket. With `mcpElicitation.gateway.
 * transport: "http"`, an HTTP definition pointing at the server's gateway endpoint.
 *
 * The activation secret (and the socket, which changes with each activation) is added only when
 * VS Code resolves a definition to start it: VS Code caches the listed definitions on disk, and a
 * key written there would outlive this session and be readable by anything that reads that cache.
 */
export class GatewayDefinitionProvider implements vscode.McpServerDefinitionProvider<GatewayDefinition> {
  readonly onDidChangeMcpServerDefinitions: vscode.Event<void>;

  /** `relayScript`: the path of dist/stdioRelay.js. */
  constructor(
    private readonly gateway: Gateway,
    private readonly relayScript: string,
  ) {
    this.onDidChangeMcpServerDefinitions = gateway.onDidChangeDefinitions;
  }

  provideMcpServerDefinitions(): GatewayDefinition[] {
    const stdio = this.gateway.agentTransport() === 'stdio';
    return this.gateway
      .definitions()
      .map((d) =>
        stdio && d.socket !== undefined ? this.relay(d.label) : new vscode.McpHttpServerDefinition(d.label, vscode.Uri.parse(d.url)),
      );
  }

  /** Adds the key for this start; a server removed since VS Code listed it is not started. */
  resolveMcpServerDefinition(server: GatewayDefinition): GatewayDefinition | undefined {
    const current = this.gateway.definitions().find((d) => d.label === server.label);
    if (!current) return undefined;
    if (server instanceof vscode.McpStdioServerDefinition && current.socket !== undefined) {
      return this.relay(
        server.label,
        {
          ...server.env,
          // VS Code's runtime is Electron on the desktop: this makes it plain Node.js, as VS Code does for its own helpers.
          ELECTRON_RUN_AS_NODE: '1',
          // The user's Node.js options (a debugger, a preloaded module) are for their programs, not for the relay.
          NODE_OPTIONS: null,
          [SOCKET_ENV]: current.socket,
          [KEY_ENV]: this.gateway.secret,
        },
        server.version,
      );
    }
    // The endpoint of the moment, should the listed one be stale (a port changes when an endpoint reopens).
    const headers = server instanceof vscode.McpHttpServerDefinition ? server.headers : {};
    return new vscode.McpHttpServerDefinition(
      server.label,
      vscode.Uri.parse(current.url),
      { ...headers, ...keyHeaders(this.gateway.secret) },
      server.version,
    );
  }

  /** Our relay, run with VS Code's own runtime (the extension host's executable). */
  private relay(label: string, env?: Record<string, string | number | null>, version?: string): vscode.McpStdioServerDefinition {
    return new vscode.McpStdioServerDefinition(label, process.execPath, [this.relayScript], env, version);
  }
}

export function registerGatewayProvider(gateway: Gateway, relayScript: string): vscode.Disposable {
  return vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, new GatewayDefinitionProvider(gateway, relayScript));
}
