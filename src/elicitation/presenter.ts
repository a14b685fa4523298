/**
 * What the broker needs from a user interface. The VS Code adapters in `src/ui/` implement it;
 * tests of the broker use a scripted fake. No `vscode` import here.
 */
import type { AnswerContent, FormModel } from '../shared/fieldModel';
import type { UrlAnalysis } from './safety/url';
import type { FormWarning } from './safety/text';

/** The server (or API caller) asking; shown as the attribution on every prompt. */
export interface Asker {
  /** Configured server name, or the API caller's `source`. */
  readonly name: string;
  /** `serverInfo.title ?? serverInfo.name` plus version, when known. */
  readonly info: string | undefined;
}

export interface FormPrompt {
  readonly id: string;
  readonly asker: Asker;
  readonly message: string;
  readonly form: FormModel;
  /** What the person answering should check: links in form text, secret-like fields, shortened text. */
  readonly warnings: readonly FormWarning[];
}

export interface UrlPrompt {
  readonly id: string;
  readonly asker: Asker;
  readonly message: string;
  readonly url: string;
  readonly analysis: UrlAnalysis;
}

export type FormAnswer =
  | { readonly action: 'accept'; readonly content: AnswerContent }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

export type UrlAnswer = { readonly action: 'accept'; readonly opened: boolean } | { readonly action: 'decline' } | { readonly action: 'cancel' };

export type AskAnswer = 'answer' | 'decline' | 'block' | 'dismissed';

export interface Presenter {
  /** Shows a form; settles when the user answers or `signal` aborts (then with cancel). */
  presentForm(prompt: FormPrompt, signal: AbortSignal): Promise<FormAnswer>;
  /** Shows the url consent dialog; opens the browser only on the user's click. */
  presentUrl(prompt: UrlPrompt, signal: AbortSignal): Promise<UrlAnswer>;
  /** `ask` policy: a non-modal notification before anything takes focus. */
  askPermission(asker: Asker, message: string, signal: AbortSignal): Promise<AskAnswer>;
  /** `block` policy: at most one notice per server per session (the presenter tracks that). */
  notifyBlocked(server: string): void;
  notifyRateLimited(server: string, count: number, seconds: number): void;
  notifyServerCancelled(asker: Asker): void;
  notifyServerGone(server: string): void;
  notifyUrlCompleted(asker: Asker): void;
}
