/**
 * The model the user chose for each server (issue 41): kept in the workspace's state with where
 * the server was when they chose it (`destination()`, serverFingerprint.ts), and offered again only
 * while the server of that name is still there. Pure; no `vscode`: the state is a two-method interface.
 */
import type { ModelMemory } from './samplingBroker';

/** The part of VS Code's `Memento` this needs. */
export interface ModelStateLike {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Where the choices live; the earlier keys, by name alone, are never read. */
export const MODEL_MEMORY_KEY = 'mcpElicitation.samplingModels.v3';

/** Most models remembered per server: the ones a user actually switches between. */
const MAX_CHOSEN = 8;

interface Choices {
  readonly models: readonly string[];
  readonly destination: string;
}

function isChoices(v: unknown): v is Choices {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Choices;
  return typeof c.destination === 'string' && Array.isArray(c.models) && c.models.every((m) => typeof m === 'string');
}

/**
 * The models the user accepted for each server, the latest first, offered only while the server
 * of that name is where it was when they were chosen. `destinationOf`: where the server of that
 * name is now (undefined: nothing is kept or offered for it).
 */
export function destinationModelMemory(state: ModelStateLike, destinationOf: (server: string) => string | undefined): ModelMemory {
  const all = (): Record<string, unknown> => {
    const v = state.get(MODEL_MEMORY_KEY);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  };
  const chosen = (server: string): readonly string[] => {
    const entry = Object.hasOwn(all(), server) ? all()[server] : undefined;
    const here = destinationOf(server);
    return isChoices(entry) && here !== undefined && entry.destination === here ? entry.models : [];
  };
  return {
    chosen,
    choose: (server, model) => {
      const destination = destinationOf(server);
      if (destination === undefined) return;
      const models = [model, ...chosen(server).filter((m) => m !== model)].slice(0, MAX_CHOSEN);
      // Defined, not assigned: a server named "__proto__" stays an ordinary key.
      const next = { ...all() };
      Object.defineProperty(next, server, {
        value: { models, destination } satisfies Choices,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      void state.update(MODEL_MEMORY_KEY, next);
    },
  };
}
