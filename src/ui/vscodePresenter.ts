import * as vscode from 'vscode';
import type {
  AskAnswer,
  AskPrompt,
  FormAnswer,
  FormPrompt,
  Presenter,
  PromptControl,
  RecalledNote,
  UrlAnswer,
  UrlPrompt,
  SignInAnswer,
  SignInPrompt,
} from '../elicitation/presenter';
import type { Asker } from '../elicitation/asker';
import { defaultValues } from '../elicitation/form/validator';
import type { Settings } from '../config/settings';
import type { Logger } from '../util/log';
import { onAbort, settleOnce } from '../util/async';
import { showFormPanel } from './form/formPanel';
import { showQuickForm } from './quickInput/quickForm';
import { positionText } from './quickInput/quickInputParts';
import { showSignInConsent, showUrlConsent } from './urlConsent';
import type { PolicyActions } from './policyActions';
import type { ServerPolicy } from '../elicitation/policy/policy';
import { displayText, firstLine, withSuffix } from '../elicitation/safety/displayText';
import * as safe from '../util/safeText';

/** An `ask` notification still waiting for the user. */
interface PendingAsk {
  readonly asker: Asker;
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
  /** Undo on the answered-from-memory note: forgets that answer. */
  readonly forgetAnswer: (fingerprint: string) => Promise<boolean>;
  /** How long a question that opened by itself takes no accept, ms (quickInput/strayAccept.ts), read per question. */
  readonly strayAcceptMs: () => number;
}

/** The real user interface behind the broker: native quick input, the webview form, modal consent. */
export class VscodePresenter implements Presenter {
  private readonly blockedNoticeShown = new Set<string>();
  private readonly asks = new Set<PendingAsk>();
  /** By pending id: what "Answer" from the pending list does for an `ask` notification or a question set aside. */
  private readonly resumers = new Map<string, () => void>();
  /** One token per prompt on screen now; a prompt set aside is not on screen. */
  private readonly onScreen = new Set<symbol>();
  /** Fingerprints whose answered-from-memory note is still open (not yet dismissed or clicked). */
  private readonly openNotes = new Set<string>();

  constructor(private readonly deps: PresenterDeps) {}

  /**
   * Whether one of our prompts (a question, a tool's arguments, the url consent) is on screen:
   * anything opened now must not take its focus, or the question is set aside.
   */
  get promptOnScreen(): boolean {
    return this.onScreen.size > 0;
  }

  /** Counts a picker of ours that is not a question (Run Tool's server and tool pickers) as on screen until it closes. */
  whileOnScreen<T>(shown: Thenable<T>): Promise<T> {
    return this.onScreenUntilSettled(Symbol('picker'), () => Promise.resolve(shown));
  }

  private onScreenUntilSettled<T>(token: symbol, show: () => Promise<T>): Promise<T> {
    this.onScreen.add(token);
    return show().finally(() => this.onScreen.delete(token));
  }

  presentForm(prompt: FormPrompt, signal: AbortSignal, control?: PromptControl): Promise<FormAnswer> {
    const token = Symbol(prompt.id);
    return this.onScreenUntilSettled(token, () => this.showForm(prompt, signal, control, token));
  }

  private async showForm(prompt: FormPrompt, signal: AbortSignal, control: PromptControl | undefined, token: symbol): Promise<FormAnswer> {
    const p = this.deps.settings().presentation;
    const fields = prompt.form.fields.length;
    // A confirmation (no fields) is always native: an empty webview form would only hide the question.
    const useWebview = fields > 0 && (p === 'webview' || (p === 'auto' && fields > 1));
    const onBlockServer = (): void => void this.deps.policy.blockServer(prompt.asker.name);
    if (!useWebview) {
      // A native widget has no banner: a cut message ends with a visible marker instead.
      const marked = prompt.messageTruncated ? { ...prompt, message: withSuffix(prompt.message, ' …') } : prompt;
      return showQuickForm(marked, signal, {
        onBlockServer,
        // A server's question opens when the server asks, not when the user does; a tool's
        // arguments (no control) open from the user's own Run Tool, and their Enter is meant.
        ...(control ? { strayAcceptMs: this.deps.strayAcceptMs() } : {}),
        onShow: (w) => this.deps.onDidShowPrompt('items' in w ? 'quickPick' : 'inputBox', prompt.id, w),
        ...(control
          ? {
              onHidden: async () => {
                this.onScreen.delete(token);
                const r = await this.setAside(prompt, signal, control);
                if (r === 'resume') this.onScreen.add(token);
                return r;
              },
            }
          : {}),
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
        attribution: {
          name: prompt.asker.name,
          info: [prompt.asker.info, positionText(prompt.asker)].filter(Boolean).join(' · ') || undefined,
          message: prompt.messageTruncated ? `${prompt.message} …` : prompt.message,
          messageTruncated: prompt.messageTruncated ?? false,
        },
        fields: prompt.form.fields,
        warnings: prompt.warnings,
        values: defaultValues(prompt.form),
        preview: false,
        canRemember: prompt.canRemember === true,
      },
    });
    return outcome.action === 'cancel' ? { action: 'cancel' } : outcome;
  }

  presentUrl(prompt: UrlPrompt, signal: AbortSignal): Promise<UrlAnswer> {
    return this.onScreenUntilSettled(Symbol(prompt.id), async () => {
      this.deps.onDidShowPrompt('consent', prompt.id);
      return showUrlConsent(prompt, signal, {
        openExternal: this.deps.openExternal,
        onBlockServer: () => void this.deps.policy.blockServer(prompt.asker.name),
      });
    });
  }

  presentSignIn(prompt: SignInPrompt, signal: AbortSignal): Promise<SignInAnswer> {
    return this.onScreenUntilSettled(Symbol(prompt.id), async () => {
      this.deps.onDidShowPrompt('consent', prompt.id);
      return showSignInConsent(prompt, signal, { openExternal: this.deps.openExternal });
    });
  }

  /**
   * A question hidden without an answer: Escape, or another quick input (the palette, Show Pending)
   * took its place; VS Code does not say which. It stays pending with its turn, and a notification
   * offers it again. Resolves 'resume' (Answer there, or picked from the pending list) or 'cancel'.
   */
  private setAside(prompt: FormPrompt, signal: AbortSignal, control: PromptControl): Promise<'resume' | 'cancel'> {
    control.setAside(true);
    const answer = vscode.l10n.t('Answer');
    const cancel = vscode.l10n.t('Cancel');
    return new Promise((resolve) => {
      const once = settleOnce();
      const subs: { dispose(): void }[] = [];
      const finish = (r: 'resume' | 'cancel'): void =>
        void once(() => {
          this.resumers.delete(prompt.id);
          for (const s of subs) s.dispose();
          if (r === 'resume') control.setAside(false);
          resolve(r);
        });
      subs.push(onAbort(signal, () => finish('cancel')));
      if (once.settled) return;
      this.resumers.set(prompt.id, () => finish('resume'));
      // Closed without a choice, the question stays pending: the status bar and the list still offer it.
      void safe
        .showInformationMessage(
          safe.l10n.t('The question from {0} is set aside, not answered: {1}', displayText(prompt.asker.name), firstLine(prompt.message)),
          answer,
          cancel,
        )
        .then((c) => {
          if (c === answer) finish('resume');
          else if (c === cancel) finish('cancel');
        });
    });
  }

  /** "Answer" from the pending list: shows a question set aside again, or answers an `ask` notification. */
  resume(id: string): boolean {
    const resume = this.resumers.get(id);
    resume?.();
    return resume !== undefined;
  }

  async askPermission(prompt: AskPrompt, signal: AbortSignal): Promise<AskAnswer> {
    const { asker, message } = prompt;
    const answer = vscode.l10n.t('Answer');
    const decline = vscode.l10n.t('Decline');
    const block = vscode.l10n.t('Block Server');
    // Non-modal: nothing takes focus until the user picks Answer. A notification cannot be closed
    // from here, so a server cancel or a policy change settles the promise and a late click on the
    // stale notification does nothing.
    const choice = await new Promise<AskAnswer>((resolve) => {
      const once = settleOnce();
      const subs: { dispose(): void }[] = [];
      const pending: PendingAsk = {
        asker,
        settle: (a) =>
          void once(() => {
            this.asks.delete(pending);
            this.resumers.delete(prompt.id);
            for (const s of subs) s.dispose();
            resolve(a);
          }),
      };
      subs.push(onAbort(signal, () => pending.settle('dismissed')));
      if (once.settled) return;
      this.asks.add(pending);
      this.resumers.set(prompt.id, () => pending.settle('answer'));
      void safe
        .showInformationMessage(
          safe.l10n.t('{0} wants your input: {1}', displayText(asker.name), firstLine(message)),
          answer,
          decline,
          block,
        )
        .then(async (c) => {
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
    for (const a of [...this.asks]) if (this.deps.policyFor(a.asker.name) === 'block') a.settle('block');
  }

  /** For tests: `ask` notifications still waiting for the user. */
  get pendingAsks(): number {
    return this.asks.size;
  }

  notifyBlocked(asker: Asker): void {
    const server = asker.name;
    if (this.blockedNoticeShown.has(server)) return;
    this.blockedNoticeShown.add(server);
    const unblock = vscode.l10n.t('Unblock');
    void safe
      .showInformationMessage(safe.l10n.t('Declined a request from “{0}”: the server is blocked.', displayText(server)), unblock)
      .then((c) => {
        if (c === unblock) void this.deps.policy.unblockServer(server);
      });
  }

  notifyRateLimited(asker: Asker, count: number, seconds: number): void {
    const server = asker.name;
    const block = vscode.l10n.t('Block Server');
    const more = vscode.l10n.t('Allow More');
    void safe
      .showWarningMessage(
        safe.l10n.t('{0} sent {1} requests in {2} s; further requests are declined.', displayText(server), count, seconds),
        block,
        more,
      )
      .then((c) => {
        if (c === block) void this.deps.policy.blockServer(server);
        else if (c === more) this.deps.allowMore(server);
      });
  }

  notifyServerCancelled(asker: Asker): void {
    safe.setStatusBarMessage(safe.l10n.t('$(info) {0} withdrew its question.', displayText(asker.name)), 5000);
  }

  notifyCallCancelled(asker: Asker): void {
    safe.setStatusBarMessage(safe.l10n.t('$(info) {0}: the call was cancelled; its question was closed.', displayText(asker.name)), 5000);
  }

  notifyServerGone(asker: Asker): void {
    void safe.showWarningMessage(safe.l10n.t('MCP server “{0}” disconnected; its question was closed.', displayText(asker.name)));
  }

  /**
   * Non-modal, and after the fact: the answer has gone to the server, which may already have acted
   * on it. So Undo cannot take it back; it forgets the remembered answer, and the server's next
   * such question is asked again. Forget… opens the list of every remembered answer.
   */
  notifyAnsweredFromMemory(note: RecalledNote): void {
    // One note per remembered answer while it is open: a tenth repetition adds no tenth toast, only
    // a status bar line (the audit and the log record each one).
    if (this.openNotes.has(note.fingerprint)) {
      safe.setStatusBarMessage(safe.l10n.t('$(history) {0}: answered from memory again.', displayText(note.asker.name)), 5000);
      return;
    }
    this.openNotes.add(note.fingerprint);
    const undo = vscode.l10n.t('Undo');
    const forget = vscode.l10n.t('Forget…');
    void safe
      .showInformationMessage(
        safe.l10n.t(
          'Answered from memory: {0} asked “{1}”; it got the answer you gave before.',
          displayText(note.asker.name),
          firstLine(note.message),
        ),
        undo,
        forget,
      )
      .then(async (c) => {
        this.openNotes.delete(note.fingerprint);
        if (c === undo) {
          await this.deps.forgetAnswer(note.fingerprint);
          void safe.showInformationMessage(
            safe.l10n.t('Forgotten. The answer already sent stays sent; {0} will ask you next time.', displayText(note.asker.name)),
          );
        } else if (c === forget) {
          await vscode.commands.executeCommand('mcpElicitation.forgetRememberedAnswers');
        }
      });
  }

  notifyUrlCompleted(asker: Asker): void {
    safe.setStatusBarMessage(safe.l10n.t('$(check) {0}: browser step completed.', displayText(asker.name)), 5000);
  }
}
