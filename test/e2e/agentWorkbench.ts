/**
 * What the agent suites share: a fixture extension installed beside ours, the 2026-07-28-only
 * demo server in our setting, and the check that VS Code never answered a question itself.
 */
import * as assert from 'node:assert/strict';
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { runCommand, type WorkbenchOptions } from './workbench';

/**
 * Copies the fixture extension `test/fixtures/<fixture>` into a fresh folder as `<folder>` (the
 * `publisher.name-version` the workbench expects), for `openWorkbench({ alsoInstalled })`.
 */
export function fixtureExtensionDir(fixture: string, folder: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `mcp-eh-e2e-${fixture}-`));
  cpSync(path.join(repoRoot, 'test', 'fixtures', fixture), path.join(dir, folder), { recursive: true });
  return dir;
}

/** `mcpElicitation.servers` with `demo-modern` (speaks only MCP 2026-07-28), recording into `recordDir`. */
export function demoModernServers(recordDir: string): Record<string, unknown> {
  return {
    'demo-modern': {
      command: 'node',
      args: [path.join(repoRoot, 'demo', 'servers', 'demoModernServer.mjs')],
      env: { DEMO_RECORD: path.join(recordDir, 'demo.jsonl') },
    },
  };
}

/** VS Code's own answer to an elicitation: its notification, or a prompt in the chat, with "Respond". */
export async function vscodeElicitationShown(page: Page): Promise<number> {
  return (
    (await page.locator('.notification-toast', { hasText: /Respond/ }).count()) +
    (await page.locator('.notifications-center .notification-list-item', { hasText: /Respond/ }).count()) +
    (await page.locator('.part.auxiliarybar').getByRole('button', { name: 'Respond' }).count())
  );
}

/**
 * Opens the chat in agent mode with the test model (the only one, so VS Code picks it), types the
 * prompt, and waits for VS Code's confirmation before it runs the MCP tool whose title it shows
 * (its confirmation, not an elicitation). Fails at once if the agent says no tool matches.
 */
export async function askAgentInChat(page: Page, prompt: string, toolTitle: string): Promise<Locator> {
  const chat = page.locator('.part.auxiliarybar');
  await page.keyboard.press('Control+Alt+KeyI'); // Chat: Open Chat
  const input = chat.locator('.interactive-input-editor').first();
  await input.waitFor({ timeout: 30_000 });
  await chat.locator('.chat-input-toolbars', { hasText: 'Agent' }).filter({ hasText: 'Tool Caller' }).first().waitFor({ timeout: 60_000 });
  // Copilot's offer to set up more models covers the input; the user closes it.
  const dismissOffer = chat.locator('.chat-input-notification-dismiss');
  if (await dismissOffer.isVisible()) await dismissOffer.click();
  await input.click();
  await page.keyboard.type(prompt);
  await page.keyboard.press('Enter');

  const confirmation = chat.locator('.chat-confirmation-widget, .chat-tool-invocation-part', { hasText: toolTitle }).first();
  const noTool = chat.getByText(/No MCP tool matches the request/);
  await Promise.race([
    confirmation.waitFor({ timeout: 90_000 }),
    noTool.waitFor({ timeout: 90_000 }).then(async () => assert.fail(`the agent did not offer the tool: ${await noTool.innerText()}`)),
  ]);
  return confirmation;
}

/**
 * A workbench for the chat suites: AI features on, `servers` in our setting, started by the user
 * (no autostart), and the test language model (test/fixtures/chatModelExtension) installed.
 */
export function chatWorkbenchOptions(servers: Record<string, unknown>, settings: Record<string, unknown> = {}): WorkbenchOptions {
  return {
    servers: {},
    workspaceSettings: { 'mcpElicitation.servers': servers },
    // The user starts the server from VS Code's MCP list, as they would after installing it.
    settings: { 'chat.disableAIFeatures': false, 'chat.mcp.autostart': 'never', ...settings },
    // On a profile's first start VS Code disables its built-in chat extension until Copilot is
    // set up with a GitHub sign-in, which cannot happen offline. This marks that first-start step
    // as done, so the extension stays enabled, as on a profile that has used chat before.
    applicationStorage: { builtinChatExtensionEnablementMigration: 'true' },
    alsoInstalled: fixtureExtensionDir('chatModelExtension', 'mcp-test.chat-model-0.0.1'),
    viewport: { width: 1440, height: 900 },
  };
}

/**
 * The user starts `server` for the agent: MCP: List Servers → the server → Start Server. Resolves
 * once the server's log, which VS Code shows on start, says its tools are known, and hides it again.
 */
export async function startFromMcpList(page: Page, server: string, timeoutMs = 60_000): Promise<void> {
  await runCommand(page, 'MCP: List Servers');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: server }).first().click();
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Start Server' }).first().click();
  // (An editor: its spaces are non-breaking, which \s matches.)
  await page.locator('.part.panel', { hasText: /Discovered\s\d+\stools/ }).waitFor({ timeout: timeoutMs });
  await page.keyboard.press('Control+j'); // hides the panel again
}
