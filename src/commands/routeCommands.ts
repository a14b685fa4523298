import * as vscode from 'vscode';
import type { ServerManager } from '../servers/serverManager';
import type { ServersNode } from '../ui/serversView';
import type { Logger } from '../util/log';
import {
  addToOurs,
  canRouteFrom,
  putIntoMcpJson,
  removeFromOurs,
  takeFromMcpJson,
  type JsonObject,
  type OurConfig,
} from '../config/parse/serverMove';
import { describeIgnoredKeys } from '../config/parse/definitions';
import { displayText } from '../elicitation/safety/displayText';
import * as safe from '../util/safeText';

const SECTION = 'mcpElicitation';

function nameFrom(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  const node = arg as ServersNode | undefined;
  if (node?.kind === 'vscodeServer') return node.def.name;
  if (node?.kind === 'server') return node.entry.name;
  return undefined;
}

/** Our workspace-level configuration: where routed servers go (trust-gated, like mcp.json). */
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

async function writeText(uri: vscode.Uri, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
}

/**
 * "Route Through MCP Elicitation Host": moves a server VS Code runs from `.vscode/mcp.json` into
 * our workspace setting, with the inputs it references. VS Code stops its copy when the entry
 * leaves the file; we start ours and offer it to the agent through the gateway, so it still runs
 * once and its tools still appear once.
 */
export async function routeThroughUs(manager: ServerManager, log: Logger, arg: unknown): Promise<boolean> {
  // Every file read afresh: the definition acted on is the one on disk now, not the one listed.
  await manager.reload();
  let name = nameFrom(arg);
  if (!name) {
    if (!manager.vscodeOwned().some((d) => canRouteFrom(d.source))) {
      // Reached from the walkthrough or a welcome view with nothing to move: say so, not an empty list.
      void safe.showInformationMessage(
        safe.l10n.t('No server VS Code runs is defined in a .vscode/mcp.json file, so there is nothing to route.'),
      );
      return false;
    }
    const picked = await vscode.window.showQuickPick(
      manager.vscodeOwned().map((d) => d.name),
      { placeHolder: vscode.l10n.t('Server from .vscode/mcp.json to route through MCP Elicitation Host') },
    );
    if (!picked) return false;
    name = picked;
  }
  const def = manager.vscodeOwned().find((d) => d.name === name) ?? manager.list().find((e) => e.name === name)?.resolved?.def;
  if (!def || !canRouteFrom(def.source) || def.source.kind !== 'workspaceFile') {
    void safe.showWarningMessage(safe.l10n.t('{0} is not defined in a .vscode/mcp.json file.', displayText(name)));
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
  const file = vscode.Uri.file(def.source.file);
  const text = await readText(file);
  // A server listed as "name (workspace)" beside the user's own "name" is still "name" in its file.
  const written = def.writtenAs ?? name;
  const taken = takeFromMcpJson(text, written);
  if (!taken) {
    void safe.showWarningMessage(safe.l10n.t('{0} is not defined in a .vscode/mcp.json file.', displayText(name)));
    return false;
  }
  await writeOurs(addToOurs(ourWorkspaceConfig(), written, taken.server, taken.inputs));
  await writeText(file, taken.text);
  log.info(`[${name}] moved from ${file.fsPath} to the mcpElicitation.servers workspace setting (inputs: ${taken.inputs.length})`);
  await manager.reload();
  return true;
}

/** "Give Back to VS Code": the reverse move, into the first folder's `.vscode/mcp.json`. */
export async function giveBackToVscode(manager: ServerManager, log: Logger, arg: unknown): Promise<boolean> {
  const ours = ourWorkspaceConfig();
  let name = nameFrom(arg);
  if (!name) {
    const picked = await vscode.window.showQuickPick(Object.keys(ours.servers), {
      placeHolder: vscode.l10n.t('Server to give back to VS Code'),
    });
    if (!picked) return false;
    name = picked;
  }
  const listed = name;
  name = manager.list().find((e) => e.name === listed)?.resolved?.def.writtenAs ?? name;
  const removed = removeFromOurs(ours, name);
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!removed || !folder) {
    void safe.showWarningMessage(safe.l10n.t('{0} is not in the workspace setting mcpElicitation.servers.', displayText(name)));
    return false;
  }
  const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
  await writeText(file, putIntoMcpJson(await readText(file), name, removed.server, removed.inputs));
  await writeOurs(removed.cfg);
  log.info(`[${name}] moved back to ${file.fsPath}`);
  await manager.reload();
  return true;
}
