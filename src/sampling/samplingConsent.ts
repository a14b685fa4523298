/**
 * Whether a server's sample needs the user's consent and review. Sampling has its own consent: no
 * elicitation policy (`serverPolicy: allow`, `defaultPolicy`) implies that a server's messages may
 * go to a model, because an elicitation policy is about showing questions, and is often written by
 * a workspace (a teammate's committed click). Skipping the review is a separate choice the user
 * makes for themselves, in their own settings: `mcpElicitation.sampling.skipReview`, read from the
 * user (global) value only, never from a workspace or folder file.
 */
import type { GateDecision } from '../elicitation/policy/policy';

/**
 * `refuse`: blocked or rate-limited, nothing shown. `send`: straight to the model (the user chose
 * to skip the review for this server). `ask`: the permission notification, then the consent.
 * `consent`: the consent form, then the review.
 */
export type SamplingPath = 'refuse' | 'send' | 'ask' | 'consent';

/** `userSkipReview`: the setting's user (global) value as VS Code reports it; anything else is ignored. */
export function samplingPath(gate: GateDecision['outcome'], server: string, userSkipReview: unknown): SamplingPath {
  if (gate === 'decline') return 'refuse';
  if (skipsReview(server, userSkipReview)) return 'send';
  return gate === 'ask' ? 'ask' : 'consent';
}

/** True only for `{ "<server>": true }` in the user's own value. */
export function skipsReview(server: string, userSkipReview: unknown): boolean {
  if (typeof userSkipReview !== 'object' || userSkipReview === null || Array.isArray(userSkipReview)) return false;
  return Object.hasOwn(userSkipReview, server) && (userSkipReview as Record<string, unknown>)[server] === true;
}
