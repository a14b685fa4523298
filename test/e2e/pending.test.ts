import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  demoRecords,
  formFrame,
  hideNotifications,
  notification,
  openWorkbench,
  pickItem,
  quickInput,
  readQuestion,
  runCommand,
  screenshot,
  waitForRecord,
  waitForServers,
  type Workbench,
} from './workbench';
import { reportFailure, settle, watchWorkbench } from './settle';

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

/** Waits until the workspace settings hold no policy for `server` (Unblock removes the block; it writes no `allow`). */
async function waitForNoPolicy(wb: Workbench, server: string): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const p = (await workspaceSettings(wb))['mcpElicitation.serverPolicy'] as Record<string, unknown> | undefined;
    if (p === undefined || !Object.hasOwn(p, server)) return;
    if (Date.now() - t0 > 20_000) throw new Error(`workspace settings still set ${server}: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A tool's result opens in an editor and takes focus; wait for that, so it cannot close the
 * next palette mid-command. The tab name tells tools apart; the same tool's earlier result must
 * be closed first (freshEditors).
 */
async function resultShown(page: Page, tool: string): Promise<void> {
  await page.locator('.tab.active', { hasText: `demo-${tool}.txt` }).waitFor();
  await page.locator('.editor-instance .monaco-editor.focused').waitFor();
}

/** Closes every editor, so that the next result of a tool opens in a fresh tab. */
async function freshEditors(page: Page): Promise<void> {
  await runCommand(page, 'View: Close All Editors');
  await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached' });
}

async function runDemoTool(page: Page, title: string): Promise<void> {
  await runCommand(page, 'MCP Elicitation: Run Tool…');
  await pickItem(page, 'demo');
  await pickItem(page, title);
}

/** The rows of the open Show Pending list, as one line of text each. */
async function pendingRows(page: Page): Promise<string[]> {
  const qi = quickInput(page);
  await qi.locator('.quick-input-title', { hasText: 'Pending Elicitations' }).waitFor();
  // innerText: rows are recycled from earlier pickers and keep hidden text from them.
  return (await qi.locator('.quick-input-list .monaco-list-row').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
}

const pendingStatus = (page: Page) => page.locator('[id$="mcpElicitation.pending"]');

/** Run Tool → fixture → `tool`, picked by its exact name (tool names share prefixes: elicit, elicitMany). */
async function runFixtureTool(page: Page, tool: string): Promise<void> {
  await runCommand(page, 'MCP Elicitation: Run Tool…');
  await pickItem(page, 'fixture');
  await quickInput(page).locator('input').fill(tool);
  await page
    .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${tool}$`) }) })
    .first()
    .click();
}

/**
 * Runs the fixture's `waitForFile` through quick input; it returns once the test writes the file
 * it names (in the record folder), so the test decides when its result arrives. Returns the path.
 */
async function runHeldTool(wb: Workbench, name: string): Promise<string> {
  const gate = path.join(wb.recordDir, name);
  await runFixtureTool(wb.page, 'waitForFile');
  await quickInput(wb.page).locator('.quick-input-title', { hasText: 'Run Tool: waitForFile' }).waitFor();
  await wb.page.keyboard.type(gate);
  await wb.page.keyboard.press('Enter');
  return gate;
}

/** Lets a held `waitForFile` return (see runHeldTool) and waits until its result has a tab. */
async function releaseHeldTool(page: Page, gate: string): Promise<void> {
  writeFileSync(gate, '');
  await page.locator('.tab', { hasText: 'fixture-waitForFile.txt' }).waitFor();
}

/** Whether the keyboard is in the quick input (a question or a picker), not in an editor. */
const quickInputHasKeyboard = (page: Page): Promise<boolean> => page.evaluate('!!document.activeElement?.closest(".quick-input-widget")');

/** The fixture's record of the answer to the `elicit` call tagged `tag` (test/fixtures/fixtureServer.mjs). */
async function waitForFixtureRecord(wb: Workbench, tag: string): Promise<{ response?: unknown }> {
  const file = path.join(wb.recordDir, 'fixture.jsonl');
  for (const t0 = Date.now(); Date.now() - t0 < 30_000; await new Promise((r) => setTimeout(r, 100))) {
    const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
    const hit = lines.map((l) => JSON.parse(l) as { tag?: string; response?: unknown }).find((r) => r.tag === tag);
    if (hit) return hit;
  }
  throw new Error(`the fixture recorded no answer to "${tag}"`);
}

/** How many answers a demo tool has recorded so far. */
const recordCount = (wb: Workbench, tool: string): number => demoRecords(wb).filter((r) => r.tool === tool).length;

describe('Policy and pending elicitations in the workbench', () => {
  let wb: Workbench;
  before(async () => {
    wb = await openWorkbench({ workspaceSettings: { 'mcpElicitation.serverPolicy': { demo: 'ask' } } });
    await waitForServers(wb.page, 2);
    await watchWorkbench(wb.page);
  });
  after(async () => {
    await wb?.close();
  });
  // One workbench for all: nothing a test leaves, passed or failed, may reach the next one.
  afterEach(async (t) => {
    if ((t as { passed?: boolean }).passed === false) await reportFailure(wb.page, 'pending-failed', t.name);
    await settle(wb);
  });

  it('ask policy: while the notification waits, the request is pending (status bar, Show Pending); Decline sends decline, the policy stays ask', async () => {
    const { page } = wb;
    await hideNotifications(page);
    await runDemoTool(page, 'Pick toppings');
    await notification(page, 'demo wants your input: Which toppings would you like?');
    await pendingStatus(page).filter({ hasText: '1' }).waitFor();
    await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
    const rows = await pendingRows(page);
    assert.match(rows[0] ?? '', /^demo: Which toppings would you like\? ?form · asking whether to show · \d+ s$/, JSON.stringify(rows));
    await screenshot(page, 'pending-asking-dark');
    await page.keyboard.press('Escape');
    const item = await notification(page, 'demo wants your input: Which toppings would you like?');
    await item.getByRole('button', { name: 'Decline' }).click();
    const [rec] = await waitForRecord(wb, 'pick_toppings');
    assert.deepEqual(rec?.result, { action: 'decline' });
    await resultShown(page, 'pick_toppings');
    await pendingStatus(page).waitFor({ state: 'detached' });
    assert.equal(
      ((await workspaceSettings(wb))['mcpElicitation.serverPolicy'] as Record<string, unknown>)['demo'],
      'ask',
      'Decline changes no policy',
    );
    await hideNotifications(page);
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
    await readQuestion(page);
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
    const allow = menu.getByText('Allow Elicitations from Server');
    await allow.click();
    // Under load the menu can swallow a click that lands as it opens (it stays open, the item
    // highlighted): the keyboard then runs the highlighted item. A menu that took the click stays
    // on screen for its fade-out only, so wait that out before deciding.
    const stayedOpen = await menu.waitFor({ state: 'hidden', timeout: 2_000 }).then(
      () => false,
      () => true,
    );
    if (stayedOpen) {
      await allow.hover();
      await page.keyboard.press('Enter');
    }
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

  it('blocked: declined without a prompt, one notice per session, Unblock removes the block without writing allow', async () => {
    const { page } = wb;
    await hideNotifications(page);
    for (const [tool, title] of [
      ['confirm_deploy', 'Confirm a deployment'],
      ['choose_region', 'Choose a region'],
    ] as const) {
      await runDemoTool(page, title);
      const [rec] = await waitForRecord(wb, tool);
      assert.deepEqual(rec?.result, { action: 'decline' });
      await resultShown(page, tool);
    }
    // The Run Tool picker may still be fading out; a prompt would stay.
    await quickInput(page)
      .waitFor({ state: 'hidden', timeout: 5_000 })
      .catch(() => assert.fail('nothing was shown: a quick input stayed open'));
    const notice = await notification(page, 'Declined a request from “demo”: the server is blocked.');
    assert.equal(
      await page.locator('.notifications-center .notification-list-item', { hasText: 'the server is blocked' }).count(),
      1,
      'one notice for two blocked requests',
    );
    await notice.getByRole('button', { name: 'Unblock' }).click();
    await waitForNoPolicy(wb, 'demo');
  });

  it('F1 over an open question does not lose it: no reply, listed as set aside, re-offered with Answer, and answering sends the answer', async () => {
    const { page } = wb;
    await hideNotifications(page);
    await runCommand(page, 'View: Close All Editors');
    const before = recordCount(wb, 'pick_number');
    await runDemoTool(page, 'Pick a number');
    const qi = quickInput(page);
    await qi.getByText('How many seats should I reserve?').waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5');
    // The command palette takes the question's place, as F1 does anywhere.
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await qi.getByText('How many seats should I reserve?').waitFor({ state: 'hidden' });
    assert.match(await input.inputValue(), /^>/, 'the palette is open');
    await pendingStatus(page).filter({ hasText: '1' }).waitFor();
    assert.equal(recordCount(wb, 'pick_number'), before, 'the server got no reply');
    // From the palette, the pending list: the question is there, set aside.
    await input.fill('>MCP Elicitation: Show Pending Elicitations');
    await qi.locator('.quick-input-list .monaco-list-row', { hasText: 'MCP Elicitation: Show Pending Elicitations' }).first().waitFor();
    await page.keyboard.press('Enter');
    const rows = await pendingRows(page);
    assert.match(rows[0] ?? '', /^demo: How many seats should I reserve\? ?form · set aside · \d+ s$/, JSON.stringify(rows));
    await pendingStatus(page).filter({ hasText: '1' }).waitFor();
    assert.equal(recordCount(wb, 'pick_number'), before, 'the server got no reply');
    await screenshot(page, 'pending-set-aside-dark');
    await page.keyboard.press('Escape');
    const item = await notification(page, 'The question from demo is set aside, not answered: How many seats should I reserve?');
    assert.equal(await item.getByRole('button', { name: 'Cancel' }).count(), 1, 'Cancel is one click away');
    await screenshot(page, 'set-aside-notification-dark');
    assert.equal(recordCount(wb, 'pick_number'), before, 'still no reply');
    await item.getByRole('button', { name: 'Answer' }).click();
    await qi.getByText('How many seats should I reserve?').waitFor();
    assert.equal(await qi.locator('input.input').inputValue(), '5', 'what was typed before is still there');
    await page.keyboard.press('Enter');
    const recs = await waitForRecord(wb, 'pick_number', before + 1);
    assert.deepEqual(recs.at(-1)?.result, { action: 'accept', content: { seats: 5 } });
    await resultShown(page, 'pick_number');
  });

  it("a tool result that arrives while another tool's question is open opens behind it: the question keeps the keyboard and its answer is sent", async () => {
    const { page } = wb;
    await hideNotifications(page);
    await freshEditors(page);
    const qi = quickInput(page);
    const gate = await runHeldTool(wb, 'result-gate');
    // The second tool asks a question (one text field: an InputBox).
    await runFixtureTool(page, 'elicit');
    await qi.locator('.quick-input-title', { hasText: 'Arguments for elicit' }).waitFor();
    const params = {
      message: 'Which colour should the badge be?',
      requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } },
    };
    await qi.locator('input').fill(JSON.stringify({ params, tag: 'behind' }));
    await page.keyboard.press('Enter');
    await qi.getByText('Which colour should the badge be?').waitFor();
    await readQuestion(page);
    await page.keyboard.type('te');
    // Now the first tool returns.
    await releaseHeldTool(page, gate);
    assert.equal(await qi.isVisible(), true, 'the question is still on screen');
    // Before the fix the question stayed visible but the editor had the keyboard: what the user
    // typed next went into the read-only result.
    assert.equal(await quickInputHasKeyboard(page), true, 'the question still has the keyboard');
    await page
      .locator('.statusbar-item', { hasText: 'waitForFile on fixture returned; its result is in a tab behind the open question.' })
      .first()
      .waitFor();
    await screenshot(page, 'result-behind-question-dark');
    await page.keyboard.type('al');
    await page.keyboard.press('Enter');
    const rec = await waitForFixtureRecord(wb, 'behind');
    assert.deepEqual(
      rec.response,
      { action: 'accept', content: { colour: 'teal' } },
      'typed before and after the result arrived, answered with Enter',
    );
    // With nothing on screen, a result opens in front and takes focus, as before.
    await page.locator('.tab.active', { hasText: 'fixture-elicit.txt' }).waitFor();
    await page.locator('.editor-instance .monaco-editor.focused').waitFor();
    assert.equal(await pendingStatus(page).count(), 0, 'nothing is left pending or set aside');
  });

  it("a tool result that arrives while Run Tool's server picker is open opens behind it: the picker stays open and keeps the keyboard", async () => {
    const { page } = wb;
    await hideNotifications(page);
    await freshEditors(page);
    const qi = quickInput(page);
    const gate = await runHeldTool(wb, 'result-gate-picker');
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await qi.locator('.quick-input-title', { hasText: 'Run Tool: pick a server' }).waitFor();
    await page.keyboard.type('fix');
    await releaseHeldTool(page, gate);
    // Before the fix the result took the keyboard and the workbench closed the picker.
    assert.equal(
      await qi.locator('.quick-input-title', { hasText: 'Run Tool: pick a server' }).isVisible(),
      true,
      'the picker is still open',
    );
    assert.equal(await quickInputHasKeyboard(page), true, 'the picker still has the keyboard');
    assert.equal(await qi.locator('input').inputValue(), 'fix', 'what the user typed is still there');
    await page.keyboard.press('Escape');
    await qi.waitFor({ state: 'hidden' });
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
        form
          .getByRole('button', { name: 'Accept', exact: true })
          .waitFor({ timeout: 20_000 })
          .then(() => 'webview'),
        quickInput(page)
          .locator('.quick-input-title', { hasText: 'Run Tool: burst' })
          .waitFor({ timeout: 20_000 })
          .then(() => 'quickInput'),
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
    assert.deepEqual(
      results.map((r) => r.action),
      ['decline', 'decline', 'decline'],
    );
    await pendingItem.waitFor({ state: 'detached' });
    await page.keyboard.press('Escape');
    await resultShown(page, 'burst');
  });

  it('rate limit: over the limit the server gets decline at once; "Allow More" lets every later request through; the policy stays', async () => {
    const { page } = wb;
    await hideNotifications(page);
    const policyOf = async (): Promise<unknown> =>
      ((await workspaceSettings(wb))['mcpElicitation.serverPolicy'] as Record<string, unknown> | undefined)?.['demo'];
    const policyBefore = await policyOf();
    const form = formFrame(page);
    /** Runs the burst tool (webview presentation, from the test before) with `count` questions. */
    const burst = async (count: number): Promise<void> => {
      await freshEditors(page);
      await runDemoTool(page, 'Burst of questions');
      await form.getByLabel('count', { exact: true }).fill(String(count));
      await form.getByRole('button', { name: 'Accept', exact: true }).click();
      await form.getByText(`Question 1 of ${count}: keep going?`).waitFor();
    };
    // The default limit is 10 a minute, and this session has used some already: of 14 at once,
    // the ones over the limit are declined without a prompt, and the user is told once.
    await burst(14);
    const warning = await notification(page, 'requests in 60 s; further requests are declined.');
    const declineAll = async (): Promise<void> => {
      await pendingStatus(page).click();
      await pickItem(page, 'Decline All from demo');
      await pendingStatus(page).waitFor({ state: 'detached' });
      await page.keyboard.press('Escape');
      await resultShown(page, 'burst');
    };
    const waiting = Number(/\d+/.exec(await pendingStatus(page).innerText())?.[0]);
    assert.ok(waiting >= 1 && waiting <= 10, `at most 10 of 14 reached the user (${waiting})`);
    await screenshot(page, 'rate-limit-notification-dark');
    await warning.getByRole('button', { name: 'Allow More' }).click();
    await declineAll();
    await waitForRecord(wb, 'burst', 2);
    // After Allow More, a burst larger than the limit reaches the user whole: nothing is declined unseen.
    await burst(12);
    await pendingStatus(page)
      .filter({ hasText: /(^|\D)12(\D|$)/ })
      .waitFor();
    await declineAll();
    const bursts = await waitForRecord(wb, 'burst', 3);
    assert.equal(((bursts.at(-1)?.result.content?.['results'] ?? []) as unknown[]).length, 12);
    assert.equal(await policyOf(), policyBefore, 'Allow More lifts the rate limit for the session, not the policy');
  });

  it('ask policy: "Block Server" on the notification sends decline, sets the policy to block and says so', async () => {
    const { page } = wb;
    await hideNotifications(page);
    const settingsFile = path.join(wb.workspace, '.vscode', 'settings.json');
    const current = await workspaceSettings(wb);
    writeFileSync(
      settingsFile,
      JSON.stringify(
        { ...current, 'mcpElicitation.serverPolicy': { ...(current['mcpElicitation.serverPolicy'] as object), demo: 'ask' } },
        null,
        2,
      ),
    );
    // The settings file is picked up by a watcher: until it is, the tool's question shows at once.
    const before = recordCount(wb, 'everything');
    for (let attempt = 1; ; attempt++) {
      await runDemoTool(page, 'Everything form');
      const shown = await Promise.race([
        notification(page, 'demo wants your input: Create a new project.').then(() => 'asked'),
        formFrame(page)
          .getByRole('button', { name: 'Accept', exact: true })
          .waitFor({ timeout: 20_000 })
          .then(() => 'form'),
      ]);
      if (shown === 'asked') break;
      assert.ok(attempt < 10, 'ask policy never applied');
      await formFrame(page).getByRole('button', { name: 'Decline', exact: true }).click();
      await waitForRecord(wb, 'everything', before + attempt);
      await resultShown(page, 'everything');
      await freshEditors(page);
      await hideNotifications(page);
    }
    await pendingStatus(page).filter({ hasText: '1' }).waitFor();
    const item = await notification(page, 'demo wants your input: Create a new project.');
    // Counted before the click: the decline can be recorded before the next line runs.
    const answered = recordCount(wb, 'everything');
    await item.getByRole('button', { name: 'Block Server' }).click();
    const recs = await waitForRecord(wb, 'everything', answered + 1);
    assert.deepEqual(recs.at(-1)?.result, { action: 'decline' });
    await waitForPolicy(wb, 'demo', 'block');
    await notification(page, '“demo” is now set to block in workspace settings.');
    await pendingStatus(page).waitFor({ state: 'detached' });
    await resultShown(page, 'everything');
  });

  it('a tool result that arrives while a form webview is on screen opens behind it: the form stays in front and its answer is sent', async () => {
    const { page } = wb;
    await hideNotifications(page);
    await freshEditors(page);
    const gate = path.join(wb.recordDir, 'result-gate-webview');
    const form = formFrame(page);
    // The presentation is `webview` since the Show Pending test: the tool's one argument is a form too.
    await runFixtureTool(page, 'waitForFile');
    await form.getByLabel(/^path\*?$/).fill(gate);
    await form.getByRole('button', { name: 'Accept', exact: true }).click();
    await page.locator('.tab', { hasText: 'fixture asks' }).waitFor({ state: 'detached' });
    await runFixtureTool(page, 'elicit');
    await quickInput(page).locator('.quick-input-title', { hasText: 'Arguments for elicit' }).waitFor();
    const params = {
      message: 'Which colour should the banner be?',
      requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } },
    };
    await quickInput(page)
      .locator('input')
      .fill(JSON.stringify({ params, tag: 'behind-webview' }));
    await page.keyboard.press('Enter');
    await form.getByText('Which colour should the banner be?').waitFor();
    await form.getByLabel(/^colour\*?$/).fill('navy');
    await releaseHeldTool(page, gate);
    // Before the fix the result became the group's active editor and covered the form.
    assert.equal(await page.locator('.tab.active', { hasText: 'fixture asks' }).count(), 1, 'the form is still the tab in front');
    assert.equal(
      await page.locator('.tab.active', { hasText: 'fixture-waitForFile.txt' }).count(),
      0,
      'the result tab opened in the background',
    );
    await form.getByRole('button', { name: 'Accept', exact: true }).click();
    const rec = await waitForFixtureRecord(wb, 'behind-webview');
    assert.deepEqual(rec.response, { action: 'accept', content: { colour: 'navy' } });
    await page.locator('.tab.active', { hasText: 'fixture-elicit.txt' }).waitFor();
    assert.equal(await pendingStatus(page).count(), 0, 'nothing is left pending');
  });
});
