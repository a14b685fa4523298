/**
 * The multi-field form as a webview panel. The page renders and collects; this side owns the
 * request: it validates every edit with the one shared validator, builds the reply, and settles
 * exactly once, whether the user answers, closes the tab, or the server withdraws the request.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { AnswerContent, AnswerValue, FormModel } from '../../shared/fieldModel';
import { buildReply } from '../../elicitation/form/validator';
import type { FormWarning } from '../../elicitation/safety/text';
import type { FormInit, RememberChoice, ToWebview } from '../../shared/webviewMessages';
import { parseFromWebview } from '../../shared/webviewMessages';
import { Disposable } from '../../util/disposable';
import { onAbort, settleOnce } from '../../util/async';
import { formWarningText } from '../wording/formText';
import { issueTexts } from '../../elicitation/form/sentences';
import { renderFormHtml } from './formHtml';
import { formStrings } from './formStrings';

export type FormOutcome =
  | { readonly action: 'accept'; readonly content: AnswerContent; readonly remember?: RememberChoice }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel'; readonly by: 'user' | 'server' };

export interface FormPanelOptions {
  readonly extensionUri: vscode.Uri;
  /** The page's initial state; its warnings are worded here, as the page has no l10n of its own. */
  readonly init: Omit<FormInit, 'strings' | 'warnings'> & { readonly warnings: readonly FormWarning[] };
  readonly form: FormModel;
  /** Aborted when the server cancels or the request is otherwise withdrawn. */
  readonly signal: AbortSignal;
  /** The user chose "Block this server"; the form then settles as `decline`. */
  readonly onBlockServer?: () => void;
  readonly onCspViolation?: (directive: string) => void;
  readonly viewColumn?: vscode.ViewColumn;
  /** Called once, when the webview first posts `ready` (benchmarks and tests measure this). */
  readonly onDidShow?: () => void;
}

/** Keeps a server-chosen name from turning the tab title into a paragraph. */
const MAX_TITLE_NAME = 40;

type Values = Record<string, AnswerValue | undefined>;

/** The form on screen, if any: one at a time, as the broker shows one prompt at a time. */
let activePanel: vscode.WebviewPanel | undefined;

/** Brings the open form to the front ("Show/Answer" in the pending list); false when none is open. */
export function revealActiveForm(): boolean {
  activePanel?.reveal(undefined, false);
  return activePanel !== undefined;
}

/** Shows the form and settles once with what happened to it. */
export function showFormPanel(opts: FormPanelOptions): Promise<FormOutcome> {
  if (opts.signal.aborted) return Promise.resolve({ action: 'cancel', by: 'server' });
  return new Promise<FormOutcome>((resolve) => {
    new FormPanel(opts, resolve);
  });
}

/** CSPRNG nonce, fresh for every render: a guessable nonce would let injected script run. */
function newNonce(): string {
  return randomBytes(16).toString('base64');
}

class FormPanel extends Disposable {
  private readonly panel: vscode.WebviewPanel;
  private readonly strings = formStrings();
  /** The latest values the page reported, so a reloaded page starts from them. */
  private values: Values;
  /** Answer, tab closed, or withdrawn: whichever comes first settles the request. */
  private readonly once = settleOnce();
  private shown = false;

  constructor(
    private readonly opts: FormPanelOptions,
    private readonly resolve: (outcome: FormOutcome) => void,
  ) {
    super();
    this.values = { ...opts.init.values };
    const name = opts.init.attribution.name;
    const shortName = name.length > MAX_TITLE_NAME ? `${name.slice(0, MAX_TITLE_NAME - 1)}…` : name;
    const media = vscode.Uri.joinPath(opts.extensionUri, 'media');
    this.panel = this._register(
      vscode.window.createWebviewPanel(
        'mcpElicitation.form',
        vscode.l10n.t('{0} asks…', shortName),
        { viewColumn: opts.viewColumn ?? vscode.ViewColumn.Active, preserveFocus: false },
        { enableScripts: true, localResourceRoots: [media], retainContextWhenHidden: false },
      ),
    );
    activePanel = this.panel;
    const panel = this.panel;
    // Registered before anything can dispose the panel, so closing the tab always settles.
    this._register(
      this.panel.onDidDispose(() => {
        if (activePanel === panel) activePanel = undefined;
        this.settle({ action: 'cancel', by: 'user' });
      }),
    );
    this._register(this.panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(m)));
    this._register(
      this.panel.onDidChangeViewState(() => {
        // A hidden page is discarded (no retained context). Rendering now, with the latest values,
        // means the page that comes back starts from them even if its own setState was lost.
        if (!this.panel.visible && !this.once.settled) this.render();
      }),
    );
    this._register(onAbort(opts.signal, () => this.withdraw()));
    this.render();
  }

  private render(): void {
    const webview = this.panel.webview;
    const media = vscode.Uri.joinPath(this.opts.extensionUri, 'media');
    const warnings = this.opts.init.warnings.map((w) => formWarningText(w, vscode.l10n));
    const init: FormInit = { ...this.opts.init, warnings, values: this.values, strings: this.strings };
    webview.html = renderFormHtml({
      cspSource: webview.cspSource,
      nonce: newNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'webview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(media, 'form.css')).toString(),
      init,
      lang: vscode.env.language,
    });
  }

  private onMessage(raw: unknown): void {
    const msg = parseFromWebview(raw);
    if (msg === undefined || this.once.settled) return;
    switch (msg.type) {
      case 'ready':
        if (!this.shown) {
          this.shown = true;
          this.opts.onDidShow?.();
        }
        return;
      case 'change': {
        this.values = this.known(msg.values);
        const r = buildReply(this.opts.form, this.values);
        this.post({ type: 'validation', valid: r.ok, errors: r.ok ? {} : issueTexts(r.errors, vscode.l10n) });
        return;
      }
      case 'accept': {
        this.values = this.known(msg.values);
        // The final check: buildReply validates the exact content that would be sent.
        const r = buildReply(this.opts.form, this.values);
        // A remember choice counts only where the host offered one.
        const remember = this.opts.init.canRemember === true ? msg.remember : undefined;
        if (r.ok) this.settle({ action: 'accept', content: r.content, ...(remember ? { remember } : {}) });
        else this.post({ type: 'validation', valid: false, errors: issueTexts(r.errors, vscode.l10n) });
        return;
      }
      case 'decline':
        this.settle({ action: 'decline' });
        return;
      case 'cancel':
        this.settle({ action: 'cancel', by: 'user' });
        return;
      case 'blockServer':
        // Blocking is a refusal: tell the caller, then answer this request with decline.
        this.callSafely(this.opts.onBlockServer);
        this.settle({ action: 'decline' });
        return;
      case 'cspViolation':
        this.callSafely(this.opts.onCspViolation, msg.directive);
        return;
    }
  }

  /** Keeps only the form's own keys: anything else from the page is noise at best. */
  private known(values: Readonly<Values>): Values {
    return Object.fromEntries(
      this.opts.form.fields
        .filter((f) => Object.hasOwn(values, f.key))
        .map((f): [string, AnswerValue | undefined] => [f.key, values[f.key]]),
    );
  }

  private withdraw(): void {
    if (this.once.settled) return;
    // Tell the page first so it goes inert even if disposal of the panel is delayed.
    this.post({ type: 'closed', reason: vscode.l10n.t('The server withdrew the request.') });
    this.settle({ action: 'cancel', by: 'server' });
  }

  private post(msg: ToWebview): void {
    // A rejected post means the page is already gone; there is nobody left to tell.
    this.panel.webview.postMessage(msg).then(undefined, () => undefined);
  }

  private callSafely<A extends unknown[]>(fn: ((...args: A) => void) | undefined, ...args: A): void {
    try {
      fn?.(...args);
    } catch {
      // A failing callback must not keep the request from settling.
    }
  }

  /** Settles exactly once, then closes the panel and drops every listener. */
  private settle(outcome: FormOutcome): void {
    this.once(() => {
      this.resolve(outcome);
      this.dispose();
    });
  }
}
