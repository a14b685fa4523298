import * as vscode from 'vscode';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ServerEntry, ServerManager } from '../servers/serverManager';
import type { ElicitationBroker } from '../elicitation/broker';
import type * as ToolRunner from '../servers/toolRunner';
import type { Connection } from '../servers/connection';
import { whenReady } from '../servers/readiness';
import type { Logger } from '../util/log';
import type { ResultDocuments } from '../ui/resultDocuments';
import { displayText, MAX_DESCRIPTION_CHARS } from '../elicitation/safety/displayText';
import { MAX_MESSAGE_CHARS } from '../elicitation/safety/text';
import * as safe from '../util/safeText';
import { serverSentence } from '../servers/sentences';
import type { ServerDefinition } from '../config/parse/definitions';
import { routeOf } from '../gateway/routes';
import { whereDefinedText } from '../ui/wording/serverSource';

/** The walkthrough, for `workbench.action.openWalkthrough` (publisher.name#id). */
const WALKTHROUGH = 'mcp-elicitation.mcp-elicitation-host#mcpElicitation.getStarted';

export interface RunToolDeps {
  readonly manager: ServerManager;
  readonly broker: ElicitationBroker;
  readonly log: Logger;
  readonly results: ResultDocuments;
  /**
   * The tool-call path, handed in rather than imported: this file loads lazily (dist/runTool.js),
   * and a copy of its own would number MRTR calls apart from the gateway's and the session's.
   */
  readonly toolRunner: Pick<typeof ToolRunner, 'callToolWithElicitation' | 'UrlElicitationDeclinedError'>;
  /** Collects arguments for a tool's inputSchema through the elicitation renderer (or JSON fallback). */
  readonly collectArgs: (conn: Connection, tool: Tool) => Promise<Record<string, unknown> | undefined>;
  /**
   * "Route Through MCP Elicitation Host" for a server VS Code runs (the Route command); true once
   * the server is ours.
   */
  readonly route: (name: string) => Promise<boolean>;
  /** Each picker as it opens, with its rows, and `noServer` when there was nothing to list (in-host tests observe these). */
  readonly onDidShowPicker?: (kind: 'server' | 'tool' | 'noServer', items?: readonly vscode.QuickPickItem[]) => void;
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
    deps.toolRunner.callToolWithElicitation(
      conn,
      deps.broker,
      { name: tool.name, ...(args ? { arguments: args } : {}) },
      { signal, log: (m) => deps.log.info(m), l10n: vscode.l10n },
    );
  try {
    const result = direct
      ? await run()
      : await safe.withProgress(
          {
            location: vscode.ProgressLocation.Notification,
            title: safe.l10n.t('Running {0} on {1}…', displayText(tool.name), displayText(conn.name)),
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
    const original = err instanceof deps.toolRunner.UrlElicitationDeclinedError ? err.original : err;
    // SDK servers put "MCP error <code>: " in the message and the client SDK adds it again.
    const msg = (original instanceof Error ? original.message : String(original)).replace(/^(MCP error -?\d+: )\1+/, '$1');
    deps.log.warn(
      `[${conn.name}] tool ${tool.name} failed: ${msg}${err instanceof deps.toolRunner.UrlElicitationDeclinedError ? ` (${err.message})` : ''}`,
    );
    if (direct) throw err;
    void safe.showErrorMessage(
      safe.l10n.t('{0} on {1} failed: {2}', displayText(tool.name), displayText(conn.name), displayText(msg, MAX_MESSAGE_CHARS)),
    );
    return undefined;
  }
}

/** What a row of the server picker stands for: a server of ours, or one VS Code runs. */
type ServerPick = { readonly kind: 'ours'; readonly conn: Connection } | { readonly kind: 'vscode'; readonly def: ServerDefinition };

interface ServerItem extends vscode.QuickPickItem {
  /** Absent on the separator. */
  readonly pick?: ServerPick;
}

/**
 * A row of the server picker. Its label, description and detail draw `$(icon)`s: the server's
 * serverInfo name and an error's reason (which quotes the server) are neutralised like the name.
 */
function serverItem(conn: Connection): ServerItem {
  const s = conn.state;
  const pick = { kind: 'ours', conn } as const;
  const name = displayText(conn.name);
  switch (s.kind) {
    case 'running':
      return conn.ready
        ? {
            label: name,
            description: displayText(s.serverInfo?.name ?? ''),
            detail: vscode.l10n.t('{0} tools', conn.tools.length),
            iconPath: new vscode.ThemeIcon('pass-filled'),
            pick,
          }
        : { label: name, description: vscode.l10n.t('starting…'), iconPath: new vscode.ThemeIcon('loading~spin'), pick };
    case 'starting':
      return { label: name, description: vscode.l10n.t('starting…'), iconPath: new vscode.ThemeIcon('loading~spin'), pick };
    case 'untrusted':
      return {
        label: name,
        description: serverSentence({ key: 'untrusted' }, vscode.l10n),
        iconPath: new vscode.ThemeIcon('shield'),
        pick,
      };
    case 'error':
    case 'stopped':
      return {
        label: name,
        description: vscode.l10n.t('stopped: pick to start it'),
        ...(s.kind === 'error' ? { detail: displayText(s.reason, MAX_MESSAGE_CHARS) } : {}),
        iconPath: new vscode.ThemeIcon('debug-start'),
        pick,
      };
  }
}

/**
 * A server VS Code runs for its chat: we do not run it, so it has no tools here until it is routed.
 * Picking it routes it, then goes on to its tools ("Route and Run").
 */
function vscodeServerItem(def: ServerDefinition): ServerItem {
  const where = whereDefinedText(def.source, vscode.l10n);
  const pick = { kind: 'vscode', def } as const;
  return {
    label: displayText(def.name),
    description: vscode.l10n.t('run by VS Code · {0}', where),
    detail: vscode.l10n.t('Route and Run: route it through MCP Elicitation Host, so its questions come here, then pick a tool'),
    iconPath: new vscode.ThemeIcon('arrow-swap'),
    pick,
  };
}

/**
 * Every configured server, not only running ones: right after the window opens most are still
 * starting. A starting server is waited for; a stopped one is started first. Servers VS Code runs
 * are listed too, each with Route and Run.
 */
async function pickServer(deps: RunToolDeps): Promise<Connection | undefined> {
  const entries = deps.manager.list();
  const conns = entries.flatMap((e) => (e.connection ? [e.connection] : []));
  const theirs = deps.manager.vscodeOwned();
  if (conns.length === 0 && theirs.length === 0) {
    deps.onDidShowPicker?.('noServer');
    void tellNoServer(entries);
    return undefined;
  }
  const only = theirs.length === 0 && conns.length === 1 ? conns[0] : undefined;
  const picked: ServerPick | undefined =
    only && (only.state.kind === 'running' || only.state.kind === 'starting')
      ? { kind: 'ours', conn: only }
      : await showServerPicker(deps, conns, theirs);
  if (!picked) return undefined;
  const conn = picked.kind === 'ours' ? picked.conn : await routeForRun(deps, picked.def);
  if (!conn) return undefined;
  if (conn.ready) return conn;
  if (conn.state.kind === 'untrusted') {
    await deps.manager.start(conn.name); // says why it does not start
    return undefined;
  }
  if (conn.state.kind === 'stopped' || conn.state.kind === 'error') void deps.manager.start(conn.name);
  const readiness = await safe.withProgress(
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
 * Nothing to list. "No MCP server is configured" only when that is so in every source; a server
 * whose definition is broken is configured, and the Servers view says what is wrong with it.
 */
async function tellNoServer(entries: readonly ServerEntry[]): Promise<void> {
  const broken = entries.filter((e) => e.configError);
  if (broken.length > 0) {
    const show = vscode.l10n.t('Show Servers');
    const choice = await safe.showWarningMessage(
      safe.l10n.t(
        'No MCP server can run: the definition of {0} has errors. The Servers view says which.',
        displayText(broken.map((e) => e.name).join(', ')),
      ),
      show,
    );
    if (choice === show) await vscode.commands.executeCommand('mcpElicitation.servers.focus');
    return;
  }
  const start = vscode.l10n.t('Get Started');
  const settings = vscode.l10n.t('Open Settings');
  const choice = await safe.showInformationMessage(
    safe.l10n.t(
      'No MCP server is configured: none in .vscode/mcp.json, .mcp.json, your user mcp.json, a .code-workspace file or the mcpElicitation.servers setting.',
    ),
    start,
    settings,
  );
  if (choice === start) await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
  if (choice === settings) await vscode.commands.executeCommand('workbench.action.openSettings', 'mcpElicitation.servers');
}

/**
 * Route and Run's first half: the Route command routes the server here (it re-reads the definition
 * and asks what it must), and we run its tool once our copy is up.
 */
async function routeForRun(deps: RunToolDeps, def: ServerDefinition): Promise<Connection | undefined> {
  // Every server VS Code runs can be routed (gateway/routes.ts); a setting's never reaches here.
  if (!routeOf(def)) return undefined;
  if (!(await deps.route(def.name))) return undefined;
  const conn = deps.manager.get(def.name) ?? (def.writtenAs ? deps.manager.get(def.writtenAs) : undefined);
  if (!conn) deps.log.warn(`[${def.name}] routed, but no server of that name is configured here`);
  return conn;
}

/**
 * The server picker. showQuickPick rather than createQuickPick: the workbench closes it on Enter
 * at once, so typing that follows goes to the next step, not into a picker still closing.
 */
function showServerPicker(
  deps: RunToolDeps,
  conns: readonly Connection[],
  theirs: readonly ServerDefinition[],
): Promise<ServerPick | undefined> {
  const items: ServerItem[] = [
    ...conns.map(serverItem),
    ...(theirs.length ? [{ label: vscode.l10n.t('Run by VS Code'), kind: vscode.QuickPickItemKind.Separator }] : []),
    ...[...theirs].sort((a, b) => a.name.localeCompare(b.name)).map(vscodeServerItem),
  ];
  const picked = tracked(
    deps,
    vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Run Tool: pick a server'),
      placeHolder: vscode.l10n.t('MCP server'),
      matchOnDescription: true,
    }),
  );
  deps.onDidShowPicker?.('server', items);
  return picked.then((item) => item?.pick);
}

interface ToolItem extends vscode.QuickPickItem {
  readonly tool: Tool;
}

/**
 * The tool picker. Every row is the server's own text, and a QuickPick row draws `$(icon)`s: each
 * part is neutralised, so a tool cannot wear our icons or push its name out of view with controls.
 */
function pickTool(deps: RunToolDeps, conn: Connection): Promise<Tool | undefined> {
  const items = conn.tools.map((t): ToolItem => ({
    label: displayText(t.title ?? t.annotations?.title ?? t.name),
    description: t.title ? displayText(t.name) : '',
    detail: displayText(t.description ?? '', MAX_DESCRIPTION_CHARS),
    tool: t,
  }));
  const picked = tracked(
    deps,
    vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Run Tool on {0}', displayText(conn.name)),
      placeHolder: vscode.l10n.t('Tool'),
      matchOnDescription: true,
      matchOnDetail: true,
    }),
  );
  deps.onDidShowPicker?.('tool', items);
  return picked.then((item) => item?.tool);
}
