import * as vscode from 'vscode';
import { SECTION } from '../config/settings';
import { resolvePolicy, withoutBlock, type ServerPolicy } from '../elicitation/policy/policy';
import { displayText } from '../shared/displayText';
import * as safe from '../util/safeText';

/** Writes per-server policy where VS Code reads it, checks that it took effect, and says where it wrote. */
export class PolicyActions {
  /**
   * Workspace settings when a trusted workspace is open (so a team can commit it), user settings
   * otherwise: in an untrusted workspace VS Code ignores the workspace value of a restricted
   * setting such as this one, so writing it there would change nothing. Returns where it wrote,
   * or undefined when the policy is not in force afterwards (the user is told why).
   */
  async setPolicy(server: string, policy: ServerPolicy): Promise<vscode.ConfigurationTarget | undefined> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const workspace = vscode.workspace.workspaceFolders?.length && vscode.workspace.isTrusted;
    const target = workspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    const where = workspace ? vscode.l10n.t('workspace settings') : vscode.l10n.t('user settings');
    const inspected = config.inspect<Record<string, unknown>>('serverPolicy');
    const current = (workspace ? inspected?.workspaceValue : inspected?.globalValue) ?? {};
    const shown = { server: displayText(server), policy: displayText(policy), where: displayText(where) };
    try {
      await config.update('serverPolicy', { ...current, [server]: policy }, target);
    } catch (e) {
      void safe.showErrorMessage(
        safe.l10n.t(
          'Could not set “{0}” to {1} in {2}: {3}',
          shown.server,
          shown.policy,
          shown.where,
          displayText(e instanceof Error ? e.message : String(e)),
        ),
      );
      return undefined;
    }
    // Read back what VS Code now applies: a folder setting or a managed policy can still override.
    const inForce = this.inForce(server);
    if (inForce !== policy) {
      const open = vscode.l10n.t('Open Settings');
      void safe
        .showWarningMessage(
          safe.l10n.t(
            '“{0}” was set to {1} in {2}, but another setting overrides it: {3} is still in force.',
            shown.server,
            shown.policy,
            shown.where,
            displayText(inForce),
          ),
          open,
        )
        .then((choice) => choice === open && vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.serverPolicy`));
      return undefined;
    }
    void safe.showInformationMessage(safe.l10n.t('“{0}” is now set to {1} in {2}.', shown.server, shown.policy, shown.where));
    return target;
  }

  blockServer(server: string): Promise<vscode.ConfigurationTarget | undefined> {
    return this.setPolicy(server, 'block');
  }

  /**
   * Removes the block, and allows nothing: the server's `block` entries go from the user and (in
   * a trusted workspace) the workspace settings. When a block is still in force (the default
   * policy, a folder setting), the server is set to `ask`. Never `allow`: a click on a notice is
   * no decision to let a server's questions through unasked, and a workspace value is committed
   * for the whole team.
   */
  async unblockServer(server: string): Promise<void> {
    const config = vscode.workspace.getConfiguration(SECTION);
    const inspected = config.inspect<Record<string, unknown>>('serverPolicy');
    const trusted = Boolean(vscode.workspace.workspaceFolders?.length && vscode.workspace.isTrusted);
    const scopes: [vscode.ConfigurationTarget, Record<string, unknown> | undefined][] = [
      [vscode.ConfigurationTarget.Global, inspected?.globalValue],
      ...(trusted
        ? [
            [vscode.ConfigurationTarget.Workspace, inspected?.workspaceValue] as [
              vscode.ConfigurationTarget,
              Record<string, unknown> | undefined,
            ],
          ]
        : []),
    ];
    try {
      for (const [target, value] of scopes) {
        const rest = withoutBlock(value, server);
        if (rest !== value) await config.update('serverPolicy', rest, target);
      }
    } catch (e) {
      void safe.showErrorMessage(
        safe.l10n.t('Could not unblock “{0}”: {1}', displayText(server), displayText(e instanceof Error ? e.message : String(e))),
      );
      return;
    }
    if (this.inForce(server) === 'block') {
      await this.setPolicy(server, 'ask');
      return;
    }
    void safe.showInformationMessage(
      safe.l10n.t('“{0}” is no longer blocked: {1} is in force.', displayText(server), displayText(this.inForce(server))),
    );
  }

  private inForce(server: string): ServerPolicy {
    const now = vscode.workspace.getConfiguration(SECTION);
    const serverPolicy = now.get<unknown>('serverPolicy');
    return resolvePolicy(server, {
      serverPolicy: typeof serverPolicy === 'object' && serverPolicy !== null ? (serverPolicy as Record<string, unknown>) : {},
      defaultPolicy: now.get('defaultPolicy'),
    });
  }
}
