import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ServerManager } from '../servers/serverManager';
import type { ElicitationBroker } from '../elicitation/broker';
import { callToolWithElicitation, UrlElicitationDeclinedError } from '../servers/toolRunner';
import type { Connection } from '../servers/connection';
import { whenReady } from '../servers/readiness';
import type { Logger } from '../util/log';
import type { ResultDocuments } from '../ui/resultDocuments';
import { displayText } from '../elicitation/safety/displayText';
import { MAX_MESSAGE_CHARS } from '../elicitation/safety/text';
import * as safe from '../util/safeText';
import { serverSentence } from '../servers/sentences';

export interface RunToolDeps {
  readonly manager: ServerManager;
  readonly broker: ElicitationBroker;
  readonly log: Logger;
  readonly results: ResultDocuments;
  /** Collects arguments for a tool's inputSchema through the elicitation renderer (or JSON fallback). */
  readonly collectArgs: (conn: Connection, tool: Tool) => Promise<Record<string, unknown> | undefined>;
  /** Each picker as it opens (in-host tests observe when). */
  readonly onDidShowPicker?: (kind: 'server' | 'tool') => void;
  /** Marks a picker as on screen until it closes, so a result arriving meanwhile opens behind it. */
  readonly whileOnScreen?: <T>(shown: Thenable<T>) => Promise<T>;
}

const tracked = <T>(deps: RunToolDeps, shown: Thenable<T>): Promise<T> =>
  deps.whileOnScreen ? deps.whileOnScreen(shown) : Promise.resolve(shown);

/**
 * "MCP Elicitation: Run Tool…". With `(server, tool, args)` it skips the pickers, so tests and
 * other extensions can call it; it then resolves to the tool result (or throws the error).
 */
export async function runTool(
  deps: RunToolDeps,
  serverArg?: unknown,
  toolArg?: unknown,
  argsArg?: unknown,
): Promise<CallToolResult | undefined> {
  const direct = typeof serverArg === 'string' && typeof toolArg === 'string';
  const conn = typeof serverArg === 'string' ? deps.manager.get(serverArg) : await pickServer(deps);
  if (!conn) {
    if (typeof serverArg === 'string') throw new Error(vscode.l10n.t('No MCP server named “{0}”.', serverArg));
    return undefined;
  }
  const tool =
    typeof toolArg === 'string'
      ? (conn.tools.find((t) => t.name === toolArg) ?? { name: toolArg, inputSchema: { type: 'object' as const } })
      : await pickTool(deps, conn);
  if (!tool) return undefined;
  const args = argsArg !== undefined ? (argsArg as Record<string, unknown>) : direct ? undefined : await deps.collectArgs(conn, tool);
  if (args === undefined && !direct && Object.keys(tool.inputSchema.properties ?? {}).length > 0) return undefined;

  const run = (signal?: AbortSignal): Promise<CallToolResult> =>
    callToolWithElicitation(
      conn,
      deps.broker,
      { name: tool.name, ...(args ? { arguments: args } : {}) },
      { signal, log: (m) => deps.log.info(m) },
    );
  try {
    const result = direct
      ? await run()
      : await vscode.window.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: vscode.l10n.t('Running {0} on {1}…', tool.name, conn.name),
            cancellable: true,
          },
          (_p, token) => {
            const ac = new AbortController();
            token.onCancellationRequested(() => ac.abort());
            return run(ac.signal);
          },
        );
    deps.log.info(
      `[${conn.name}] tool ${tool.name} returned${result.isError ? ' an error' : ''}: ${JSON.stringify(result).slice(0, 2000)}`,
    );
    if (!direct) await deps.results.show(conn.name, tool.name, result);
    return result;
  } catch (err) {
    const original = err instanceof UrlElicitationDeclinedError ? err.original : err;
    // SDK servers put "MCP error <code>: " in the message and the client SDK adds it again.
    const msg = (original instanceof Error ? original.message : String(original)).replace(/^(MCP error -?\d+: )\1+/, '$1');
    deps.log.warn(
      `[${conn.name}] tool ${tool.name} failed: ${msg}${err instanceof UrlElicitationDeclinedError ? ` (${err.message})` : ''}`,
    );
    if (direct) throw err;
    void safe.showErrorMessage(
      safe.l10n.t('{0} on {1} failed: {2}', displayText(tool.name), displayText(conn.name), displayText(msg, MAX_MESSAGE_CHARS)),
    );
    return undefined;
  }
}

interface ServerItem extends vscode.QuickPickItem {
  readonly conn: Connection;
}

function serverItem(conn: Connection): ServerItem {
  const s = conn.state;
  switch (s.kind) {
    case 'running':
      return conn.ready
        ? {
            label: conn.name,
            description: s.serverInfo?.name ?? '',
            detail: vscode.l10n.t('{0} tools', conn.tools.length),
            iconPath: new vscode.ThemeIcon('pass-filled'),
            conn,
          }
        : { label: conn.name, description: vscode.l10n.t('starting…'), iconPath: new vscode.ThemeIcon('loading~spin'), conn };
    case 'starting':
      return { label: conn.name, description: vscode.l10n.t('starting…'), iconPath: new vscode.ThemeIcon('loading~spin'), conn };
    case 'untrusted':
      return {
        label: conn.name,
        description: serverSentence({ key: 'untrusted' }, vscode.l10n),
        iconPath: new vscode.ThemeIcon('shield'),
        conn,
      };
    case 'error':
    case 'stopped':
      return {
        label: conn.name,
        description: vscode.l10n.t('stopped: pick to start it'),
        ...(s.kind === 'error' ? { detail: s.reason } : {}),
        iconPath: new vscode.ThemeIcon('debug-start'),
        conn,
      };
  }
}

/**
 * Every configured server, not only running ones: right after the window opens most are still
 * starting. A starting server is waited for; a stopped one is started first.
 */
async function pickServer(deps: RunToolDeps): Promise<Connection | undefined> {
  const conns = deps.manager.list().flatMap((e) => (e.connection ? [e.connection] : []));
  if (conns.length === 0) {
    void safe.showInformationMessage(safe.l10n.t('No MCP server is configured. Add one to .vscode/mcp.json.'));
    return undefined;
  }
  const only = conns.length === 1 ? conns[0] : undefined;
  const conn = only && (only.state.kind === 'running' || only.state.kind === 'starting') ? only : await showServerPicker(deps, conns);
  if (!conn) return undefined;
  if (conn.ready) return conn;
  if (conn.state.kind === 'untrusted') {
    await deps.manager.start(conn.name); // says why it does not start
    return undefined;
  }
  if (conn.state.kind === 'stopped' || conn.state.kind === 'error') void deps.manager.start(conn.name);
  const readiness = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: safe.l10n.t('Waiting for {0} to start…', displayText(conn.name)),
      cancellable: true,
    },
    (_p, token) => whenReady(deps.manager, conn, token),
  );
  if (readiness === 'failed') {
    const reason = conn.state.kind === 'error' ? conn.state.reason : conn.state.kind;
    void safe.showErrorMessage(
      safe.l10n.t('MCP server “{0}” did not start: {1}', displayText(conn.name), displayText(reason, MAX_MESSAGE_CHARS)),
    );
  }
  return readiness === 'ready' ? conn : undefined;
}

/**
 * The server picker. showQuickPick rather than createQuickPick: the workbench closes it on Enter
 * at once, so typing that follows goes to the next step, not into a picker still closing.
 */
function showServerPicker(deps: RunToolDeps, conns: readonly Connection[]): Promise<Connection | undefined> {
  const picked = tracked(
    deps,
    vscode.window.showQuickPick(conns.map(serverItem), {
      title: vscode.l10n.t('Run Tool: pick a server'),
      placeHolder: vscode.l10n.t('MCP server'),
    }),
  );
  deps.onDidShowPicker?.('server');
  return picked.then((item) => item?.conn);
}

interface ToolItem extends vscode.QuickPickItem {
  readonly tool: Tool;
}

function pickTool(deps: RunToolDeps, conn: Connection): Promise<Tool | undefined> {
  const picked = tracked(
    deps,
    vscode.window.showQuickPick(
      conn.tools.map((t): ToolItem => ({
        label: t.title ?? t.annotations?.title ?? t.name,
        description: t.title ? t.name : '',
        detail: t.description ?? '',
        tool: t,
      })),
      {
        title: vscode.l10n.t('Run Tool on {0}', conn.name),
        placeHolder: vscode.l10n.t('Tool'),
        matchOnDescription: true,
        matchOnDetail: true,
      },
    ),
  );
  deps.onDidShowPicker?.('tool');
  return picked.then((item) => item?.tool);
}
