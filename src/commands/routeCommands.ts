import * as vscode from 'vscode';
import * as path from 'node:path';
import type { ServerManager } from '../servers/serverManager';
import type { ServersNode } from '../ui/serversView';
import type { Logger } from '../util/log';
import type { Gateway } from '../gateway/gateway';
import type { RouteStore } from '../gateway/routeStore';
import { collisionPicksOne, providerServerId, routeOf, vscodeServerId, writtenName } from '../gateway/routes';
import { canGiveBackFrom, putIntoMcpJson, removeFromOurs, type JsonObject, type OurConfig } from '../config/parse/serverMove';
import { describeIgnoredKeys, type ServerDefinition } from '../config/parse/definitions';
import { displayText, MAX_MESSAGE_CHARS, type DisplayText } from '../elicitation/safety/displayText';
import * as safe from '../util/safeText';

const SECTION = 'mcpElicitation';

export interface RouteDeps {
  readonly manager: ServerManager;
  readonly routes: RouteStore;
  readonly gateway: Gateway;
  readonly log: Logger;
  /** Our extension's id: VS Code names our gateway's servers after it. */
  readonly extensionId: string;
}

function nameFrom(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const node = arg as ServersNode | undefined;
  if (node?.kind === 'vscodeServer') return node.def.name;
  if (node?.kind === 'server') return node.entry.name;
  return undefined;
}

/** The index VS Code numbers a definition's folder by in its server ids. */
function folderIndex(def: ServerDefinition): number | undefined {
  if (def.source.kind !== 'workspaceFile') return undefined;
  const folder = def.source.folder;
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file' && f.uri.fsPath === folder)?.index;
}

/** Whether this window is remote (code-server, SSH, WSL, a container): our host and the user's mcp.json we read are there. */
function remoteWindow(): boolean {
  return vscode.env.remoteName !== undefined;
}

/** The file as the user knows it: relative to its folder when it is in one. */
function shownFile(def: ServerDefinition): string {
  if (def.source.kind === 'setting') return '';
  const file = def.source.file;
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file));
  return folder ? `${folder.name}/${path.relative(folder.uri.fsPath, file).split(path.sep).join('/')}` : file;
}

const isName = (n: unknown): n is string => typeof n === 'string';

/** What Route says once one server is routed: for whom, which file stays as it is, and the step left. */
function routedMessage(def: ServerDefinition): DisplayText {
  return safe.l10n.t(
    '{0} now runs in MCP Elicitation Host, for you in this workspace; {1} is unchanged, so teammates keep it as it is. VS Code runs its own copy until you choose "Enable" in its options for the routed one.',
    displayText(def.name),
    displayText(shownFile(def)),
  );
}

/** Whether VS Code runs one copy of a label now (`chat.mcp.collisionBehavior`, routes.ts). */
function vscodePicksOne(): boolean {
  return collisionPicksOne(vscode.workspace.getConfiguration('chat.mcp').get<unknown>('collisionBehavior'));
}

/**
 * Route with `chat.mcp.collisionBehavior` other than `disable`: VS Code keeps its copy enabled
 * next to ours and no choice in its menu changes that, so "Enable" is not offered. Said plainly,
 * with the setting one click away.
 */
function tellBothRun(log: Logger, names: readonly string[]): void {
  log.warn(`[${names.join(', ')}] routed, but VS Code runs its own copy too: chat.mcp.collisionBehavior is not "disable"`);
  const open = vscode.l10n.t('Open Setting');
  void safe
    .showWarningMessage(
      safe.l10n.t(
        '{0} now runs in MCP Elicitation Host, but VS Code keeps running its own copy as well: the setting chat.mcp.collisionBehavior is not "disable", so VS Code lists ours as a second server and the agent sees the tools of both. To run only ours, set chat.mcp.collisionBehavior to "disable".',
        displayText(names.join(', ')),
      ),
      open,
    )
    .then(async (choice) => {
      if (choice === open) await vscode.commands.executeCommand('workbench.action.openSettings', 'chat.mcp.collisionBehavior');
    });
}

/**
 * VS Code's list of the MCP servers it has from files (the Extensions view's "MCP Servers -
 * Installed"). Its "Enable" (`mcpServer.enableGlobally`) stores VS Code's default for the server,
 * deleting both its profile and its workspace entry, so it is the one choice that undoes what
 * Route's Enable stored (see giveBackToVscode).
 */
const SHOW_VSCODE_MCP_SERVERS = 'workbench.mcp.showInstalledServers';

/** VS Code's own menu for one of its servers, where "Enable" is the choice routing needs. */
function openVscodeServerOptions(id: string): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.mcp.serverOptions', id);
}

/**
 * "Route Through MCP Elicitation Host": a per-user choice that edits no file (gateway/routes.ts).
 * The server stays where it is defined, so a teammate keeps it as it is; we run it from there
 * (its folder, inputs and variables as written) and offer it to VS Code's agent under the label
 * of VS Code's own copy. VS Code then lists the two as one server and runs the first enabled one:
 * its own, until the user chooses "Enable" for ours in VS Code's options, which we offer to open.
 */
export async function routeThroughUs(deps: RouteDeps, arg: unknown): Promise<boolean> {
  if (Array.isArray(arg)) return routeSeveral(deps, arg.filter(isName));
  const { manager, routes, log } = deps;
  // Every file read afresh: the definition acted on is the one on disk now, not the one listed.
  await manager.reload();
  let name = nameFrom(arg);
  if (!name) {
    if (!manager.vscodeOwned().some((d) => routeOf(d) !== undefined)) {
      // Reached from the walkthrough or a welcome view with nothing to route: say so, not an empty list.
      void safe.showInformationMessage(safe.l10n.t('VS Code runs no MCP server here, so there is nothing to route.'));
      return false;
    }
    const picked = await vscode.window.showQuickPick(
      manager.vscodeOwned().map((d) => ({ label: displayText(d.name), description: displayText(shownFile(d)), name: d.name })),
      { placeHolder: vscode.l10n.t('Server VS Code runs, to route through MCP Elicitation Host') },
    );
    if (!picked) return false;
    name = picked.name;
  }
  const def = manager.vscodeOwned().find((d) => d.name === name);
  const route = def && routeOf(def);
  if (!def || !route) {
    void safe.showWarningMessage(safe.l10n.t('{0} is not a server VS Code runs, so there is nothing to route.', displayText(name)));
    return false;
  }
  const ignored = describeIgnoredKeys(def.ignoredKeys);
  if (ignored) {
    // What the server loses here, said before anything changes.
    const go = vscode.l10n.t('Route Anyway');
    const choice = await safe.showWarningMessage(
      safe.l10n.t(
        'Routed, MCP server {0} runs without these settings, which only VS Code supports: {1}',
        displayText(JSON.stringify(def.name.slice(0, 60))),
        displayText(ignored),
      ),
      { modal: true },
      go,
    );
    if (choice !== go) return false;
  }
  await routes.add(route);
  await manager.reload();
  await deps.gateway.sync();
  log.info(`[${name}] routed for this user in this workspace; ${route.file} is unchanged`);
  if (!vscodePicksOne()) {
    tellBothRun(log, [name]);
    return true;
  }
  const open = vscode.l10n.t('Enable in VS Code');
  void safe.showInformationMessage(routedMessage(def), open).then(async (choice) => {
    if (choice === open) await enableRoutedInVscode(deps, name);
  });
  return true;
}

/**
 * Route for several servers at once: the offer's Route All and Choose (ui/routingOffer.ts). Every
 * definition is read afresh, since the offer may have waited in the notification center while a
 * file changed: a server is routed as it is defined now, and one that is gone or no longer
 * VS Code's is named and left alone. One warning for the servers that lose settings only VS Code
 * supports, one route update, one notification.
 */
async function routeSeveral(deps: RouteDeps, names: readonly string[]): Promise<boolean> {
  const { manager, routes, log } = deps;
  await manager.reload();
  const defs = manager.vscodeOwned().filter((d) => names.includes(d.name) && routeOf(d) !== undefined);
  const alreadyRouted = (n: string): boolean =>
    manager.list().some((e) => e.name === n && e.resolved !== undefined && routes.isRouted(e.resolved.def));
  const gone = names.filter((n) => !defs.some((d) => d.name === n) && !alreadyRouted(n));
  if (gone.length > 0) {
    log.warn(`not routed, no longer a server VS Code runs here: ${gone.join(', ')}`);
    void safe.showWarningMessage(
      safe.l10n.t('Not routed: {0} is no longer a server VS Code runs in this workspace.', displayText(gone.join(', '))),
    );
  }
  if (defs.length === 0) return false;
  const losing = defs.flatMap((d) => {
    const ignored = describeIgnoredKeys(d.ignoredKeys);
    return ignored ? [`${d.name.slice(0, 60)}: ${ignored}`] : [];
  });
  if (losing.length > 0) {
    const go = vscode.l10n.t('Route Anyway');
    const choice = await safe.showWarningMessage(
      safe.l10n.t(
        'Routed, these MCP servers run without settings only VS Code supports: {0}',
        displayText(losing.join('; '), MAX_MESSAGE_CHARS),
      ),
      { modal: true },
      go,
    );
    if (choice !== go) return false;
  }
  await routes.add(...defs.flatMap((d) => routeOf(d) ?? []));
  await manager.reload();
  await deps.gateway.sync();
  log.info(`[${defs.map((d) => d.name).join(', ')}] routed for this user in this workspace; no file changed`);
  if (!vscodePicksOne()) {
    tellBothRun(
      log,
      defs.map((d) => d.name),
    );
    return true;
  }
  const open = vscode.l10n.t('Enable in VS Code');
  const [one] = defs;
  void safe
    .showInformationMessage(
      defs.length === 1 && one
        ? routedMessage(one)
        : safe.l10n.t(
            '{0} now run in MCP Elicitation Host, for you in this workspace. No file changed, so teammates keep them as they are. VS Code runs its own copies until you choose "Enable" in its options for each routed one.',
            displayText(defs.map((d) => d.name).join(', ')),
          ),
      open,
    )
    .then(async (choice) => {
      // VS Code's options, one server after the other: each menu resolves when it closes.
      if (choice === open) for (const d of defs) await enableRoutedInVscode(deps, d.name);
    });
  return true;
}

/**
 * Opens VS Code's own options for the routed copy, where "Enable" hands the server to us: VS Code
 * enables ours and disables its own for this workspace (its collision rule, routes.ts). A disabled
 * server VS Code already runs keeps running until stopped, so once the menu closes its copy is
 * stopped; should the user have dismissed the menu, VS Code starts its copy again on next use.
 */
export async function enableRoutedInVscode(deps: RouteDeps, arg: unknown): Promise<boolean> {
  const name = nameFrom(arg);
  const def = deps.manager.list().find((e) => e.name === name)?.resolved?.def;
  if (!def || !deps.routes.isRouted(def)) return false;
  await openVscodeServerOptions(providerServerId(deps.extensionId, writtenName(def)));
  const theirs = vscodeServerId(def, folderIndex(def), remoteWindow());
  if (theirs) await vscode.commands.executeCommand('workbench.mcp.stopServer', theirs);
  return true;
}

/** Our workspace-level configuration: where older versions moved routed servers. */
function ourWorkspaceConfig(): OurConfig {
  const c = vscode.workspace.getConfiguration(SECTION);
  const servers = c.inspect<JsonObject>('servers')?.workspaceValue;
  const inputs = c.inspect<JsonObject[]>('inputs')?.workspaceValue;
  return { servers: servers && typeof servers === 'object' ? servers : {}, inputs: Array.isArray(inputs) ? inputs : [] };
}

async function writeOurs(cfg: OurConfig): Promise<void> {
  const c = vscode.workspace.getConfiguration(SECTION);
  // Inputs first: a server arriving before the inputs it references would fail to resolve.
  await c.update('inputs', cfg.inputs.length ? cfg.inputs : undefined, vscode.ConfigurationTarget.Workspace);
  await c.update('servers', Object.keys(cfg.servers).length ? cfg.servers : undefined, vscode.ConfigurationTarget.Workspace);
}

async function readText(uri: vscode.Uri): Promise<string> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return '';
  }
}

/**
 * "Give Back to VS Code". A routed server: the route is dropped, nothing else changes; VS Code
 * keeps its copy disabled in this workspace (the "Enable" that routed it stored "disabled in this
 * workspace" for it) until the user enables it again. VS Code 1.139 has no command for that, and
 * its choices store different things: its server options' "Enable" and the MCP Servers view's
 * "Enable (Workspace)" store "enabled in this workspace"; the view's "Enable" deletes the entry,
 * which is what was there before Route. So we open that view and name that choice. A server in our workspace
 * setting (moved there by an older version's Route): moved into the first folder's
 * `.vscode/mcp.json`, after the user is told which file changes and what a teammate will see.
 */
export async function giveBackToVscode(deps: RouteDeps, arg: unknown): Promise<boolean> {
  const { manager, routes, log } = deps;
  const routedEntries = manager.list().filter((e) => e.resolved && routes.isRouted(e.resolved.def));
  const ours = ourWorkspaceConfig();
  let name = nameFrom(arg);
  if (!name) {
    // Config keys, maybe from the workspace's own file, neutralised as in Route's picker; `name` keeps the exact key.
    const picked = await vscode.window.showQuickPick(
      [...routedEntries.map((e) => e.name), ...Object.keys(ours.servers)].map((n) => ({ label: displayText(n), name: n })),
      { placeHolder: vscode.l10n.t('Server to give back to VS Code') },
    );
    if (!picked) return false;
    name = picked.name;
  }
  const routedDef = routedEntries.find((e) => e.name === name)?.resolved?.def;
  const route = routedDef && routeOf(routedDef);
  if (routedDef && route) {
    await routes.remove(route);
    await manager.reload();
    await deps.gateway.sync();
    log.info(`[${name}] given back to VS Code; ${route.file} is unchanged`);
    if (!vscodePicksOne()) {
      // Its copy was never disabled: VS Code runs it as before, and there is nothing to enable.
      void safe.showInformationMessage(safe.l10n.t("{0} is VS Code's again.", displayText(name)));
      return true;
    }
    // Not VS Code's server options: their "Enable" stores "enabled in this workspace", where before
    // Route nothing was stored. The MCP Servers view's "Enable" deletes what Route's Enable stored.
    const open = vscode.l10n.t('Show Installed MCP Servers');
    void safe
      .showInformationMessage(
        safe.l10n.t(
          '{0} is VS Code\'s again. VS Code keeps its copy disabled in this workspace until you enable it: under "MCP Servers - Installed" in the Extensions view, choose "Enable" in its menu (not "Enable (Workspace)"), which leaves VS Code as it was before Route.',
          displayText(name),
        ),
        open,
      )
      .then(async (choice) => {
        if (choice === open) await vscode.commands.executeCommand(SHOW_VSCODE_MCP_SERVERS);
      });
    return true;
  }
  return giveBackFromSetting(deps, name, ours);
}

/** The older Give Back: moves a server of our workspace setting into the first folder's `.vscode/mcp.json`. */
async function giveBackFromSetting(deps: RouteDeps, listed: string, ours: OurConfig): Promise<boolean> {
  const { manager, log } = deps;
  const entry = manager.list().find((e) => e.name === listed);
  const name = entry?.resolved?.def.writtenAs ?? listed;
  const removed = removeFromOurs(ours, name);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!removed || !folder || (entry?.resolved && !canGiveBackFrom(entry.resolved.def.source))) {
    void safe.showWarningMessage(
      safe.l10n.t('{0} is neither routed nor in the workspace setting mcpElicitation.servers.', displayText(name)),
    );
    return false;
  }
  const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
  const go = vscode.l10n.t('Move to {0}', `${folder.name}/.vscode/mcp.json`);
  const choice = await safe.showWarningMessage(
    safe.l10n.t(
      "{0} is in this workspace's setting mcpElicitation.servers. Giving it back moves it into {1}: if that file is shared, teammates will see the server there, and VS Code runs it for them too.",
      displayText(name),
      displayText(`${folder.name}/.vscode/mcp.json`),
    ),
    { modal: true },
    go,
  );
  if (choice !== go) return false;
  await vscode.workspace.fs.writeFile(
    file,
    new TextEncoder().encode(putIntoMcpJson(await readText(file), name, removed.server, removed.inputs)),
  );
  await writeOurs(removed.cfg);
  log.info(`[${name}] moved back to ${file.fsPath}`);
  await manager.reload();
  return true;
}
