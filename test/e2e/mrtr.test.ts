/**
 * A server that speaks only MCP 2026-07-28 (the demo's `demo-modern`), answered through the real
 * UI: its tools ask through `input_required`, and the user sees the same widgets and the same url
 * consent dialog as for a 2025 server. Outcomes are asserted on what the server recorded.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import {
  openWorkbench,
  pickItem,
  quickInput,
  readQuestion,
  runCommand,
  screenshot,
  screenshotIfFailed,
  waitForRecord,
  waitForServers,
  type Workbench,
} from './workbench';

async function openDialog(page: Page, title: RegExp): Promise<Locator> {
  const box = page.locator('.monaco-dialog-box').filter({ has: page.locator('.dialog-message-text', { hasText: title }) });
  await box.waitFor({ timeout: 30_000 });
  return box;
}

async function click(box: Locator, button: string): Promise<void> {
  await box.getByRole('button', { name: button, exact: true }).click();
  await box.waitFor({ state: 'hidden' });
}

describe('Workbench: a server that speaks only MCP 2026-07-28', () => {
  let wb: Workbench;
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-e2e-mrtr-'));
  const recorded = (tool: string): ReturnType<typeof waitForRecord> => waitForRecord({ ...wb, recordDir }, tool);
  before(async () => {
    wb = await openWorkbench({
      servers: {
        'demo-modern': {
          command: 'node',
          args: [path.join(repoRoot, 'demo', 'servers', 'demoModernServer.mjs')],
          env: { DEMO_RECORD: path.join(recordDir, 'demo.jsonl') },
        },
      },
    });
    // Stand-in for the sign-in site: the browser really navigates, and records the exact URL.
    await wb.page.context().route(
      (u) => u.hostname.endsWith('example.com'),
      (route) => route.fulfill({ contentType: 'text/html', body: '<title>sign-in stand-in</title>' }),
    );
    await waitForServers(wb.page, 1);
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async (t) => {
    await screenshotIfFailed(wb.page, 'mrtr', t);
  });

  async function runTool(tool: string): Promise<void> {
    await runCommand(wb.page, 'MCP Elicitation: Run Tool…');
    await pickItem(wb.page, tool);
  }

  it('the Servers view shows the negotiated revision', async () => {
    const { page } = wb;
    await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    await page
      .locator('.monaco-list-row', { hasText: 'demo-modern' })
      .filter({ hasText: 'MCP 2026-07-28' })
      .first()
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'mrtr-servers-view');
  });

  it('a form asked through input_required, asked again until the answer satisfies the server', async () => {
    const { page } = wb;
    await runTool('guess_even');
    const qi = quickInput(page);
    await qi.locator('.quick-input-titlebar', { hasText: 'MCP server “demo-modern” asks' }).waitFor();
    await qi.getByText('Pick an even number').first().waitFor();
    await readQuestion(page);
    await screenshot(page, 'mrtr-form-round-1');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await qi.getByText('3 is odd; pick an even number').first().waitFor();
    // The server asks again: a question of its own, read before it is answered.
    await readQuestion(page);
    await screenshot(page, 'mrtr-form-round-2');
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    await page.locator('.editor-instance .view-lines', { hasText: '4 is even' }).first().waitFor({ timeout: 30_000 });
    assert.deepEqual((await recorded('guess_even'))[0]?.result, { action: 'accept', content: { n: 4 } });
    await runCommand(page, 'View: Close All Editors');
  });

  it('url mode: the same consent dialog; the server checks on the retry; the pending list offers Retry now and Cancel, and Retry now retries', async () => {
    const { page } = wb;
    const since = wb.popups.length;
    await runTool('connect_account');
    const box = await openDialog(page, /in your browser\?/);
    assert.match(await box.locator('.dialog-message-detail').innerText(), /https:\/\/example\.com\/connect\?client=demo/);
    await screenshot(page, 'mrtr-url-consent');
    await click(box, 'Open in Browser');
    // VS Code's own link protection asks once more for an untrusted domain.
    await click(await openDialog(page, /open the external website/), 'Open');
    const t0 = Date.now();
    while (!wb.popups.slice(since).includes('https://example.com/connect?client=demo')) {
      if (Date.now() - t0 > 20_000) throw new Error(`no page opened; opened: ${JSON.stringify(wb.popups.slice(since))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const p of page.context().pages()) if (p !== page) await p.close();
    await page.bringToFront();
    // The server answered the retry by asking for the same page again: the call waits on the
    // browser step in the pending list, without a second consent.
    await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'demo-modern' }).filter({ hasText: 'awaiting completion' });
    await row.waitFor({ timeout: 30_000 });
    await screenshot(page, 'mrtr-url-waiting');
    await row.hover();
    // The spec's manual controls, not the 2025 completion labels.
    assert.equal(await row.locator('.action-label[aria-label="Cancel"]').count(), 1);
    assert.equal(await row.locator('.action-label[aria-label="Mark as Done"]').count(), 0);
    await row.locator('.action-label[aria-label="Retry now"]').click();
    await page.locator('.editor-instance .view-lines', { hasText: 'Account connected.' }).first().waitFor({ timeout: 30_000 });
    assert.deepEqual((await recorded('connect_account'))[0]?.result, { action: 'accept' });
  });
});
