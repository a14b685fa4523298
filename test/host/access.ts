import * as vscode from 'vscode';
import type { TestServices } from './testServices';

export const EXTENSION_ID = 'mcp-elicitation.mcp-elicitation-host';

/**
 * Registered by the test build only (test/host/extension.ts): returns its TestServices. A
 * command run in the extension host that registered it hands back the very object.
 */
export const TEST_SERVICES_COMMAND = 'mcpElicitationTest.services';

/**
 * The services of the extension in this host, activating it first. Only the test build has a
 * way in; the extension's own entry returns the public API alone.
 */
export async function testServices(): Promise<TestServices> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} not found`);
  await ext.activate();
  const all = await vscode.commands.getCommands(true);
  if (!all.includes(TEST_SERVICES_COMMAND)) {
    throw new Error(
      `the extension in this host is not its test build: load out/testExtension (built by scripts/build.mjs) as the development extension`,
    );
  }
  const s = await vscode.commands.executeCommand<TestServices | undefined>(TEST_SERVICES_COMMAND);
  if (!s) throw new Error(`${TEST_SERVICES_COMMAND} returned nothing`);
  return s;
}
