/**
 * Cold activation: what `activate()` measured around building its services when this extension
 * host started the extension, one figure per extension host. The harness starts a fresh
 * code-server (and so a fresh extension host) for every figure and takes the median over them.
 *
 * There is no warm figure. Calling `deactivate()` and then `activate()` again on the same
 * ExtensionContext is not something VS Code does: the second instance gets a context whose
 * subscriptions were disposed, and its log channel races the disposal of the first one's (VS Code
 * names both after the extension and the channel name), which failed 2 runs in 5 with "Channel
 * has been closed" (issue 27). A fresh host per figure is the only sound re-activation.
 */
import type { ExtensionUnderTest } from './extension';

export interface ActivationResult {
  /** The extension's own figure for the activation this host did (see ExtensionUnderTest.activationMs). */
  readonly coldMs: number;
}

export function measureActivation(ext: ExtensionUnderTest): ActivationResult {
  const coldMs = ext.activationMs;
  if (coldMs === undefined || !Number.isFinite(coldMs)) {
    throw new Error(`the extension reported no activation time (activationMs: ${String(coldMs)})`);
  }
  return { coldMs };
}
