import type * as vscode from 'vscode';
import { Services } from './context';
import { registerCommands } from './commands/commands';
import type { McpElicitationHostApi } from '../api/mcpElicitationHost';

let services: Services | undefined;

/** Builds the composition root and returns the public API. Servers start after activation returns. */
export function activate(context: vscode.ExtensionContext): McpElicitationHostApi & { readonly __testing?: Services } {
  const t0 = performance.now();
  services = new Services(context);
  // The command table is registered against the services, not by them: commands sit above the
  // composition root in the layering.
  services.adopt(registerCommands(services));
  services.hooks.activationMs = performance.now() - t0;
  services.log.info(`activated in ${services.hooks.activationMs.toFixed(1)} ms`);
  setTimeout(() => services?.start(), 0);
  const api = services.api;
  // In-host tests and the benchmark reach the internals; nothing else sees them.
  if (process.env['MCP_TEST_REPO_ROOT']) return Object.assign(Object.create(api) as McpElicitationHostApi, { __testing: services, version: 1 as const });
  return api;
}

/** Every open request is answered `cancel`, every connection closed, no child process left behind. */
export async function deactivate(): Promise<void> {
  const s = services;
  services = undefined;
  await s?.shutdown();
}
