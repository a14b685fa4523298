/**
 * What the broker needs from a user interface. The VS Code adapters in `src/ui/` implement it;
 * tests of the broker use a scripted fake.
 */
import type { AnswerContent, FormModel } from '../shared/fieldModel';
import type { UrlAnalysis } from './safety/url';
import type { FormWarning } from './safety/text';
import type { BrowserStep } from './outcome';
import type { DisplayText } from './safety/displayText';
import type { Asker } from './asker';
import type { MemoryScope } from './memory/rememberedStore';

export interface FormPrompt {
  readonly id: string;
  readonly asker: Asker;
  /** The server's text, neutralised for display (no link survives; see safety/displayText.ts). */
  readonly message: DisplayText;
  /** Whether the length cap cut the message (each surface marks that its own way). */
  readonly messageTruncated?: boolean;
  readonly form: FormModel;
  /** What the person answering should check: links in form text, secret-like fields, shortened text. */
  readonly warnings: readonly FormWarning[];
  /** The answer may be remembered ("remember for this session / in this workspace"). */
  readonly canRemember?: boolean;
}

/** A question answered from memory, for the note that says so (with Undo). */
export interface RecalledNote {
  readonly asker: Asker;
  /** The server's text, neutralised for display. */
  readonly message: DisplayText;
  /** The remembered answer's id: Undo forgets it. */
  readonly fingerprint: string;
}

export interface UrlPrompt {
  readonly id: string;
  readonly asker: Asker;
  /** The server's text, neutralised for display (no link survives; see safety/displayText.ts). */
  readonly message: DisplayText;
  readonly url: string;
  readonly analysis: UrlAnalysis;
}

/**
 * Sign-in to a remote server (issue 25): the url consent, for the authorization URL the SDK built.
 * `asker` is the server that answered 401; the URL leads to its authorization server.
 */
export interface SignInPrompt {
  readonly id: string;
  readonly asker: Asker;
  readonly url: string;
  readonly analysis: UrlAnalysis;
}

/** `opened`: the browser has the sign-in page (after Allow); otherwise nothing opened. */
export type SignInAnswer = 'opened' | 'declined' | 'cancelled';

export type FormAnswer =
  /** `remember`: the user chose to have this answer given again (only offered when `canRemember`). */
  | { readonly action: 'accept'; readonly content: AnswerContent; readonly remember?: MemoryScope }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' };

export type UrlAnswer =
  | { readonly action: 'accept'; readonly browser?: BrowserStep }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel'; readonly browser?: 'notOpened' };

export type AskAnswer = 'answer' | 'decline' | 'block' | 'dismissed';

/** The `ask` policy's question: may this request be shown? */
export interface AskPrompt {
  /** The pending entry's id: the pending list can answer the notification in its place. */
  readonly id: string;
  readonly asker: Asker;
  /** The server's text, neutralised for display (no link survives; see safety/displayText.ts). */
  readonly message: DisplayText;
}

/** What a presenter may tell the broker about a prompt while it is open. */
export interface PromptControl {
  /**
   * The prompt was hidden without an answer (`true`): it stays pending and keeps its turn, and the
   * user is offered it again; or it is shown again (`false`).
   */
  setAside(aside: boolean): void;
}

export interface Presenter {
  /**
   * Shows a form (a form without fields is a confirmation); settles when the user answers or
   * `signal` aborts (then with cancel). With `control` (an elicitation), a prompt hidden without
   * an answer is set aside through it, not cancelled; without (say, a tool's arguments), hiding it
   * cancels.
   */
  presentForm(prompt: FormPrompt, signal: AbortSignal, control?: PromptControl): Promise<FormAnswer>;
  /** Shows the url consent dialog; opens the browser only on the user's click. */
  presentUrl(prompt: UrlPrompt, signal: AbortSignal): Promise<UrlAnswer>;
  /** Asks before sign-in: names the server and where it leads; opens the browser only on Allow. */
  presentSignIn(prompt: SignInPrompt, signal: AbortSignal): Promise<SignInAnswer>;
  /** `ask` policy: a non-modal notification before anything takes focus. */
  askPermission(prompt: AskPrompt, signal: AbortSignal): Promise<AskAnswer>;
  /** `block` policy: at most one notice per server per session (the presenter tracks that). */
  notifyBlocked(asker: Asker): void;
  notifyRateLimited(asker: Asker, count: number, seconds: number): void;
  /** The server withdrew a request whose prompt the user was looking at (it is closed already). */
  notifyServerCancelled(asker: Asker): void;
  /** The call that raised a request the user was looking at was cancelled (it is closed already). */
  notifyCallCancelled(asker: Asker): void;
  notifyServerGone(asker: Asker): void;
  notifyUrlCompleted(asker: Asker): void;
  /** A question was answered from memory: a short, non-modal note with Undo and Forget. */
  notifyAnsweredFromMemory(note: RecalledNote): void;
}
