/**
 * What the two agent suites share: a fixture extension installed beside ours, the 2026-07-28-only
 * demo server in our setting, and the check that VS Code never answered a question itself.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../../scripts/hostPaths.mjs';

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
