/**
 * The one Presenter the unit tests use in place of the VS Code adapters: it records every prompt
 * and notice, and answers each prompt either by a script or, with no script, when the test says
 * (`answer` of its entry). Like every real presenter, it closes a prompt whose signal aborts:
 * a form or url prompt with cancel, the `ask` notification as dismissed.
 */
import type { Asker } from '../../../src/elicitation/asker';
import type {
  RecalledNote,
  SignInAnswer,
  AskAnswer,
  AskPrompt,
  FormAnswer,
  FormPrompt,
  Presenter,
  PromptControl,
  UrlAnswer,
  UrlPrompt,
} from '../../../src/elicitation/presenter';
import { raceAbort } from '../../../src/util/async';

/** How a kind of prompt is answered: at once, or later (the promise). */
export type Script<P, A> = (prompt: P, signal: AbortSignal) => A | Promise<A>;

/** A prompt the presenter was asked to show. */
export interface Shown<P, A> {
  readonly prompt: P;
  readonly signal: AbortSignal;
  /** Given with an elicitation's form: how it is set aside or shown again. */
  readonly control: PromptControl | undefined;
  /** Answers it, as the user would; ignored once it has an answer or was closed. */
  answer(answer: A): void;
}

/** A notification the presenter was asked to show, with the server it names. */
export interface Notice {
  readonly kind: 'blocked' | 'rateLimited' | 'serverCancelled' | 'callCancelled' | 'serverGone' | 'urlCompleted' | 'answeredFromMemory';
  readonly server: string;
}

export class FakePresenter implements Presenter {
  readonly forms: Shown<FormPrompt, FormAnswer>[] = [];
  readonly urls: Shown<UrlPrompt, UrlAnswer>[] = [];
  readonly asks: Shown<AskPrompt, AskAnswer>[] = [];
  readonly notices: Notice[] = [];
  /** Answers forms; `undefined`: by hand. */
  answerForm: Script<FormPrompt, FormAnswer> | undefined;
  /** Answers the url consent; `undefined`: by hand. */
  answerUrl: Script<UrlPrompt, UrlAnswer> | undefined;
  /** Answers the `ask` notification; `undefined`: by hand. */
  answerAsk: Script<AskPrompt, AskAnswer> | undefined;

  constructor(
    script: {
      readonly form?: Script<FormPrompt, FormAnswer>;
      readonly url?: Script<UrlPrompt, UrlAnswer>;
      readonly ask?: Script<AskPrompt, AskAnswer>;
    } = {},
  ) {
    this.answerForm = script.form;
    this.answerUrl = script.url;
    this.answerAsk = script.ask;
  }

  presentForm(prompt: FormPrompt, signal: AbortSignal, control?: PromptControl): Promise<FormAnswer> {
    return show(this.forms, prompt, signal, control, this.answerForm, { action: 'cancel' });
  }

  presentUrl(prompt: UrlPrompt, signal: AbortSignal): Promise<UrlAnswer> {
    return show(this.urls, prompt, signal, undefined, this.answerUrl, { action: 'cancel' });
  }

  /** The broker never signs in (servers/auth/signIn.ts does, through the real presenter): a sign-in here is a bug. */
  presentSignIn(): Promise<SignInAnswer> {
    return Promise.reject(new Error('the broker asked for a sign-in'));
  }

  askPermission(prompt: AskPrompt, signal: AbortSignal): Promise<AskAnswer> {
    return show(this.asks, prompt, signal, undefined, this.answerAsk, 'dismissed');
  }

  notifyBlocked(asker: Asker): void {
    this.notices.push({ kind: 'blocked', server: asker.name });
  }

  notifyRateLimited(asker: Asker): void {
    this.notices.push({ kind: 'rateLimited', server: asker.name });
  }

  notifyServerCancelled(asker: Asker): void {
    this.notices.push({ kind: 'serverCancelled', server: asker.name });
  }

  notifyCallCancelled(asker: Asker): void {
    this.notices.push({ kind: 'callCancelled', server: asker.name });
  }

  notifyServerGone(asker: Asker): void {
    this.notices.push({ kind: 'serverGone', server: asker.name });
  }

  notifyUrlCompleted(asker: Asker): void {
    this.notices.push({ kind: 'urlCompleted', server: asker.name });
  }

  notifyAnsweredFromMemory(note: RecalledNote): void {
    this.notices.push({ kind: 'answeredFromMemory', server: note.asker.name });
  }
}

function show<P, A>(
  list: Shown<P, A>[],
  prompt: P,
  signal: AbortSignal,
  control: PromptControl | undefined,
  script: Script<P, A> | undefined,
  onAbort: A,
): Promise<A> {
  let answer!: (a: A) => void;
  const answered = new Promise<A>((resolve, reject) => {
    answer = resolve;
    if (script) {
      Promise.resolve()
        .then(() => script(prompt, signal))
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- a script's own failure, passed on unchanged
        .then(resolve, (err: unknown) => reject(err));
    }
  });
  list.push({ prompt, signal, control, answer });
  return raceAbort(answered, signal, () => onAbort);
}
