import * as vscode from 'vscode';
import type { Services } from '../context';
import type { ServersNode } from '../ui/serversView';
import type { PendingNode } from '../ui/pendingView';
import type { PendingView } from '../elicitation/queue/elicitationQueue';
import type { ServerPolicy } from '../elicitation/policy/policy';
import type { Connection } from '../servers/connection';
import type * as RunTool from './runTool';
import { callToolWithElicitation, UrlElicitationDeclinedError } from '../servers/toolRunner';
import { showPending } from './showPending';
import { collectToolArgs } from '../ui/toolArgs';
import { previewForm } from './previewForm';
import { forgetRemembered } from './forgetRemembered';
import { setClientSecret } from './clientSecret';
import type * as RouteCommands from './routeCommands';
import * as safe from '../util/safeText';
import { displayText } from '../elicitation/safety/displayText';

type Handler = (s: Services, ...args: unknown[]) => unknown;

let routeCommands: typeof RouteCommands | undefined;
/** Route / Give Back and their JSON editor load on first use (dist/routing.js, scripts/build.mjs). */
function routing(): typeof RouteCommands {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; see scripts/build.mjs
  routeCommands ??= require('./routeCommands') as typeof RouteCommands;
  return routeCommands;
}

let runToolModule: typeof RunTool | undefined;
/** Run Tool loads on first use too (dist/runTool.js): activation never needs it. */
function runTool(...args: Parameters<typeof RunTool.runTool>): ReturnType<typeof RunTool.runTool> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; see scripts/build.mjs
  runToolModule ??= require('./runTool') as typeof RunTool;
  return runToolModule.runTool(...args);
}

function routeDeps(s: Services): RouteCommands.RouteDeps {
  return { manager: s.manager, routes: s.routes, gateway: s.gateway, log: s.log, extensionId: s.context.extension.id };
}

/** Accepts a tree node, a server name, or nothing (then asks). */
async function serverFrom(s: Services, arg: unknown): Promise<Connection | undefined> {
  if (typeof arg === 'string') return s.manager.get(arg);
  if (typeof arg === 'object' && arg !== null && (arg as ServersNode).kind === 'server') {
    return (arg as Extract<ServersNode, { kind: 'server' }>).entry.connection;
  }
  const entries = s.manager.list().filter((e) => e.connection);
  const picked = await vscode.window.showQuickPick(
    // Names are config keys, maybe from the workspace's own file: a row draws `$(…)` as an icon.
    entries.map((e) => ({ label: displayText(e.name), description: e.connection?.state.kind ?? '', conn: e.connection })),
    { placeHolder: vscode.l10n.t('MCP server') },
  );
  return picked?.conn;
}

function serverName(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && (arg as ServersNode).kind === 'server') {
    return (arg as Extract<ServersNode, { kind: 'server' }>).entry.name;
  }
  return undefined;
}

/** Asks which signed-in server to sign out of; says so when there is none. */
async function pickSignedIn(s: Services): Promise<string | undefined> {
  const names = s.manager
    .list()
    .map((e) => e.name)
    .filter((n) => s.signIn.stateOf(n) === 'signedIn');
  if (names.length === 0) {
    void safe.showInformationMessage(safe.l10n.t('No server is signed in.'));
    return undefined;
  }
  // Names are config keys, maybe from the workspace's own file: a row draws `$(…)` as an icon.
  const picked = await vscode.window.showQuickPick(
    names.map((name) => ({ label: displayText(name), name })),
    { placeHolder: vscode.l10n.t('Sign out of which MCP server?') },
  );
  return picked?.name;
}

function pendingFrom(arg: unknown): PendingView | undefined {
  if (typeof arg === 'object' && arg !== null && (arg as PendingNode).kind === 'entry') {
    return (arg as Extract<PendingNode, { kind: 'entry' }>).entry;
  }
  return undefined;
}

const setPolicy =
  (policy: ServerPolicy): Handler =>
  async (s, arg) => {
    const name = serverName(arg) ?? (await serverFrom(s, arg))?.name;
    if (name) await s.policyActions.setPolicy(name, policy);
  };

/** The command table: every contributed command, in one place. */
const COMMANDS: Record<string, Handler> = {
  'mcpElicitation.runTool': (s, server, tool, args) =>
    runTool(
      {
        manager: s.manager,
        broker: s.broker,
        log: s.log,
        results: s.results,
        toolRunner: { callToolWithElicitation, UrlElicitationDeclinedError },
        collectArgs: (conn, t) => collectToolArgs(s.presenter, conn, t),
        route: async (name) => (await vscode.commands.executeCommand<boolean>('mcpElicitation.routeServer', name)) === true,
        onDidShowPicker: (kind, items) => s.observers.promptShown?.(`runTool.${kind}`, 'runTool', undefined, items),
        whileOnScreen: (shown) => s.presenter.whileOnScreen(shown),
      },
      server,
      tool,
      args,
    ),
  'mcpElicitation.showPending': (s) => showPending(s.broker.queue, s.pending),
  'mcpElicitation.startServer': async (s, arg) => {
    const conn = await serverFrom(s, arg);
    if (conn) await s.manager.start(conn.name);
  },
  'mcpElicitation.stopServer': async (s, arg) => (await serverFrom(s, arg))?.stop(),
  'mcpElicitation.restartServer': async (s, arg) => {
    const conn = await serverFrom(s, arg);
    if (conn) await s.manager.restart(conn.name);
  },
  // Sign-in happens when a server answers 401 (servers/auth/signIn.ts): starting it again asks.
  'mcpElicitation.signIn': async (s, arg) => {
    const conn = await serverFrom(s, arg);
    if (conn) await s.manager.restart(conn.name);
  },
  'mcpElicitation.signOut': async (s, arg) => {
    const name = serverName(arg) ?? (await pickSignedIn(s));
    if (!name) return;
    // Stopped first, so no request goes out between forgetting the token and the next sign-in.
    const conn = s.manager.get(name);
    await conn?.stop();
    // Sign-in is kept per destination: what is forgotten is this definition's (authStore.ts).
    const def = conn?.definition;
    const forgot = def !== undefined && def.type !== 'stdio' && (await s.signIn.signOut(def));
    void safe.showInformationMessage(
      forgot ? safe.l10n.t('Signed out of “{0}”.', displayText(name)) : safe.l10n.t('“{0}” had no sign-in to forget.', displayText(name)),
    );
  },
  'mcpElicitation.setClientSecret': (s, arg) =>
    setClientSecret(
      {
        manager: s.manager,
        store: s.authStore,
        addSecret: (v) => s.log.addSecret(v),
        onDidShow: (server, box) => s.observers.promptShown?.('clientSecret', server, box),
      },
      serverName(arg),
    ),
  'mcpElicitation.startAll': (s) => s.manager.startAll(),
  'mcpElicitation.stopAll': (s) => s.manager.stopAll(),
  'mcpElicitation.restartAll': (s) => {
    s.gatekeeper.resetSession();
    return s.manager.restartAll();
  },
  // From a server's row (or with its name): that server's own log; from the view title: the extension's.
  'mcpElicitation.showLog': (s, arg) => {
    const name = serverName(arg);
    if (name) s.serverLogs.show(name);
    else s.log.show();
  },
  'mcpElicitation.showServerLog': async (s, arg) => {
    const name = serverName(arg) ?? (await serverFrom(s, arg))?.name;
    if (name) s.serverLogs.show(name);
  },
  'mcpElicitation.openDefinition': async (s, arg) => {
    const name = serverName(arg);
    const entry = s.manager.list().find((e) => e.name === name);
    const uri = entry?.resolved?.definitionUri ?? (entry?.configError?.file ? vscode.Uri.file(entry.configError.file) : undefined);
    if (uri) await vscode.window.showTextDocument(uri);
    else await vscode.commands.executeCommand('workbench.action.openSettings', 'mcpElicitation.servers');
  },
  'mcpElicitation.clearInputs': async (s) => {
    const n = await s.loader.inputs.clear();
    void safe.showInformationMessage(safe.l10n.t('Forgot {0} remembered input value(s).', n));
  },
  'mcpElicitation.openAuditLog': async (s) => {
    await s.audit.flush();
    try {
      await vscode.window.showTextDocument(vscode.Uri.file(s.audit.file));
    } catch {
      void safe.showInformationMessage(safe.l10n.t('The audit log is empty so far.'));
    }
  },
  'mcpElicitation.routeServer': (s, arg) => routing().routeThroughUs(routeDeps(s), arg),
  'mcpElicitation.giveBackServer': (s, arg) => routing().giveBackToVscode(routeDeps(s), arg),
  'mcpElicitation.enableRoutedInVscode': (s, arg) => routing().enableRoutedInVscode(routeDeps(s), arg),
  'mcpElicitation.previewForm': (s) =>
    previewForm(s.context.extensionUri, s.previewDiagnostics, () => s.observers.promptShown?.('webview', 'preview')),
  'mcpElicitation.forgetRememberedAnswers': (s) => forgetRemembered(s.memory),
  'mcpElicitation.forgetRemembered': (s, arg) => forgetRemembered(s.memory, arg),
  'mcpElicitation.policy.allow': setPolicy('allow'),
  'mcpElicitation.policy.ask': setPolicy('ask'),
  'mcpElicitation.policy.block': setPolicy('block'),
  'mcpElicitation.pending.reveal': (s, arg) => {
    const e = pendingFrom(arg);
    if (e) s.pending.reveal(e);
  },
  'mcpElicitation.pending.decline': (s, arg) => {
    const e = pendingFrom(arg);
    if (e) s.broker.queue.settle(e.id, 'decline');
  },
  'mcpElicitation.pending.cancel': (s, arg) => {
    const e = pendingFrom(arg);
    if (e) s.broker.queue.settle(e.id, 'cancel');
  },
  'mcpElicitation.pending.dismiss': (s, arg) => {
    const e = pendingFrom(arg);
    if (e?.state === 'awaitingCompletion') s.broker.queue.settle(e.id, 'cancel');
  },
  'mcpElicitation.pending.markDone': (s, arg) => {
    const e = pendingFrom(arg);
    if (e) s.broker.queue.markDone(e.id);
  },
  'mcpElicitation.pending.retryNow': (s, arg) => {
    const e = pendingFrom(arg);
    if (e) s.broker.queue.markDone(e.id);
  },
  'mcpElicitation.pending.openAgain': (s, arg) => {
    const e = pendingFrom(arg);
    if (e) s.pending.openAgain(e);
  },
};

export function registerCommands(s: Services): vscode.Disposable[] {
  return Object.entries(COMMANDS).map(([id, handler]) => vscode.commands.registerCommand(id, (...args: unknown[]) => handler(s, ...args)));
}
