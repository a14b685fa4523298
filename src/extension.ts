import type * as vscode from 'vscode';
import { Services } from './context';
import { boot } from './boot';
import { publicSurface } from './api/publicSurface';
import type { McpElicitationHostApi } from '../api/mcpElicitationHost';

let services: Services | undefined;

/**
 * Builds the composition root and returns the public API, and only that: other extensions get
 * the same object whatever the environment says. Servers start after activation returns.
 */
export function activate(context: vscode.ExtensionContext): McpElicitationHostApi {
  services = boot(() => new Services(context)).services;
  return publicSurface(services.api);
}

/** Every open request is answered `cancel`, every connection closed, no child process left behind. */
export async function deactivate(): Promise<void> {
  const s = services;
  services = undefined;
  await s?.shutdown();
}
