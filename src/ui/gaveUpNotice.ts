/**
 * Tells the user, once, that a server stopped for good: its automatic restarts kept failing, or
 * it failed in a way no restart fixes (servers/connection.ts). A non-modal error notification
 * names the server and the reason, quotes the last line it wrote to stderr (often the real cause:
 * a missing module, a bad option), and offers Show Log and Restart. A server that gives up again
 * within a few minutes is not announced again: its state in the Servers view and its log say it.
 */
import * as vscode from 'vscode';
import type { GaveUp } from '../servers/connection';
import type { ServerManager } from '../servers/serverManager';
import { displayText, joinDisplay, MAX_MESSAGE_CHARS, type DisplayText } from '../shared/displayText';
import { Disposable } from '../util/disposable';
import { QuietPeriod } from '../util/quietPeriod';
import type { ServerLogs } from '../util/serverLogs';
import * as safe from '../util/safeText';

/** How long a server's give-up is not announced again after its notice. */
export const GAVE_UP_QUIET_MS = 5 * 60_000;
/** How much of the stderr line the notice quotes: the log has all of it. */
const STDERR_CHARS = 300;

export type GaveUpAction = 'showLog' | 'restart';

/** The notification; the in-host tests answer it in the user's place. */
export interface GaveUpPrompt {
  /** Shows `message` with these actions; resolves with the one chosen, or undefined when closed. */
  show(message: DisplayText, actions: readonly GaveUpAction[]): Promise<GaveUpAction | undefined>;
}

export function vscodeGaveUpPrompt(): GaveUpPrompt {
  return {
    async show(message, actions) {
      const labels: Record<GaveUpAction, string> = { showLog: vscode.l10n.t('Show Log'), restart: vscode.l10n.t('Restart') };
      const choice = await safe.showErrorMessage(message, ...actions.map((a) => labels[a]));
      return actions.find((a) => labels[a] === choice);
    },
  };
}

/** What the notice says: server text only as neutralised, redacted text. */
export function gaveUpMessage(g: GaveUp, redact: (text: string) => string): DisplayText {
  const name = displayText(g.server);
  const reason = displayText(redact(g.reason), MAX_MESSAGE_CHARS);
  const head =
    g.after === 'restarts'
      ? safe.l10n.t('MCP server “{0}” keeps failing and was not restarted again: {1}', name, reason)
      : safe.l10n.t('MCP server “{0}” stopped and was not restarted: {1}', name, reason);
  if (!g.lastStderr) return head;
  return joinDisplay([head, safe.l10n.t('Its last error output: {0}', displayText(redact(g.lastStderr), STDERR_CHARS))], ' ');
}

export interface GaveUpNoticeDeps {
  readonly manager: ServerManager;
  readonly serverLogs: ServerLogs;
  readonly prompt: GaveUpPrompt;
  readonly now?: () => number;
}

export class GaveUpNotices extends Disposable {
  private readonly quiet: QuietPeriod;

  constructor(private readonly deps: GaveUpNoticeDeps) {
    super();
    this.quiet = new QuietPeriod(GAVE_UP_QUIET_MS, deps.now);
    this._register(
      deps.manager.onDidGiveUp(
        (g) => void this.notify(g).catch((e: unknown) => deps.serverLogs.for(g.server).error('the give-up notice failed', e)),
      ),
    );
  }

  private async notify(g: GaveUp): Promise<void> {
    const log = this.deps.serverLogs.for(g.server);
    const turn = this.quiet.begin(g.server);
    if (!turn) {
      log.info(`gave up again; the notice is not repeated within ${GAVE_UP_QUIET_MS / 60_000} minutes of the last one`);
      return;
    }
    let choice: GaveUpAction | undefined;
    try {
      choice = await this.deps.prompt.show(
        gaveUpMessage(g, (t) => log.redact(t)),
        ['showLog', 'restart'],
      );
    } finally {
      turn.done();
    }
    if (this.isDisposed) return;
    if (choice === 'showLog') this.deps.serverLogs.show(g.server);
    // Through the manager, which says so instead when workspace trust holds the server back.
    else if (choice === 'restart') await this.deps.manager.restart(g.server);
  }
}
