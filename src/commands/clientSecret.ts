/**
 * "MCP Elicitation: Set Client Secret for Server…" (issue 25, item 5): the secret of a client
 * registered in advance with a remote server's authorization server. Its id is configuration
 * (`clientId`); the secret goes into SecretStorage only, typed into a password InputBox, so it is
 * never in a settings file, a command argument or a log line. It is kept for the server's
 * destination (its URL's origin and path) and goes to the first authorization server that asks
 * for it, no other (authStore.ts). Sign Out forgets it.
 */
import * as vscode from 'vscode';
import type { RemoteServerDefinition } from '../config/parse/definitions';
import type { ServerManager } from '../servers/serverManager';
import type { AuthStore } from '../servers/auth/authStore';
import * as safe from '../util/safeText';
import { displayText } from '../elicitation/safety/displayText';

export interface ClientSecretDeps {
  readonly manager: ServerManager;
  readonly store: AuthStore;
  /** The log's redaction list: the secret is registered before anything could print it. */
  readonly addSecret: (value: string) => void;
  /** Tests see the InputBox (test/host): they type into it as the user would. */
  readonly onDidShow?: (server: string, box: vscode.InputBox) => void;
}

function remote(manager: ServerManager, name: string): RemoteServerDefinition | undefined {
  const def = manager.get(name)?.definition;
  return def && def.type !== 'stdio' ? def : undefined;
}

/** The remote server `arg` names (a name or a Servers view row), or the one the user picks. */
async function pickRemote(manager: ServerManager, arg: string | undefined): Promise<RemoteServerDefinition | undefined> {
  if (arg !== undefined) return remote(manager, arg);
  const defs = manager
    .list()
    .map((e) => remote(manager, e.name))
    .filter((d): d is RemoteServerDefinition => d !== undefined);
  if (defs.length === 0) {
    void safe.showInformationMessage(safe.l10n.t('No remote (HTTP or SSE) server is configured.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    defs.map((d) => ({ label: displayText(d.name), description: displayText(d.clientId ?? ''), def: d })),
    { placeHolder: vscode.l10n.t('Set the client secret of which MCP server?') },
  );
  return picked?.def;
}

/** Asks for the secret in a password InputBox; undefined when the user closes it. */
function askSecret(def: RemoteServerDefinition, deps: ClientSecretDeps): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.password = true;
  box.ignoreFocusOut = true;
  box.title = safe.l10n.t('Client secret for “{0}”', displayText(def.name));
  box.prompt = def.clientId
    ? safe.l10n.t('The secret of client “{0}”, kept in SecretStorage. Leave empty to remove it.', displayText(def.clientId))
    : safe.l10n.t('This server has no “clientId” in its configuration yet; the secret is used once it has one. Leave empty to remove it.');
  return new Promise<string | undefined>((resolve) => {
    let value: string | undefined;
    const subs = [
      box.onDidAccept(() => {
        value = box.value;
        box.hide();
      }),
      box.onDidHide(() => {
        for (const d of subs) d.dispose();
        box.dispose();
        resolve(value);
      }),
    ];
    box.show();
    deps.onDidShow?.(def.name, box);
  });
}

export async function setClientSecret(deps: ClientSecretDeps, arg: string | undefined): Promise<void> {
  const def = await pickRemote(deps.manager, arg);
  if (!def) return;
  const secret = await askSecret(def, deps);
  if (secret === undefined) return;
  if (secret === '') {
    await deps.store.setClientSecret(def, undefined);
    void safe.showInformationMessage(safe.l10n.t('Removed the client secret of “{0}”.', displayText(def.name)));
    return;
  }
  deps.addSecret(secret);
  await deps.store.setClientSecret(def, secret);
  void safe.showInformationMessage(safe.l10n.t('Saved the client secret of “{0}” in SecretStorage.', displayText(def.name)));
  // A server that stopped for want of a working client signs in again now; a running one keeps its tokens.
  const conn = deps.manager.get(def.name);
  if (conn && conn.state.kind !== 'running') await deps.manager.restart(def.name);
}
