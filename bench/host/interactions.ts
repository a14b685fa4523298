/**
 * Interactions to accept the demo's twelve-field "everything" form with its defaults. The host
 * starts the tool; the harness, which owns the page, waits for the form to appear and then does
 * exactly what a user would (one click on Accept, or Ctrl+Enter) and reports how many keystrokes
 * and clicks that was. Whether it worked is judged by what the demo server recorded.
 */
import * as vscode from 'vscode';
import { acceptDefaults } from './control';
import { waitUntil } from './wait';
import type { ExtensionUnderTest } from './extension';

export interface InteractionRun {
  readonly method: 'click' | 'ctrlEnter';
  readonly actions: number;
  /** Ctrl+Enter only: form visible → its document has keyboard focus, ms (page clock). */
  readonly focusDelayMs: number | undefined;
  /** The demo tool's own summary of what it received (its text result). */
  readonly toolText: string;
}

export async function measureInteractions(ext: ExtensionUnderTest, server: string): Promise<InteractionRun[]> {
  const runs: InteractionRun[] = [];
  for (const method of ['click', 'ctrlEnter'] as const) {
    const call = Promise.resolve(vscode.commands.executeCommand('mcpElicitation.runTool', server, 'everything', {}));
    call.catch(() => undefined);
    const { actions, focusDelayMs } = await acceptDefaults(method);
    const result = (await call) as { content?: { text?: string }[] };
    runs.push({ method, actions, focusDelayMs, toolText: result.content?.[0]?.text ?? '' });
    await waitUntil(() => ext.idle(), 'the queue to empty after the form', 15_000);
  }
  return runs;
}
