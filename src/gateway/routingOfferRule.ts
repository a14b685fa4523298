/**
 * When to offer, once per workspace, to bring the questions of VS Code's servers here (issue 26,
 * item 2). The offer routes with the per-user Route (routes.ts): no file changes, so it is a
 * choice for this user in this workspace, and it is remembered where routes are, in our
 * workspaceState. Pure, no `vscode` import; ui/routingOffer.ts shows it.
 */
import { routeOf, type RoutableDef } from './routes';

/** What the user answered; closing the notification unanswered is no answer (asked again next window). */
export type OfferAnswer = 'routeAll' | 'choose' | 'never';

const ANSWERS: readonly string[] = ['routeAll', 'choose', 'never'] satisfies readonly OfferAnswer[];

/** What workspaceState holds, checked: anything else is no answer, so the offer comes again. */
export function parseOfferAnswer(value: unknown): OfferAnswer | undefined {
  return typeof value === 'string' && ANSWERS.includes(value) ? (value as OfferAnswer) : undefined;
}

/** The servers the offer is about: those VS Code runs that Route can bring here, in name order. */
export function offerable<D extends RoutableDef>(vscodeOwned: readonly D[]): D[] {
  return vscodeOwned.filter((d) => routeOf(d) !== undefined).sort((a, b) => a.name.localeCompare(b.name));
}

export interface OfferConditions {
  /** `mcpElicitation.offerRouting`. */
  readonly enabled: boolean;
  /** An untrusted workspace runs none of its servers here: nothing to offer. */
  readonly trusted: boolean;
  /** VS Code's chat runs the servers of the files it reads; with AI features off or `chat.mcp.access: "registry"` we run them all ourselves. */
  readonly agentOn: boolean;
  /** Answered in this workspace before (workspaceState). */
  readonly answered: OfferAnswer | undefined;
  /** Shown in this window already: closed unanswered, it waits for the next window. */
  readonly shownThisWindow: boolean;
  /** How many servers the offer would list ({@link offerable}). */
  readonly routable: number;
}

export function shouldOffer(c: OfferConditions): boolean {
  return c.enabled && c.trusted && c.agentOn && c.answered === undefined && !c.shownThisWindow && c.routable > 0;
}

/** The names a notification lists: the first `max`, and how many more there are. */
export function listedNames(names: readonly string[], max = 3): { readonly shown: readonly string[]; readonly more: number } {
  return { shown: names.slice(0, max), more: Math.max(0, names.length - max) };
}
