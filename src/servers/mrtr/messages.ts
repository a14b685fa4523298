import type { Localize } from '../../shared/localize';
import { MrtrError } from './errors';
import { serverSentence } from '../sentences';

/**
 * The error's sentence in `l10n`'s language (the window's for the user); the typed fields stay for
 * callers that check them. The language is passed in so the call path has no `vscode` import and
 * runs in plain Node (the conformance client, test/conformance/client.ts).
 */
export function localised(err: unknown, l10n: Localize): unknown {
  if (!(err instanceof MrtrError)) return err;
  err.message = serverSentence(err.sentence, l10n);
  return err;
}
