// The extension as the in-host tests and the benchmark load it: the same activation as
// src/extension.ts, but over TestServices (shorter timings, observers, interceptors), and with
// one more command through which the suite reaches them. scripts/build.mjs builds it into
// dist/extension.test.js, and out/testExtension/ is the extension folder whose manifest points
// at it; the package never contains either, and the extension's own entry knows nothing of them.
import * as vscode from 'vscode';
import { boot } from '../../src/boot';
import { publicSurface } from '../../src/api/publicSurface';
import type { McpElicitationHostApi } from '../../api/mcpElicitationHost';
import { TestServices } from './testServices';
import { TEST_SERVICES_COMMAND } from './access';

let services: TestServices | undefined;

export function activate(context: vscode.ExtensionContext): McpElicitationHostApi {
  const booted = boot(() => new TestServices(context));
  const s = (services = booted.services);
  s.hooks.activationMs = booted.activationMs;
  s.adopt([vscode.commands.registerCommand(TEST_SERVICES_COMMAND, () => s)]);
  // Other extensions in the host get what they get from the real entry.
  return publicSurface(s.api);
}

export async function deactivate(): Promise<void> {
  const s = services;
  services = undefined;
  await s?.shutdown();
}
