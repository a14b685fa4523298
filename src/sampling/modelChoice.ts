/**
 * Which language model answers a server's sample. The spec leaves the choice to the client and
 * makes the server's `modelPreferences` advisory. A server never chooses a model the user did not
 * choose for it: its preferences only pick among the models the user chose for that server (in
 * an earlier consent), or, before any such choice, get the default model (the first VS Code
 * lists). A request hinting `premium` therefore never reaches a premium model the user has not
 * picked for that server. Within the user's models, our order is:
 * 1. the first hint that names a substring of a model's id, name or family (the spec's hints);
 * 2. the priorities: cost or speed ahead of intelligence picks the smallest model, intelligence
 *    ahead picks the largest (size: the model's input window, the one measure every provider gives);
 * 3. the model the user chose last for this server.
 * Only models that can answer take part (`usableModels`): VS Code's chat extension registers
 * placeholder models such as Copilot CLI's "Auto" (`maxInputTokens` 0), which reply with nothing.
 */
import type { ModelPreferences } from './samplingRequest';

/** A model as `vscode.lm` describes it, without the `vscode` types. */
export interface ModelInfo {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly vendor: string;
  readonly maxInputTokens: number;
}

export type ChoiceReason = 'remembered' | 'hint' | 'priorities' | 'default';

export interface ModelChoice {
  readonly model: ModelInfo;
  readonly reason: ChoiceReason;
  /** The hint that matched, for `hint`. */
  readonly hint?: string;
}

/**
 * The models that can take a request at all. A model with no input window (`maxInputTokens` 0, or
 * not a positive number) is a placeholder that routes elsewhere or answers empty; offering it would
 * let it win a priorities choice (smallest window) or the default over a real model.
 */
export function usableModels(models: readonly ModelInfo[]): readonly ModelInfo[] {
  return models.filter((m) => Number.isFinite(m.maxInputTokens) && m.maxInputTokens > 0);
}

/**
 * `chosen`: the ids the user chose for this server, the latest first. Undefined when no model is
 * available.
 */
export function chooseModel(models: readonly ModelInfo[], chosen: readonly string[], prefs: ModelPreferences): ModelChoice | undefined {
  const first = models[0];
  if (!first) return undefined;
  const mine = chosen.flatMap((id) => models.filter((m) => m.id === id));
  const pool = mine.length > 0 ? mine : [first];
  for (const hint of prefs.hints) {
    const h = hint.toLowerCase();
    const hit = pool.find((m) => [m.id, m.name, m.family].some((s) => s.toLowerCase().includes(h)));
    if (hit) return { model: hit, reason: 'hint', hint };
  }
  const thrift = Math.max(prefs.costPriority ?? 0, prefs.speedPriority ?? 0);
  const brains = prefs.intelligencePriority ?? 0;
  if (pool.length > 1 && thrift !== brains) {
    const bySize = [...pool].sort((a, b) => a.maxInputTokens - b.maxInputTokens);
    const model = (thrift > brains ? bySize[0] : bySize[bySize.length - 1]) ?? first;
    return { model, reason: 'priorities' };
  }
  const latest = mine[0];
  return latest ? { model: latest, reason: 'remembered' } : { model: first, reason: 'default' };
}
