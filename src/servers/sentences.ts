/**
 * Why a call to a server ended without a result, or a server did not start, each sentence written
 * once. The English rendering (`english`, src/shared/localize.ts) is an error's own message and
 * the state the log and the public API describe: the agent that reads a failed gateway lookup, the
 * log, and the server's author get it. The window shows the same sentence in the user's language
 * (Run Tool through mrtr/messages.ts, the Servers view and the server pick pass `vscode.l10n`).
 * Keyed by `key`, with the values the sentence names; the caller injects the language.
 *
 * The English is what left the host before the sentences were written once, byte for byte:
 * straight quotes around the server's name, the first undeclared key named, "unspecified" and
 * "none it named" for empty lists. A malformed answer and a refused sample keep the window's
 * wording: their English never left the host untranslated.
 */
import type { Localize } from '../shared/localize';
import type { AnswerFault } from './mrtr/answerShape';

/** A 2026-07-28 call that ended without a result; every one names the server and the call (`echo`). */
export type MrtrSentence = { readonly server: string; readonly call: string } & (
  | { readonly key: 'roundLimit'; readonly rounds: number }
  | { readonly key: 'undeclaredInput'; readonly methods: readonly string[]; readonly firstKey: string }
  | { readonly key: 'malformedAnswer'; readonly fault: AnswerFault }
  | { readonly key: 'missingCapability'; readonly capabilities: readonly string[] }
  | { readonly key: 'versionGone'; readonly supported: readonly string[] }
  | { readonly key: 'callCancelled' }
  | { readonly key: 'browserStepEnded'; readonly outcome: string }
  | { readonly key: 'sampleRefused'; readonly reason: string }
  | { readonly key: 'taskExpired'; readonly ttlMs: number }
  | { readonly key: 'taskEnded'; readonly outcome: 'failed' | 'cancelled' | 'malformed'; readonly reason: string }
);

/** Every sentence of the table: a call's end, a call to a server that is not running, a server held back. */
export type ServerSentence = MrtrSentence | { readonly key: 'notRunning'; readonly server: string } | { readonly key: 'untrusted' };

export function serverSentence(s: ServerSentence, l10n: Localize): string {
  switch (s.key) {
    case 'notRunning':
      return l10n.t('Server "{0}" is not running.', s.server);
    case 'untrusted':
      return l10n.t('not started: workspace is not trusted');
    case 'roundLimit':
      return l10n.t('Server "{0}" still asked for input after {1} rounds of {2}; the call was stopped.', s.server, s.rounds, s.call);
    case 'undeclaredInput':
      return l10n.t(
        'Server "{0}" asked {1} for input this client does not offer ({2}; first key "{3}"); nothing was shown.',
        s.server,
        s.call,
        s.methods.join(', '),
        s.firstKey,
      );
    case 'malformedAnswer':
      return faultSentence(s.fault, s.server, s.call, l10n);
    case 'missingCapability':
      return s.capabilities.length
        ? l10n.t('Server "{0}" needs a capability this client does not offer for {1}: {2}.', s.server, s.call, s.capabilities.join(', '))
        : l10n.t('Server "{0}" needs a capability this client does not offer for {1}: unspecified.', s.server, s.call);
    case 'versionGone':
      return s.supported.length
        ? l10n.t(
            'Server "{0}" no longer supports the protocol revision in use (it supports {1}); reconnecting.',
            s.server,
            s.supported.join(', '),
          )
        : l10n.t('Server "{0}" no longer supports the protocol revision in use (it supports none it named); reconnecting.', s.server);
    case 'callCancelled':
      return l10n.t('{0} on "{1}" was cancelled.', s.call, s.server);
    case 'browserStepEnded':
      return l10n.t('The browser step for {0} on "{1}" ended ({2}); the call was stopped.', s.call, s.server, s.outcome);
    case 'sampleRefused':
      return l10n.t(
        'Server "{0}" asked {1} for a language model reply, which was not given ({2}); the call was stopped.',
        s.server,
        s.call,
        s.reason,
      );
    case 'taskExpired':
      return l10n.t(
        'The task of {0} on "{1}" did not finish within its time to live ({2} ms); it was cancelled.',
        s.call,
        s.server,
        s.ttlMs,
      );
    case 'taskEnded':
      switch (s.outcome) {
        case 'failed':
          return l10n.t('The task of {0} on "{1}" failed: {2}', s.call, s.server, s.reason);
        case 'cancelled':
          return l10n.t('The task of {0} on "{1}" was cancelled by the server: {2}', s.call, s.server, s.reason);
        case 'malformed':
          return l10n.t(
            'Server "{0}" answered the task of {1} with something that cannot be used ({2}); the call was stopped.',
            s.server,
            s.call,
            s.reason,
          );
      }
  }
}

/** What was wrong with the server's answer (mrtr/answerShape.ts), said whole so it translates whole. */
function faultSentence(fault: AnswerFault, server: string, call: string, l10n: Localize): string {
  switch (fault) {
    case 'roundWithResult':
      return l10n.t(
        'Server "{0}" answered {1} with a request for input that also carries a result (structuredContent); nothing was shown and the call was stopped.',
        server,
        call,
      );
    case 'emptyRound':
      return l10n.t(
        'Server "{0}" answered {1} with a request for input that asks for nothing (no input requests, no requestState); the call was stopped.',
        server,
        call,
      );
    case 'resultWithRequests':
      return l10n.t(
        'Server "{0}" answered {1} with a result that still asks for input (inputRequests); nothing was shown and the call was stopped.',
        server,
        call,
      );
  }
}
