/**
 * The offer, once per workspace, to bring the questions of the servers VS Code runs here (issue 26,
 * item 2): a non-modal notification, since nothing is at risk and the user may be busy with
 * something else, with Route All, Choose… (a multi-select of VS Code's servers) and Don't Ask
 * Again. Routing is the per-user Route (gateway/routes.ts), reached through its command, so the
 * routing code still loads on first use and the definition is re-read before anything changes.
 */
import * as vscode from 'vscode';
import type { ServerDefinition } from '../config/parse/definitions';
import type { ServerManager } from '../servers/serverManager';
import { agentRunsFiles, onDidChangeAgentSettings } from '../gateway/agentSettings';
import { listedNames, offerable, parseOfferAnswer, shouldOffer, type OfferAnswer } from '../gateway/routingOfferRule';
import { displayText, joinDisplay, type DisplayText } from '../elicitation/safety/displayText';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import * as safe from '../util/safeText';
import { whereDefinedText } from './wording/serverSource';

/** workspaceState: the answer, per user and per workspace, like the routes it leads to. */
export const OFFER_ANSWER_KEY = 'mcpElicitation.routingOffer';
const SETTING = 'mcpElicitation.offerRouting';

/** What the user sees and answers; the in-host tests answer the notification in the user's place. */
export interface OfferPrompt {
  /** The notification; undefined when closed unanswered. */
  ask(servers: readonly ServerDefinition[]): Promise<OfferAnswer | undefined>;
  /** The multi-select of VS Code's servers; the names picked, or undefined when it was closed. */
  choose(servers: readonly ServerDefinition[]): Promise<string[] | undefined>;
  /** Choose… was answered when no server of VS Code's was left to pick: says so instead of an empty list. */
  nothingToChoose(): void;
}

export interface RoutingOfferDeps {
  readonly manager: ServerManager;
  readonly state: vscode.Memento;
  readonly prompt: OfferPrompt;
  /** Routes these servers with the Route command (which re-reads every definition first). */
  readonly route: (names: readonly string[]) => Thenable<unknown>;
  readonly log: Logger;
}

function enabled(): boolean {
  return vscode.workspace.getConfiguration().get<boolean>(SETTING, true);
}

/** Watches what decides the offer (servers, AI features, trust, the setting) and offers when it should. */
export class RoutingOffer extends Disposable {
  private shownThisWindow = false;

  constructor(private readonly deps: RoutingOfferDeps) {
    super();
    const check = (): void => this.check();
    this._register(deps.manager.onDidChange(check));
    this._register(onDidChangeAgentSettings(check));
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(check));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration(SETTING)) return;
        // Turned on again: the user wants the offer, so this window may show it once more.
        if (enabled()) this.shownThisWindow = false;
        check();
      }),
    );
  }

  private check(): void {
    if (this.isDisposed) return;
    const servers = offerable(this.deps.manager.vscodeOwned());
    const go = shouldOffer({
      enabled: enabled(),
      trusted: vscode.workspace.isTrusted,
      // Nothing of VS Code's to route while it runs no server of the files (AI off, or access "registry").
      agentOn: agentRunsFiles(),
      answered: parseOfferAnswer(this.deps.state.get(OFFER_ANSWER_KEY)),
      shownThisWindow: this.shownThisWindow,
      routable: servers.length,
    });
    if (!go) return;
    this.shownThisWindow = true;
    void this.offer(servers).catch((e: unknown) => this.deps.log.error('the offer to route VS Code’s servers failed', e));
  }

  private async offer(servers: readonly ServerDefinition[]): Promise<void> {
    const { prompt, state, log } = this.deps;
    log.info(`offering to route ${servers.length} server(s) VS Code runs: ${servers.map((d) => d.name).join(', ')}`);
    const answer = await prompt.ask(servers);
    if (!answer || this.isDisposed) {
      log.info('the offer to route was closed unanswered; it comes again in the next window');
      return;
    }
    let names = servers.map((d) => d.name);
    if (answer === 'choose') {
      // The servers as they are now: the offer may have waited a while in the notification center.
      const left = offerable(this.deps.manager.vscodeOwned());
      if (left.length === 0) {
        // Routed (or removed) meanwhile: an empty picker would look broken. Not kept as an answer:
        // the user chose nothing, so a later window with servers of VS Code's may offer again.
        log.info('Choose… on the offer to route: no server VS Code runs is left to route here');
        prompt.nothingToChoose();
        return;
      }
      const picked = await prompt.choose(left);
      if (!picked || this.isDisposed) return;
      names = picked;
    }
    await state.update(OFFER_ANSWER_KEY, answer);
    log.info(`the offer to route was answered: ${answer}${answer === 'choose' ? ` (${names.join(', ') || 'none'})` : ''}`);
    if (answer !== 'never' && names.length > 0) await this.deps.route(names);
  }
}

function namesText(servers: readonly ServerDefinition[]): DisplayText {
  const { shown, more } = listedNames(servers.map((d) => d.name));
  const list = joinDisplay(
    shown.map((n) => displayText(n)),
    ', ',
  );
  return more > 0 ? safe.l10n.t('{0} and {1} more', list, more) : list;
}

/** The offer's text: what changes, for whom, and how to give back. Exported for the tests' wording checks. */
export function offerMessage(servers: readonly ServerDefinition[]): DisplayText {
  return servers.length === 1
    ? safe.l10n.t(
        'VS Code runs the MCP server {0} in this workspace and asks its questions in its own prompt. Route it through MCP Elicitation Host to answer them here instead. This is your choice alone: no shared file is edited, so teammates are unaffected, and Give Back to VS Code undoes it.',
        namesText(servers),
      )
    : safe.l10n.t(
        'VS Code runs {0} MCP servers in this workspace ({1}) and asks their questions in its own prompt. Route them through MCP Elicitation Host to answer them here instead. This is your choice alone: no shared file is edited, so teammates are unaffected, and Give Back to VS Code undoes it.',
        servers.length,
        namesText(servers),
      );
}

/** The real notification and picker. `onDidShowChoose` observes the picker (in-host tests drive it). */
export function vscodeOfferPrompt(onDidShowChoose?: (widget: vscode.QuickPick<vscode.QuickPickItem>) => void): OfferPrompt {
  return {
    async ask(servers) {
      const all = servers.length === 1 ? vscode.l10n.t('Route') : vscode.l10n.t('Route All');
      const choose = vscode.l10n.t('Choose…');
      const never = vscode.l10n.t("Don't Ask Again");
      const picked = await safe.showInformationMessage(offerMessage(servers), all, choose, never);
      return picked === all ? 'routeAll' : picked === choose ? 'choose' : picked === never ? 'never' : undefined;
    },
    nothingToChoose() {
      void safe.showInformationMessage(
        safe.l10n.t('Nothing left to choose: every MCP server VS Code ran in this workspace is routed here already, or gone.'),
      );
    },
    choose(servers) {
      const qp = vscode.window.createQuickPick<vscode.QuickPickItem & { readonly name: string }>();
      qp.title = vscode.l10n.t('Route through MCP Elicitation Host');
      qp.placeholder = vscode.l10n.t('Servers VS Code runs whose questions should come here (for you alone; no file changes)');
      qp.canSelectMany = true;
      qp.matchOnDescription = true;
      // Config keys, maybe from the workspace's own file, neutralised as in Route's own picker
      // (routeCommands.ts): no `$(icon)`, bidi controls marked; `name` keeps the exact key.
      qp.items = servers.map((d) => ({
        label: displayText(d.name),
        description: vscode.l10n.t('run by VS Code · {0}', whereDefinedText(d.source, vscode.l10n)),
        name: d.name,
      }));
      const disposables: vscode.Disposable[] = [qp];
      return new Promise<string[] | undefined>((resolve) => {
        disposables.push(
          qp.onDidAccept(() => {
            resolve(qp.selectedItems.map((i) => i.name));
            qp.hide();
          }),
          qp.onDidHide(() => resolve(undefined)),
        );
        qp.show();
        onDidShowChoose?.(qp);
      }).finally(() => {
        for (const d of disposables) d.dispose();
      });
    },
  };
}
