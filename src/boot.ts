import { registerCommands } from './commands/commands';
import type { Services } from './context';

/**
 * What `activate()` does with the services once they are built: registers the command table
 * against them, logs how long activation took, and starts the configured servers after
 * activation returns, so activation stays cheap. The extension's entry builds plain `Services`;
 * the in-host tests' entry (test/host/extension.ts) builds its own with injected timings and
 * observers, and both activate the same way.
 */
export function boot<S extends Services>(build: () => S): { readonly services: S; readonly activationMs: number } {
  const t0 = performance.now();
  const services = build();
  // The command table is registered against the services, not by them: commands sit above the
  // composition root in the layering.
  services.adopt(registerCommands(services));
  const activationMs = performance.now() - t0;
  services.log.info(`activated in ${activationMs.toFixed(1)} ms`);
  const start = setTimeout(() => services.start(), 0);
  // Deactivated before the first turn of the event loop: nothing starts.
  services.adopt([{ dispose: () => clearTimeout(start) }]);
  return { services, activationMs };
}
