import * as vscode from 'vscode';
import type { AskAnswer, Asker, FormAnswer, FormPrompt, Presenter, UrlAnswer, UrlPrompt } from '../elicitation/presenter';
import { defaultValues } from '../elicitation/form/validator';
import type { Settings } from '../config/settings';
import type { Logger } from '../util/log';
import { showFormPanel } from './form/formPanel';
import { showQuickForm } from './quickInput/quickForm';
import { showUrlConsent } from './urlConsent';
import type { PolicyActions } from './policyActions';
import type { ServerPolicy } from '../elicitation/policy/policy';

/** An `ask` notification still waiting for the user. */
interface PendingAsk {
  readonly server: string;
  readonly settle: (answer: AskAnswer) => void;
}

export interface PresenterDeps {
  readonly extensionUri: vscode.Uri;
  readonly settings: () => Settings;
  readonly log: Logger;
  readonly policy: PolicyActions;
  readonly allowMore: (server: string) => void;
  /** The policy in force now: an `ask` notification answered after a block must not show anything. */
  readonly policyFor: (server: string) => ServerPolicy;
  /** Observers for tests and the benchmark: the widget of the current prompt became visible. */
  readonly onDidShowPrompt: (kind: 'inputBox' | 'quickPick' | 'webview' | 'consent', id: string, widget?: vscode.QuickInput) => void;
  readonly openExternal: (uri: vscode.Uri) => Thenable<boolean>;
  /** A form webview reported a CSP violation: something tried to run or load that must not. */
  readonly onCspViolation?: (server: string, directive: string) => void;
}

/** The real user interface behind the broker: native quick input, the webview form, modal consent. */
export class VscodePresenter implements Presenter {
  private readonly blockedNoticeShown = new Set<string>();
  private readonly asks = new Set<PendingAsk>();

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
      onCspViolation: (directive) => {
        this.deps.log.warn(`[${prompt.asker.name}] CSP violation in form webview: ${directive}`);
        this.deps.onCspViolation?.(prompt.asker.name, directive);
      },
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
    // Non-modal: nothing takes focus until the user picks Answer. A notification cannot be closed
    // from here, so a server cancel or a policy change settles the promise and a late click on the
    // stale notification does nothing.
    const choice = await new Promise<AskAnswer>((resolve) => {
      let done = false;
      const pending: PendingAsk = {
        server: asker.name,
        settle: (a) => {
          if (done) return;
          done = true;
          this.asks.delete(pending);
          signal.removeEventListener('abort', onAbort);
          resolve(a);
        },
      };
      const onAbort = (): void => pending.settle('dismissed');
      if (signal.aborted) return pending.settle('dismissed');
      signal.addEventListener('abort', onAbort, { once: true });
      this.asks.add(pending);
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} wants your input: {1}', asker.name, firstLine), answer, decline, block).then(async (c) => {
        if (c === block) {
          // Even on a stale notification: the user asked for the server to be blocked.
          await this.deps.policy.blockServer(asker.name);
          pending.settle('block');
        } else {
          pending.settle(c === answer ? 'answer' : c === decline ? 'decline' : 'dismissed');
        }
      });
    });
    // Blocked while the notification waited (Servers view, another prompt's Block button).
    if (choice === 'answer' && this.deps.policyFor(asker.name) === 'block') return 'block';
    return choice;
  }

  /** Pending `ask` notifications of servers that are now blocked are declined at once. */
  applyPolicy(): void {
    for (const a of [...this.asks]) if (this.deps.policyFor(a.server) === 'block') a.settle('block');
  }

  /** For tests: `ask` notifications still waiting for the user. */
  get pendingAsks(): number {
    return this.asks.size;
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
