/**
 * Activation time. Cold: what the test build's `activate()` measured around building its services when the host
 * started the extension (one figure per code-server start). Warm: the same `activate()` called
 * again in this host after `deactivate()`, on the same ExtensionContext, `reps` times. Warm runs
 * do the same work (every service, view, command and watcher is built again) but with modules
 * loaded and code already compiled, so they show the steady cost, and cold shows the first one.
 */
import * as vscode from 'vscode';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TestServices } from '../../test/host/testServices';
import { testServices } from '../../test/host/access';
import { waitUntil } from './wait';

/** The test build of the extension (test/host/extension.ts), as the host loaded it. */
interface ExtensionModule {
  activate(context: vscode.ExtensionContext): unknown;
  deactivate(): Promise<void>;
}

export interface ActivationResult {
  /** hooks.activationMs of the activation the host did itself. */
  readonly coldMs: number | undefined;
  /** activate() measured by the extension itself, per warm repetition. */
  readonly warmMs: number[];
  /** activate() measured from outside (includes building the API object), per warm repetition. */
  readonly warmOuterMs: number[];
  readonly warmNote?: string;
}

export async function measureActivation(s: TestServices, reps: number, log: (m: string) => void): Promise<ActivationResult> {
  const coldMs = s.hooks.activationMs;
  if (reps <= 0) return { coldMs, warmMs: [], warmOuterMs: [] };
  const main = path.join(s.context.extensionUri.fsPath, (s.context.extension.packageJSON as { main: string }).main);
  // The host loaded the extension with Node's require: the module cache gives this same instance.
  const mod = createRequire(__filename)(main) as ExtensionModule;
  const ctx = s.context;
  await mod.deactivate();
  const still = (await vscode.commands.getCommands(true)).includes('mcpElicitation.runTool');
  if (still) {
    // A second module instance would register every command twice and throw: measure nothing.
    return { coldMs, warmMs: [], warmOuterMs: [], warmNote: 'deactivate() did not reach the running instance; warm activation not measured' };
  }
  const warmMs: number[] = [];
  const warmOuterMs: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    mod.activate(ctx);
    warmOuterMs.push(performance.now() - t0);
    // The services the new activation built, through the test build's own way in.
    const t = await testServices();
    const inner = t.hooks.activationMs;
    if (inner !== undefined) warmMs.push(inner);
    // Let the servers it starts come up, so the next deactivate() tears down a normal session.
    await waitUntil(() => t.manager.list().every((e) => e.connection?.state.kind === 'running'), 'servers running after re-activation', 20_000);
    await mod.deactivate();
  }
  log(`[bench] warm activation: ${warmMs.length} runs`);
  return { coldMs, warmMs, warmOuterMs };
}
