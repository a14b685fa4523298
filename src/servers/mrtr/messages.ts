import * as vscode from 'vscode';
import { MrtrError } from './errors';
import { serverSentence } from '../sentences';

/** The error's sentence in the user's language; the typed fields stay for callers that check them. */
export function localised(err: unknown): unknown {
  if (!(err instanceof MrtrError)) return err;
  err.message = serverSentence(err.sentence, vscode.l10n);
  return err;
}
