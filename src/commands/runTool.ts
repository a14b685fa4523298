import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ServerManager } from '../servers/serverManager';
import type { ElicitationBroker } from '../elicitation/broker';
import { callToolWithElicitation, UrlElicitationDeclinedError } from '../servers/toolRunner';
import type { Connection } from '../servers/connection';
import type { Logger } from '../util/log';
import type { ResultDocuments } from '../ui/resultDocuments';

export interface RunToolDeps {
  readonly manager: ServerManager;
  readonly broker: ElicitationBroker;
  readonly log: Logger;
  readonly results: ResultDocuments;
  /** Collects arguments for a tool's inputSchema through the elicitation renderer (or JSON fallback). */
  readonly collectArgs: (conn: Connection, tool: Tool) => Promise<Record<string, unknown> | undefined>;
}

/**
 * "MCP Elicitation: Run Tool…". With `(server, tool, args)` it skips the pickers, so tests and
 * other extensions can call it; it then resolves to the tool result (or throws the error).
 */
export async function runTool(deps: RunToolDeps, serverArg?: unknown, toolArg?: unknown, argsArg?: unknown): Promise<CallToolResult | undefined> {
  const direct = typeof serverArg === 'string' && typeof toolArg === 'string';
  const conn = typeof serverArg === 'string' ? deps.manager.get(serverArg) : await pickServer(deps.manager);
  if (!conn) {
    if (typeof serverArg === 'string') throw new Error(vscode.l10n.t('No MCP server named “{0}”.', serverArg));
    return undefined;
  }
  const tool = typeof toolArg === 'string' ? conn.tools.find((t) => t.name === toolArg) ?? { name: toolArg, inputSchema: { type: 'object' as const } } : await pickTool(conn);
  if (!tool) return undefined;
  const args = argsArg !== undefined ? (argsArg as Record<string, unknown>) : direct ? undefined : await deps.collectArgs(conn, tool);
  if (args === undefined && !direct && Object.keys(tool.inputSchema.properties ?? {}).length > 0) return undefined;

  const run = (signal?: AbortSignal): Promise<CallToolResult> =>
    callToolWithElicitation(conn, deps.broker, tool.name, args, signal, (m) => deps.log.info(m));
  try {
    const result = direct
      ? await run()
      : await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Running {0} on {1}…', tool.name, conn.name), cancellable: true },
          (_p, token) => {
            const ac = new AbortController();
            token.onCancellationRequested(() => ac.abort());
            return run(ac.signal);
          },
        );
    deps.log.info(`[${conn.name}] tool ${tool.name} returned${result.isError ? ' an error' : ''}: ${JSON.stringify(result).slice(0, 2000)}`);
    if (!direct) await deps.results.show(conn.name, tool.name, result);
    return result;
  } catch (err) {
    const original = err instanceof UrlElicitationDeclinedError ? err.original : err;
    // SDK servers put "MCP error <code>: " in the message and the client SDK adds it again.
    const msg = (original instanceof Error ? original.message : String(original)).replace(/^(MCP error -?\d+: )\1+/, '$1');
    deps.log.warn(`[${conn.name}] tool ${tool.name} failed: ${msg}${err instanceof UrlElicitationDeclinedError ? ` (${err.message})` : ''}`);
    if (direct) throw err;
    void vscode.window.showErrorMessage(vscode.l10n.t('{0} on {1} failed: {2}', tool.name, conn.name, msg));
    return undefined;
  }
}

async function pickServer(manager: ServerManager): Promise<Connection | undefined> {
  const running = manager.running();
  if (running.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No MCP server is running.'));
    return undefined;
  }
  if (running.length === 1) return running[0];
  const picked = await vscode.window.showQuickPick(
    running.map((c) => ({ label: c.name, description: (c.state.kind === 'running' ? c.state.serverInfo?.name : undefined) ?? '', detail: vscode.l10n.t('{0} tools', c.tools.length), conn: c })),
    { title: vscode.l10n.t('Run Tool: pick a server'), placeHolder: vscode.l10n.t('MCP server') },
  );
  return picked?.conn;
}

async function pickTool(conn: Connection): Promise<Tool | undefined> {
  const picked = await vscode.window.showQuickPick(
    conn.tools.map((t) => ({ label: t.title ?? t.annotations?.title ?? t.name, description: t.title ? t.name : '', detail: t.description ?? '', tool: t })),
    { title: vscode.l10n.t('Run Tool on {0}', conn.name), placeHolder: vscode.l10n.t('Tool'), matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.tool;
}
