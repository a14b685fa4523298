import type * as vscode from 'vscode';
import type { Logger } from './log';

/**
 * One log per server, as VS Code keeps one output channel per MCP server: its stderr, its
 * lifecycle and its protocol trace, apart from the extension's own log, where a busy server
 * would drown everything else. Each is created on first use, redacts with the extension's
 * secrets, and lives until the extension stops, so a server's last lines stay readable after it
 * is removed from the configuration.
 */
export class ServerLogs implements vscode.Disposable {
  private readonly logs = new Map<string, Logger>();

  constructor(private readonly main: Logger) {}

  /** The channel's title: the extension's name, then the server's, as VS Code titles its own ("MCP: name"). */
  static channelName(server: string): string {
    return `MCP Elicitation: ${server}`;
  }

  for(server: string): Logger {
    let log = this.logs.get(server);
    if (!log) {
      log = this.main.sibling(ServerLogs.channelName(server));
      this.logs.set(server, log);
    }
    return log;
  }

  has(server: string): boolean {
    return this.logs.has(server);
  }

  show(server: string): void {
    this.for(server).show();
  }

  dispose(): void {
    for (const log of this.logs.values()) log.dispose();
    this.logs.clear();
  }
}
