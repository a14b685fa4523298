import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  openWorkbench,
  pickItem,
  quickInput,
  runCommand,
  screenshot,
  waitForRecord,
  waitForServers,
  type Workbench,
  readQuestion,
} from './workbench';

/** The palette's rows for `query`, once it has rendered its answer (a match or "No matching commands"). */
async function paletteRows(page: Page, query: string): Promise<string[]> {
  await page.keyboard.press('F1');
  const input = quickInput(page).locator('input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${query}`);
  const rows = page.locator('.quick-input-list .monaco-list-row');
  await rows.first().waitFor({ state: 'visible', timeout: 20_000 });
  const texts = await rows.allInnerTexts();
  await page.keyboard.press('Escape');
  await quickInput(page).waitFor({ state: 'hidden' });
  return texts;
}

/** Polls the palette until `title` is offered (or not), as context keys update asynchronously. */
async function waitForPalette(page: Page, title: string, offered: boolean): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const rows = await paletteRows(page, title);
    if (rows.some((r) => r.includes(title)) === offered) return;
    if (Date.now() - t0 > 30_000) throw new Error(`palette ${offered ? 'never offered' : 'still offers'} ${title}: ${rows.join(' | ')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const activityBadge = (page: Page) =>
  page.locator('.activitybar .action-item', { has: page.locator('[aria-label^="MCP Elicitation"]') }).locator('.badge .badge-content');

describe('Conventions: palette entries follow the servers, the pending view has a badge', () => {
  let wb: Workbench;
  let mcpJson: string;
  let original: string;
  before(async () => {
    wb = await openWorkbench();
    await waitForServers(wb.page, 2);
    mcpJson = path.join(wb.workspace, '.vscode', 'mcp.json');
    original = readFileSync(mcpJson, 'utf8');
  });
  after(async () => {
    await wb?.close();
  });

  it('the pending view badge counts the question on screen and clears when it is answered', async () => {
    const { page } = wb;
    // The activity bar keeps an empty, hidden badge element.
    assert.equal(await activityBadge(page).isVisible(), false, 'no badge while nothing is pending');
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await pickItem(page, 'demo');
    await pickItem(page, 'Ask for a name');
    await quickInput(page).getByText('What should I call you?').waitFor();
    await activityBadge(page).filter({ hasText: /^1$/ }).waitFor({ state: 'visible', timeout: 20_000 });
    await readQuestion(page);
    await screenshot(page, 'pending-badge-dark');
    await page.keyboard.type('Ada');
    await page.keyboard.press('Enter');
    await waitForRecord(wb, 'ask_name');
    await activityBadge(page).waitFor({ state: 'hidden', timeout: 20_000 });
    // The result opens in an editor and takes focus; let it, so it cannot close the next palette.
    await page.locator('.tab.active', { hasText: 'demo-ask_name.txt' }).waitFor();
    await page.locator('.editor-instance .monaco-editor.focused').waitFor();
  });

  it('Stop All and Restart All are offered in the palette only while a server is configured', async () => {
    const { page } = wb;
    for (const title of ['MCP Elicitation: Stop All Servers', 'MCP Elicitation: Restart All Servers']) {
      await waitForPalette(page, title, true);
    }
    writeFileSync(mcpJson, JSON.stringify({ servers: {} }, null, 2));
    await page.locator('.statusbar-item', { hasText: 'MCP 2/2' }).first().waitFor({ state: 'hidden', timeout: 30_000 });
    for (const title of [
      'MCP Elicitation: Stop All Servers',
      'MCP Elicitation: Restart All Servers',
      'MCP Elicitation: Start All Servers',
    ]) {
      await waitForPalette(page, title, false);
    }
    writeFileSync(mcpJson, original);
    await waitForServers(page, 2);
    await waitForPalette(page, 'MCP Elicitation: Stop All Servers', true);
  });
});
