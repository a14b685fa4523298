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

/** Where the choices live; the earlier key, by name alone, is never read. */
export const MODEL_MEMORY_KEY = 'mcpElicitation.samplingModels.v2';

interface Choice {
  readonly model: string;
  readonly destination: string;
}

function isChoice(v: unknown): v is Choice {
  return typeof v === 'object' && v !== null && typeof (v as Choice).model === 'string' && typeof (v as Choice).destination === 'string';
}

/** `destinationOf`: where the server of that name is now (undefined: nothing is kept or offered for it). */
export function destinationModelMemory(state: ModelStateLike, destinationOf: (server: string) => string | undefined): ModelMemory {
  const all = (): Record<string, unknown> => {
    const v = state.get(MODEL_MEMORY_KEY);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  };
  return {
    get: (server) => {
      const choice = Object.hasOwn(all(), server) ? all()[server] : undefined;
      const here = destinationOf(server);
      return isChoice(choice) && here !== undefined && choice.destination === here ? choice.model : undefined;
    },
    set: (server, model) => {
      const destination = destinationOf(server);
      if (destination === undefined) return;
      // Defined, not assigned: a server named "__proto__" stays an ordinary key.
      const next = { ...all() };
      Object.defineProperty(next, server, {
        value: { model, destination } satisfies Choice,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      void state.update(MODEL_MEMORY_KEY, next);
    },
  };
}
