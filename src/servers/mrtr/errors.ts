import type { AnswerFault } from './answerShape';

/**
 * Why a call that speaks 2026-07-28 ended without a result. Each names the server and what the
 * user can act on; `messages.ts` gives the localised text shown in the window.
 */
export abstract class MrtrError extends Error {
  constructor(
    readonly server: string,
    readonly call: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The server kept answering `input_required` past the round limit. */
export class RoundLimitError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly rounds: number,
  ) {
    super(server, call, `Server "${server}" still asked for input after ${rounds} rounds of ${call}; the call was stopped.`);
  }
}

/** An input request of a kind this client does not declare (`sampling/createMessage`, `roots/list`). */
export class UndeclaredInputError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly key: string,
    readonly method: string | undefined,
    /** Every kind the round asked for that we do not declare, the first one included. */
    readonly methods: readonly string[] = [method ?? 'no method'],
  ) {
    super(
      server,
      call,
      `Server "${server}" asked ${call} for input this client does not offer (${methods.join(', ')}; first key "${key}"); nothing was shown.`,
    );
  }
}

/** The server's answer was both a round and a result, or a round that asked nothing (answerShape.ts). */
export class MalformedAnswerError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly fault: AnswerFault,
  ) {
    super(server, call, `Server "${server}" sent an answer to ${call} that cannot be used (${fault}); the call was stopped.`);
  }
}

/** `-32021`: the server needs a client capability we do not declare. */
export class MissingCapabilityError extends MrtrError {
  readonly code = -32021;
  constructor(
    server: string,
    call: string,
    readonly capabilities: readonly string[],
  ) {
    super(
      server,
      call,
      `Server "${server}" needs a capability this client does not offer for ${call}: ${capabilities.join(', ') || 'unspecified'}.`,
    );
  }
}

/** `-32022` after the version was chosen: the server no longer speaks it. */
export class VersionGoneError extends MrtrError {
  readonly code = -32022;
  constructor(
    server: string,
    call: string,
    readonly supported: readonly string[],
  ) {
    super(
      server,
      call,
      `Server "${server}" no longer supports the protocol revision in use (it supports ${supported.join(', ') || 'none it named'}); reconnecting.`,
    );
  }
}

/** The call was cancelled (progress Cancel, the caller's token, deactivation): no retry was sent. */
export class CallCancelledError extends MrtrError {
  constructor(server: string, call: string) {
    super(server, call, `${call} on "${server}" was cancelled.`);
  }
}

/** A browser step of the call ended without the user saying it was done (dismissed, expired, server gone). */
export class BrowserStepEndedError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly outcome: string,
  ) {
    super(server, call, `The browser step for ${call} on "${server}" ended (${outcome}); the call was stopped.`);
  }
}

/** A sample asked in a round got no reply (bad input, declined, no model): the call cannot go on. */
export class SampleRefusedError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly key: string,
    readonly reason: string,
  ) {
    super(server, call, `Server "${server}" asked ${call} for a language model reply (${key}), which was not given: ${reason}`);
  }
}
