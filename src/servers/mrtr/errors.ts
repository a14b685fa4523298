import type { AnswerFault } from './answerShape';
import { english } from '../../shared/localize';
import { serverSentence, type MrtrSentence } from '../sentences';

/**
 * Why a call that speaks 2026-07-28 ended without a result. Each names the server and what the
 * user can act on. The message is the English of its sentence (../sentences.ts); `messages.ts`
 * renders the same sentence in the user's language for the window.
 */
export abstract class MrtrError extends Error {
  readonly server: string;
  readonly call: string;
  constructor(readonly sentence: MrtrSentence) {
    super(serverSentence(sentence, english));
    this.name = new.target.name;
    this.server = sentence.server;
    this.call = sentence.call;
  }
}

/** The server kept answering `input_required` past the round limit. */
export class RoundLimitError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly rounds: number,
  ) {
    super({ key: 'roundLimit', server, call, rounds });
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
    super({ key: 'undeclaredInput', server, call, methods, firstKey: key });
  }
}

/** The server's answer was both a round and a result, or a round that asked nothing (answerShape.ts). */
export class MalformedAnswerError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly fault: AnswerFault,
  ) {
    super({ key: 'malformedAnswer', server, call, fault });
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
    super({ key: 'missingCapability', server, call, capabilities });
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
    super({ key: 'versionGone', server, call, supported });
  }
}

/** The call was cancelled (progress Cancel, the caller's token, deactivation): no retry was sent. */
export class CallCancelledError extends MrtrError {
  constructor(server: string, call: string) {
    super({ key: 'callCancelled', server, call });
  }
}

/** A browser step of the call ended without the user saying it was done (dismissed, expired, server gone). */
export class BrowserStepEndedError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly outcome: string,
  ) {
    super({ key: 'browserStepEnded', server, call, outcome });
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
    super({ key: 'sampleRefused', server, call, reason });
  }
}
