/**
 * "Reconnect and Run Again": a tool that asks its questions the other MCP revision's way
 * (servers/era/eraMismatch.ts) has run up to its first question and stopped. Running it again may
 * repeat what it did before asking, so only the user decides: a notification names the server,
 * the tool and the revision, and the call (Run Tool's, an extension's, the agent's) waits for the
 * answer. Closing it, or the caller cancelling, leaves the call failed with the one-line reason.
 */
import * as vscode from 'vscode';
import type { EraSwitchOffer, EraSwitchPort } from '../servers/connectionDeps';
import { revisionOf } from '../servers/era/eraChoice';
import { displayText } from '../shared/displayText';
import { raceAbort } from '../util/async';
import * as safe from '../util/safeText';

export function vscodeEraOffer(): EraSwitchPort {
  return {
    async ask(offer: EraSwitchOffer, signal: AbortSignal | undefined): Promise<boolean> {
      const again = vscode.l10n.t('Reconnect and Run Again');
      const server = displayText(offer.server);
      const tool = displayText(offer.tool);
      const needs = displayText(revisionOf(offer.needs));
      const speaks = displayText(revisionOf(offer.needs === 'modern' ? 'legacy' : 'modern'));
      const message =
        offer.others > 0
          ? safe.l10n.t(
              'Tool “{1}” of MCP server “{0}” asks its questions the MCP {2} way, and the connection speaks {3}; it ran up to its first question and stopped. Reconnect with {2} and run it again? This ends {4} other call(s) to the server.',
              server,
              tool,
              needs,
              speaks,
              offer.others,
            )
          : safe.l10n.t(
              'Tool “{1}” of MCP server “{0}” asks its questions the MCP {2} way, and the connection speaks {3}; it ran up to its first question and stopped. Reconnect with {2} and run it again?',
              server,
              tool,
              needs,
              speaks,
            );
      const choice = await raceAbort(Promise.resolve(safe.showWarningMessage(message, again)), signal, () => undefined);
      return choice === again;
    },
  };
}
