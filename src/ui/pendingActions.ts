import type * as vscode from 'vscode';
import type { ElicitationQueue, PendingView } from '../elicitation/queue/elicitationQueue';
import { analyseUrl } from '../elicitation/safety/urlAnalysis';
import { displayText } from '../elicitation/safety/displayText';
import { MAX_MESSAGE_CHARS } from '../elicitation/safety/text';
import { Disposable } from '../util/disposable';
import * as safe from '../util/safeText';
import type { PolicyActions } from './policyActions';
import type { VscodePresenter } from './vscodePresenter';
import { revealActiveForm } from './form/formPanel';
import { showUrlConsent } from './urlConsent';

export interface PendingActionsDeps {
  readonly queue: ElicitationQueue;
  readonly presenter: VscodePresenter;
  readonly policyActions: PolicyActions;
  readonly allowHttpLoopback: () => boolean;
  /** The one way a URL reaches the browser (after the consent's click). */
  readonly openExternal: (uri: vscode.Uri) => Thenable<boolean>;
}

/**
 * What picking an entry of the pending list does: bring its question back, say where it is, or,
 * for a browser step that awaits completion, show its consent again ("Open Again"). The URL of
 * such a step is kept only while it awaits completion.
 */
export class PendingActions extends Disposable {
  private readonly urls = new Map<string, string>();

  constructor(private readonly deps: PendingActionsDeps) {
    super();
    this._register(
      deps.queue.onDidFinish((f) => {
        if (f.url && f.action === 'accept') this.urls.set(f.id, f.url);
      }),
    );
    this._register(
      deps.queue.onDidEndCompletion(({ entry, outcome }) => {
        this.urls.delete(entry.id);
        if (outcome === 'expired') {
          void safe.showInformationMessage(
            safe.l10n.t('{0}: the browser step was not confirmed in time and is no longer tracked.', displayText(entry.asker.name)),
          );
        }
      }),
    );
  }

  reveal(entry: PendingView): void {
    // Set aside, or waiting on the `ask` notification: picking it from the list is "Answer".
    if ((entry.state === 'aside' || entry.state === 'asking') && this.deps.presenter.resume(entry.id)) return;
    if (entry.state === 'onScreen' && !revealActiveForm()) {
      void safe.showInformationMessage(
        safe.l10n.t('The question from {0} is open at the top of the window.', displayText(entry.asker.name)),
      );
    }
    if (entry.state === 'queued') {
      void safe.showInformationMessage(safe.l10n.t('This request is queued and will be shown after the ones before it.'));
    }
  }

  openAgain(entry: PendingView): void {
    const url = this.urls.get(entry.id);
    if (!url) return;
    void showUrlConsent(
      {
        id: entry.id,
        asker: { name: entry.asker.name, info: entry.asker.info },
        message: displayText(entry.message, MAX_MESSAGE_CHARS),
        url,
        analysis: analyseUrl(url, { allowHttpLoopback: this.deps.allowHttpLoopback() }),
      },
      new AbortController().signal,
      {
        openExternal: (u) => this.deps.openExternal(u),
        onBlockServer: () => void this.deps.policyActions.blockServer(entry.asker.name),
        answered: true,
      },
    );
  }
}
