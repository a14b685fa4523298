import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { formFrame, openWorkbench, pickItem, quickInput, runCommand, screenshot, waitForRecord, waitForServers, type Workbench } from './workbench';

/**
 * The workspace's `.vscode/settings.json`, as the policy actions wrote it. VS Code truncates
 * before it writes, so a read can catch the file empty: try again.
 */
async function workspaceSettings(wb: Workbench): Promise<Record<string, unknown>> {
  for (let i = 0; ; i++) {
    try {
      return JSON.parse(readFileSync(path.join(wb.workspace, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    } catch (e) {
      if (i > 50) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function waitForPolicy(wb: Workbench, server: string, policy: string): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const p = (await workspaceSettings(wb))['mcpElicitation.serverPolicy'] as Record<string, unknown> | undefined;
    if (p?.[server] === policy) return;
    if (Date.now() - t0 > 20_000) throw new Error(`workspace settings never set ${server} to ${policy}: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A notification with `text`, in the notification center. The smoke-test driver (which our harness
 * needs for the workbench `payload`) turns toasts off, so every notification lands only there.
 */
async function notification(page: Page, text: string) {
  const center = page.locator('.notifications-center');
  // The center element exists only once it was opened.
  if (!(await page.evaluate(() => document.querySelector('.notifications-center')?.classList.contains('visible') ?? false))) {
    await page.locator('.statusbar-item[id="status.notifications"]').click();
  }
  const item = center.locator('.notification-list-item', { hasText: text }).first();
  await item.waitFor({ timeout: 20_000 });
  return item;
}

async function hideNotifications(page: Page): Promise<void> {
  if (await page.evaluate(() => document.querySelector('.notifications-center')?.classList.contains('visible') ?? false)) {
    await page.locator('.statusbar-item[id="status.notifications"]').click();
  }
}

/**
 * A tool's result opens in an editor and takes focus; wait for that, so it cannot close the
 * next palette mid-command. Each test runs a different tool, so the tab name tells them apart.
 */
async function resultShown(page: Page, tool: string): Promise<void> {
  await page.locator('.tab.active', { hasText: `demo-${tool}.md` }).waitFor();
  await page.locator('.editor-instance .monaco-editor.focused').waitFor();
}

async function runDemoTool(page: Page, title: string): Promise<void> {
  try {
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await pickItem(page, 'demo');
    await pickItem(page, title);
  } catch (e) {
    // What stole the palette (a late result editor, a dialog) is only visible on screen.
    await screenshot(page, `pending-failed-${title.replace(/\W/g, '')}`);
    throw e;
  }
}

describe('Policy and pending elicitations in the workbench', () => {
  let wb: Workbench;
  before(async () => {
    wb = await openWorkbench({ workspaceSettings: { 'mcpElicitation.serverPolicy': { demo: 'ask' } } });
    await waitForServers(wb.page, 2);
  });
  after(async () => {
    await wb?.close();
  });

  it('ask policy: a notification first, nothing takes focus until Answer, then the InputBox', async () => {
    const { page } = wb;
    await runDemoTool(page, 'Ask for a name');
    const item = await notification(page, 'demo wants your input: What should I call you?');
    // The question waits in the notification; no quick input was opened for it.
    // The Run Tool picker fades out after its last Enter (slowly on a loaded machine); once it is
    // gone, nothing may take its place until Answer.
    await quickInput(page).waitFor({ state: 'hidden', timeout: 10_000 });
    assert.equal(await quickInput(page).isVisible(), false, 'no quick input before Answer');
    await screenshot(page, 'ask-notification-dark');
    await item.getByRole('button', { name: 'Answer' }).click();
    const qi = quickInput(page);
    await qi.getByText('What should I call you?').waitFor();
    await page.keyboard.type('Grace Hopper');
    await page.keyboard.press('Enter');
    const recs = await waitForRecord(wb, 'ask_name');
    assert.deepEqual(recs[0]?.result, { action: 'accept', content: { name: 'Grace Hopper' } });
    await resultShown(page, 'ask_name');
  });

  it('the Servers view context menu sets the policy in workspace settings', async () => {
    const { page } = wb;
    await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    const view = page.locator('.pane', { hasText: 'MCP Servers' });
    const row = view.locator('.monaco-list-row', { hasText: 'demo' }).first();
    await row.click({ button: 'right' });
    const menu = page.locator('.context-view .monaco-menu');
    await menu.waitFor();
    // Ask is the current policy, so the menu offers the other two.
    assert.equal(await menu.getByText('Ask Before Showing Elicitations from Server').count(), 0);
    await menu.getByText('Block Elicitations from Server').waitFor();
    await menu.getByText('Allow Elicitations from Server').click();
    await waitForPolicy(wb, 'demo', 'allow');
    await notification(page, '“demo” is now set to allow in workspace settings.');
  });

  it('"Block this server" on the InputBox title bar writes workspace settings and says so', async () => {
    const { page } = wb;
    await hideNotifications(page);
    await runDemoTool(page, 'Pick a number');
    const qi = quickInput(page);
    await qi.getByText('How many seats should I reserve?').waitFor();
    await qi.getByRole('button', { name: 'Block this server' }).click();
    const [rec] = await waitForRecord(wb, 'pick_number');
    assert.deepEqual(rec?.result, { action: 'decline' });
    await resultShown(page, 'pick_number');
    await waitForPolicy(wb, 'demo', 'block');
    await notification(page, '“demo” is now set to block in workspace settings.');
  });

  it('blocked: declined without a prompt, one notice per session, Unblock allows again', async () => {
    const { page } = wb;
    await hideNotifications(page);
    for (const [tool, title] of [['confirm_deploy', 'Confirm a deployment'], ['choose_region', 'Choose a region']] as const) {
      await runDemoTool(page, title);
      const [rec] = await waitForRecord(wb, tool);
      assert.deepEqual(rec?.result, { action: 'decline' });
      await resultShown(page, tool);
    }
    assert.equal(await quickInput(page).isVisible(), false, 'nothing was shown');
    const notice = await notification(page, 'Declined a request from “demo”: the server is blocked.');
    assert.equal(await page.locator('.notifications-center .notification-list-item', { hasText: 'the server is blocked' }).count(), 1, 'one notice for two blocked requests');
    await notice.getByRole('button', { name: 'Unblock' }).click();
    await waitForPolicy(wb, 'demo', 'allow');
  });

  it('Show Pending lists three queued requests with their states; the tree view too; Decline All answers them', async () => {
    const { page } = wb;
    await hideNotifications(page);
    // Webview forms: opening the palette would close a quick-input prompt (and so cancel it),
    // while a form tab stays open behind it.
    const settingsFile = path.join(wb.workspace, '.vscode', 'settings.json');
    writeFileSync(settingsFile, JSON.stringify({ ...(await workspaceSettings(wb)), 'mcpElicitation.presentation': 'webview' }, null, 2));
    const form = formFrame(page);
    // The settings file is picked up by a watcher: until it is, the arguments come as an InputBox.
    for (let attempt = 1; ; attempt++) {
      await runDemoTool(page, 'Burst of questions');
      const shown = await Promise.race([
        form.getByRole('button', { name: 'Accept', exact: true }).waitFor({ timeout: 20_000 }).then(() => 'webview'),
        quickInput(page).locator('.quick-input-title', { hasText: 'Run Tool: burst' }).waitFor({ timeout: 20_000 }).then(() => 'quickInput'),
      ]);
      if (shown === 'webview') break;
      assert.ok(attempt < 20, 'presentation setting never applied');
      await page.keyboard.press('Escape');
      await page.waitForTimeout(250);
    }
    await form.getByLabel('count', { exact: true }).fill('3');
    await form.getByRole('button', { name: 'Accept', exact: true }).click();
    await form.getByText('Question 1 of 3: keep going?').waitFor();
    const pendingItem = page.locator('[id$="mcpElicitation.pending"]');
    await pendingItem.filter({ hasText: '3' }).waitFor();

    await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
    const qi = quickInput(page);
    await qi.locator('.quick-input-title', { hasText: 'Pending Elicitations' }).waitFor();
    const rows = qi.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: 'Question 3 of 3' }).waitFor();
    // innerText: rows are recycled from earlier pickers and keep hidden text from them.
    const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.equal(texts.length, 4, JSON.stringify(texts));
    for (const [i, state] of ['on screen', 'queued', 'queued'].entries()) {
      assert.match(texts[i] ?? '', new RegExp(`^demo: Question ${i + 1} of 3: keep going\\? ?form · ${state} · \\d+ s$`));
    }
    assert.match(texts[3] ?? '', /Decline All from demo$/);
    await screenshot(page, 'pending-quickpick-dark');
    // No Escape here: with the form's iframe just behind the picker, a key press can land in the
    // form and cancel the question. Clicking the tree below closes the picker (it loses focus).

    const tree = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Pending Elicitations' }) });
    // The activity bar icon toggles: click it only if the container is not showing already.
    if (!(await tree.isVisible())) await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    await tree.locator('.monaco-list-row', { hasText: 'Question 3 of 3' }).waitFor();
    await tree.locator('.monaco-list-row', { hasText: 'History' }).click();
    await tree.locator('.monaco-list-row', { hasText: 'What should I call you?' }).first().waitFor();
    await tree.locator('.monaco-list-row', { hasText: 'Question 1 of 3' }).hover();
    await screenshot(page, 'pending-tree-dark');

    // The status bar item runs Show Pending too.
    await pendingItem.click();
    await qi.locator('.quick-input-title', { hasText: 'Pending Elicitations' }).waitFor();
    await pickItem(page, 'Decline All from demo');
    const [burst] = await waitForRecord(wb, 'burst');
    const results = (burst?.result.content?.['results'] ?? []) as { action: string }[];
    assert.deepEqual(results.map((r) => r.action), ['decline', 'decline', 'decline']);
    await pendingItem.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
  });
});
