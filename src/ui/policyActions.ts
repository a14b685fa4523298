import * as vscode from 'vscode';
import { SECTION } from '../config/settings';
import type { ServerPolicy } from '../elicitation/policy/policy';
import { displayText } from '../elicitation/safety/displayText';
import * as safe from '../util/safeText';

/** Writes per-server policy where the user expects it, and says where it wrote. */
export class PolicyActions {
  /** Workspace settings when a workspace is open (so a team can commit it), user settings otherwise. */
  async setPolicy(server: string, policy: ServerPolicy): Promise<vscode.ConfigurationTarget> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const target = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    const inspected = config.inspect<Record<string, unknown>>('serverPolicy');
    const current = (target === vscode.ConfigurationTarget.Workspace ? inspected?.workspaceValue : inspected?.globalValue) ?? {};
    await config.update('serverPolicy', { ...current, [server]: policy }, target);
    const where = target === vscode.ConfigurationTarget.Workspace ? vscode.l10n.t('workspace settings') : vscode.l10n.t('user settings');
    void safe.showInformationMessage(safe.l10n.t('“{0}” is now set to {1} in {2}.', displayText(server), displayText(policy), displayText(where)));
    return target;
  }

  blockServer(server: string): Promise<vscode.ConfigurationTarget> {
    return this.setPolicy(server, 'block');
  }
}
