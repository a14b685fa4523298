import * as vscode from 'vscode';
import {
  BrowserStepEndedError,
  CallCancelledError,
  MalformedAnswerError,
  MissingCapabilityError,
  MrtrError,
  RoundLimitError,
  SampleRefusedError,
  UndeclaredInputError,
  VersionGoneError,
} from './errors';
import { TaskEndedError, TaskExpiredError } from './taskFollow';

/** The error's text in the user's language; the typed fields stay for callers that check them. */
export function localised(err: unknown): unknown {
  if (!(err instanceof MrtrError)) return err;
  err.message = text(err);
  return err;
}

function text(err: MrtrError): string {
  if (err instanceof RoundLimitError) {
    return vscode.l10n.t(
      'Server “{0}” still asked for input after {1} rounds of {2}; the call was stopped.',
      err.server,
      err.rounds,
      err.call,
    );
  }
  if (err instanceof UndeclaredInputError) {
    return vscode.l10n.t(
      'Server “{0}” asked {1} for input this client does not offer ({2}); nothing was shown.',
      err.server,
      err.call,
      err.methods.join(', '),
    );
  }
  if (err instanceof MissingCapabilityError) {
    return vscode.l10n.t(
      'Server “{0}” needs a capability this client does not offer for {1}: {2}.',
      err.server,
      err.call,
      err.capabilities.join(', ') || '?',
    );
  }
  if (err instanceof VersionGoneError) {
    return vscode.l10n.t(
      'Server “{0}” no longer supports the protocol revision in use (it supports {1}); reconnecting.',
      err.server,
      err.supported.join(', ') || '?',
    );
  }
  if (err instanceof CallCancelledError) return vscode.l10n.t('{0} on “{1}” was cancelled.', err.call, err.server);
  if (err instanceof BrowserStepEndedError) {
    return vscode.l10n.t('The browser step for {0} on “{1}” ended ({2}); the call was stopped.', err.call, err.server, err.outcome);
  }
  if (err instanceof MalformedAnswerError) return faultText(err);
  if (err instanceof TaskExpiredError) {
    return vscode.l10n.t(
      'The task of {0} on “{1}” did not finish within its time to live ({2} ms); it was cancelled.',
      err.call,
      err.server,
      err.ttlMs,
    );
  }
  if (err instanceof TaskEndedError) {
    switch (err.outcome) {
      case 'failed':
        return vscode.l10n.t('The task of {0} on “{1}” failed: {2}', err.call, err.server, err.reason);
      case 'cancelled':
        return vscode.l10n.t('The task of {0} on “{1}” was cancelled by the server: {2}', err.call, err.server, err.reason);
      case 'malformed':
        return vscode.l10n.t('Server “{0}” answered the task of {1} with something that cannot be used ({2}); the call was stopped.', err.server, err.call, err.reason);
    }
  }
  if (err instanceof SampleRefusedError) {
    return vscode.l10n.t(
      'Server “{0}” asked {1} for a language model reply, which was not given ({2}); the call was stopped.',
      err.server,
      err.call,
      err.reason,
    );
  }
  return err.message;
}

function faultText(err: MalformedAnswerError): string {
  switch (err.fault) {
    case 'roundWithResult':
      return vscode.l10n.t(
        'Server “{0}” answered {1} with a request for input that also carries a result (structuredContent); nothing was shown and the call was stopped.',
        err.server,
        err.call,
      );
    case 'emptyRound':
      return vscode.l10n.t(
        'Server “{0}” answered {1} with a request for input that asks for nothing (no input requests, no requestState); the call was stopped.',
        err.server,
        err.call,
      );
    case 'resultWithRequests':
      return vscode.l10n.t(
        'Server “{0}” answered {1} with a result that still asks for input (inputRequests); nothing was shown and the call was stopped.',
        err.server,
        err.call,
      );
  }
}
