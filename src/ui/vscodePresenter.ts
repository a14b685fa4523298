import * as vscode from 'vscode';
import type { AskAnswer, Asker, FormAnswer, FormPrompt, Presenter, UrlAnswer, UrlPrompt } from '../elicitation/presenter';
import { defaultValues } from '../elicitation/validator';
import type { Settings } from '../config/settings';
import type { Logger } from '../util/log';
import { showFormPanel } from './form/formPanel';
import { showQuickForm } from './quickInput/quickForm';
import { showUrlConsent } from './urlConsent';
import type { PolicyActions } from './policyActions';

export interface PresenterDeps {
  readonly extensionUri: vscode.Uri;
  readonly settings: () => Settings;
  readonly log: Logger;
  readonly policy: PolicyActions;
  readonly allowMore: (server: string) => void;
  /** Observers for tests and the benchmark: the widget of the current prompt became visible. */
  readonly onDidShowPrompt: (kind: 'inputBox' | 'quickPick' | 'webview' | 'consent', id: string, widget?: vscode.QuickInput) => void;
  readonly openExternal: (uri: vscode.Uri) => Thenable<boolean>;
}

/** The real user interface behind the broker: native quick input, the webview form, modal consent. */
export class VscodePresenter implements Presenter {
  private readonly blockedNoticeShown = new Set<string>();

  constructor(private readonly deps: PresenterDeps) {}

  async presentForm(prompt: FormPrompt, signal: AbortSignal): Promise<FormAnswer> {
    const p = this.deps.settings().presentation;
    const useWebview = p === 'webview' || (p === 'auto' && prompt.form.fields.length > 1);
    const onBlockServer = (): void => void this.deps.policy.blockServer(prompt.asker.name);
    if (!useWebview) {
      return showQuickForm(prompt, signal, {
        onBlockServer,
        onShow: (w) => this.deps.onDidShowPrompt('items' in w ? 'quickPick' : 'inputBox', prompt.id, w),
      });
    }
    const outcome = await showFormPanel({
      extensionUri: this.deps.extensionUri,
      form: prompt.form,
      signal,
      onBlockServer,
      onCspViolation: (directive) => this.deps.log.warn(`[${prompt.asker.name}] CSP violation in form webview: ${directive}`),
      onDidShow: () => this.deps.onDidShowPrompt('webview', prompt.id),
      init: {
        requestId: prompt.id,
        attribution: { serverName: prompt.asker.name, serverInfo: prompt.asker.info, message: prompt.message, messageTruncated: prompt.message.endsWith(' …') },
        fields: prompt.form.fields,
        warnings: prompt.warnings,
        values: defaultValues(prompt.form),
        preview: false,
      },
    });
    return outcome.action === 'cancel' ? { action: 'cancel' } : outcome;
  }

  presentUrl(prompt: UrlPrompt, signal: AbortSignal): Promise<UrlAnswer> {
    this.deps.onDidShowPrompt('consent', prompt.id);
    return showUrlConsent(prompt, signal, {
      openExternal: this.deps.openExternal,
      onBlockServer: () => void this.deps.policy.blockServer(prompt.asker.name),
    });
  }

  async askPermission(asker: Asker, message: string, signal: AbortSignal): Promise<AskAnswer> {
    const answer = vscode.l10n.t('Answer');
    const decline = vscode.l10n.t('Decline');
    const block = vscode.l10n.t('Block Server');
    const firstLine = message.split('\n')[0] ?? '';
    // Non-modal: nothing takes focus until the user picks Answer.
    const choice = await new Promise<string | undefined>((resolve) => {
      const onAbort = (): void => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} wants your input: {1}', asker.name, firstLine), answer, decline, block).then((c) => {
        signal.removeEventListener('abort', onAbort);
        resolve(c);
      });
    });
    if (choice === answer) return 'answer';
    if (choice === decline) return 'decline';
    if (choice === block) {
      await this.deps.policy.blockServer(asker.name);
      return 'block';
    }
    return 'dismissed';
  }

  notifyBlocked(server: string): void {
    if (this.blockedNoticeShown.has(server)) return;
    this.blockedNoticeShown.add(server);
    const unblock = vscode.l10n.t('Unblock');
    void vscode.window.showInformationMessage(vscode.l10n.t('Declined a request from “{0}”: the server is blocked.', server), unblock).then((c) => {
      if (c === unblock) void this.deps.policy.setPolicy(server, 'allow');
    });
  }

  notifyRateLimited(server: string, count: number, seconds: number): void {
    const block = vscode.l10n.t('Block Server');
    const more = vscode.l10n.t('Allow More');
    void vscode.window.showWarningMessage(vscode.l10n.t('{0} sent {1} requests in {2} s; further requests are declined.', server, count, seconds), block, more).then((c) => {
      if (c === block) void this.deps.policy.blockServer(server);
      else if (c === more) this.deps.allowMore(server);
    });
  }

  notifyServerCancelled(asker: Asker): void {
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(info) {0} withdrew its question.', asker.name), 5000);
  }

  notifyServerGone(server: string): void {
    void vscode.window.showWarningMessage(vscode.l10n.t('MCP server “{0}” disconnected; its question was closed.', server));
  }

  notifyUrlCompleted(asker: Asker): void {
    vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) {0}: browser step completed.', asker.name), 5000);
  }
}
