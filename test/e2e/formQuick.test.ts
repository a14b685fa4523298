/**
 * Form-mode elicitation on VS Code's native quick input, end to end: the demo server's one-field
 * tools (number InputBox, boolean, titled enum and multi-select QuickPicks) and its twelve-field
 * `everything` form as a step-by-step flow with a review step, all driven with the real keyboard
 * and mouse. Every outcome is asserted on what the demo server recorded.
 */
import { beforeEach, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import {
  declineAllPending,
  demoRecords,
  hideNotifications,
  notification,
  pickItem,
  quickInput,
  readQuestion,
  runCommand,
  screenshot,
  type DemoRecord,
} from './workbench';
import { formWorkbench } from './formWorkbench';

describe('Workbench: form-mode elicitation on native quick input', () => {
  // quickInput: the twelve-field form is a step-by-step flow instead of the webview. Escape only
  // sets a question aside, so one left open is declined from the pending list.
  const wb = formWorkbench('quickInput', declineAllPending);
  let seen = 0;
  // The demo and the hostile fixture both append their answers here.
  const records = (): DemoRecord[] => demoRecords(wb);

  beforeEach(async () => {
    seen = records().length;
    // Hover effects from a previous test must not show up in screenshots.
    await wb.page.mouse.move(640, 600);
  });

  const qi = (): Locator => quickInput(wb.page);
  const rows = (): Locator => qi().locator('.quick-input-list .monaco-list-row');

  /** Runs a tool from the palette and waits for its question (by a text it shows). */
  async function ask(tool: string, shows: string, server = 'demo'): Promise<void> {
    await runCommand(wb.page, 'MCP Elicitation: Run Tool…');
    await pickItem(wb.page, server);
    await pickItem(wb.page, tool);
    await qi()
      .locator('.quick-input-titlebar', { hasText: `MCP server “${server}” asks` })
      .waitFor();
    await qi().getByText(shows).first().waitFor();
    await readQuestion(wb.page);
  }

  /**
   * The next answer the server recorded. The tool's result then opens in an editor and takes
   * focus; wait for that, so it cannot close the next palette mid-command.
   */
  async function answer(tool: string, server = 'demo'): Promise<DemoRecord['result']> {
    const t0 = Date.now();
    while (records().length <= seen) {
      if (Date.now() - t0 > 30_000) throw new Error(`no answer from ${tool} after 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const r = records()[seen++];
    assert.equal(r?.tool, tool);
    // Close it again, so the next answer's editor is a fresh tab whose focus can be waited for.
    const tab = wb.page.locator('.tab', { hasText: `${server}-${tool}.txt` });
    await tab.waitFor();
    await wb.page.locator('.editor-instance .monaco-editor.focused').waitFor();
    await runCommand(wb.page, 'View: Close All Editors');
    await tab.waitFor({ state: 'detached' });
    return r.result;
  }

  /** Moves the list focus with the arrow keys until the focused row shows `label` (bounded). */
  async function focusRow(page: Page, label: string): Promise<void> {
    // A confirmation starts with no row active (issue 41): the first ArrowDown makes one so.
    for (let i = 0; i < 10; i++) {
      const focused = rows().and(qi().locator('.focused'));
      if ((await focused.count()) > 0 && (await focused.first().innerText()).split('\n')[0]?.includes(label)) return;
      await page.keyboard.press('ArrowDown');
    }
    throw new Error(`no row ${label}`);
  }

  /** A screenshot once the quick input has finished fading in (mid-fade shots look washed out). */
  async function shot(name: string): Promise<void> {
    await qi().evaluate((el) =>
      Promise.all(
        el
          .getAnimations({ subtree: true })
          // A busy progress bar loops forever; only finite animations can be waited out.
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    await screenshot(wb.page, name);
  }

  /** The review's rows as "label: description". */
  const reviewRows = (): Promise<string[]> =>
    rows().evaluateAll((rs) =>
      rs.map((r) => `${r.querySelector('.label-name')?.textContent ?? ''}: ${r.querySelector('.label-description')?.textContent ?? ''}`),
    );

  const checked = async (): Promise<string[]> =>
    (
      await rows().evaluateAll((rs) =>
        rs.filter((r) => r.getAttribute('aria-checked') === 'true').map((r) => r.getAttribute('aria-label') ?? ''),
      )
    ).map((l) => l.split(',')[0] ?? '');

  it('number InputBox: typing 42 shows the range message live and Enter does not send; 7 is sent as a number', async () => {
    const { page } = wb;
    await ask('Pick a number', 'How many seats should I reserve?');
    const input = qi().locator('input.input');
    assert.equal(await input.inputValue(), '2', 'the default is pre-filled');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('42');
    const message = qi().locator('.quick-input-message');
    await message.filter({ hasText: 'Must be at most 10' }).waitFor();
    // The message replaces the prompt; the title still says what is asked.
    await qi().locator('.quick-input-title', { hasText: 'Seats' }).waitFor();
    await shot('inputbox-number-validation-dark');
    await page.keyboard.press('Enter');
    // Still open, still 42, nothing sent (if 42 had gone out, it would be the recorded answer below).
    await message.filter({ hasText: 'Must be at most 10' }).waitFor();
    assert.equal(await input.inputValue(), '42');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('7');
    await message.filter({ hasText: 'Must be at most 10' }).waitFor({ state: 'detached' });
    await page.keyboard.press('Enter');
    assert.deepEqual(await answer('pick_number'), { action: 'accept', content: { seats: 7 } });
  });

  it('boolean QuickPick: the default Yes is preselected; choosing No sends false', async () => {
    const { page } = wb;
    await ask('Confirm a deployment', 'Deploy build 1.4.2 to staging?');
    // The question sits under the filter box, not over an option.
    await qi().locator('.quick-input-message', { hasText: 'Deploy build 1.4.2 to staging?' }).waitFor();
    assert.deepEqual(
      await rows()
        .allInnerTexts()
        .then((t) => t.map((x) => x.split('\n')[0])),
      ['Yes', 'No'],
    );
    assert.match(await rows().and(qi().locator('.focused')).innerText(), /^Yes/);
    await shot('quickpick-boolean-dark');
    await page.keyboard.press('ArrowDown');
    await focusRow(page, 'No');
    await page.keyboard.press('Enter');
    assert.deepEqual(await answer('confirm_deploy'), { action: 'accept', content: { confirm: false } });
  });

  it('titled enum QuickPick: shows the titles with the value as detail and sends the value', async () => {
    await ask('Choose a region', 'Europe (Ireland)');
    // Each row: the title on the first line, the value to be sent as its detail below.
    const shown = (await rows().allInnerTexts()).map((t) =>
      t
        .split('\n')
        .map((x) => x.trim())
        .filter(Boolean)
        .slice(0, 2),
    );
    assert.deepEqual(shown, [
      ['Europe (Ireland)', 'eu-west-1'],
      ['US East (Virginia)', 'us-east-1'],
      ['Asia Pacific (Sydney)', 'ap-southeast-2'],
    ]);
    await shot('quickpick-enum-dark');
    await rows().filter({ hasText: 'US East (Virginia)' }).click();
    assert.deepEqual(await answer('choose_region'), { action: 'accept', content: { region: 'us-east-1' } });
  });

  it('multi-select QuickPick: defaults checked, Space toggles, an empty pick is refused, the exact list is sent', async () => {
    const { page } = wb;
    await ask('Pick toppings', 'Mushrooms');
    assert.deepEqual(await checked(), ['Cheese']);
    // Into the list (the focus starts on Cheese), then toggle rows with Space.
    await page.keyboard.press('ArrowDown');
    await focusRow(page, 'Cheese');
    await page.keyboard.press('Space');
    await qi().locator('.quick-input-count', { hasText: '0 Selected' }).waitFor();
    await page.keyboard.press('Enter');
    // Refused: minItems 1. The question stays open and says why (in its placeholder).
    await qi().locator('input.input[placeholder*="Pick at least 1"]').waitFor();
    await shot('quickpick-multiselect-refused-dark');
    assert.equal(records().length, seen);
    await focusRow(page, 'Mushrooms');
    await page.keyboard.press('Space');
    await focusRow(page, 'Peppers');
    await page.keyboard.press('Space');
    await qi().locator('.quick-input-count', { hasText: '2 Selected' }).waitFor();
    assert.deepEqual(await checked(), ['Mushrooms', 'Peppers']);
    await shot('quickpick-multiselect-dark');
    await page.keyboard.press('Enter');
    assert.deepEqual(await answer('pick_toppings'), { action: 'accept', content: { toppings: ['mushroom', 'pepper'] } });
  });

  it('twelve fields step by step: "n/13" in the title, Back keeps values, the review lists the answers, Accept sends', async () => {
    const { page } = wb;
    await ask('Everything form', 'Create a new project.');
    const title = qi().locator('.quick-input-title');
    const input = qi().locator('input.input');
    await title.filter({ hasText: 'Project name (1/13)' }).waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('quick-project');
    await page.keyboard.press('Enter');
    await title.filter({ hasText: 'Description (2/13)' }).waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('typed on step two');
    await page.keyboard.press('Enter');
    await title.filter({ hasText: 'Owner email (3/13)' }).waitFor();
    // Back, twice, with the title-bar button: each step comes back with what was entered there.
    await qi().getByRole('button', { name: /^Back/ }).click();
    await title.filter({ hasText: 'Description (2/13)' }).waitFor();
    assert.equal(await input.inputValue(), 'typed on step two');
    await qi().getByRole('button', { name: /^Back/ }).click();
    await title.filter({ hasText: 'Project name (1/13)' }).waitFor();
    assert.equal(await input.inputValue(), 'quick-project');
    assert.equal(await qi().getByRole('button', { name: /^Back/ }).count(), 0, 'no Back on the first step');
    // Forward through every step with Enter, each keeping its default.
    for (let n = 1; n <= 12; n++) {
      await title.filter({ hasText: `(${n}/13)` }).waitFor();
      await page.keyboard.press('Enter');
    }
    await title.filter({ hasText: 'Review (13/13)' }).waitFor();
    const review = await reviewRows();
    // Option titles, as picked ("Team"), not the values sent ("team").
    for (const line of [
      'Project name: quick-project',
      'Description: typed on step two',
      'Replicas: 3',
      'Monthly budget (USD): 250.5',
      'Public repository: No',
      'License: MIT',
      'Tier: Team',
      'Features: ci, issues',
    ]) {
      assert.ok(review.includes(line), `review lists “${line}”: ${JSON.stringify(review)}`);
    }
    await shot('quickinput-review-dark');
    // Picking an answer reopens its step; answering it comes straight back to the review.
    await rows().filter({ hasText: 'Tier' }).click();
    await title.filter({ hasText: 'Tier (11/13)' }).waitFor();
    await rows().filter({ hasText: 'Enterprise' }).click();
    await title.filter({ hasText: 'Review (13/13)' }).waitFor();
    assert.ok((await reviewRows()).includes('Tier: Enterprise'));
    await page.keyboard.press('Enter');
    assert.deepEqual(await answer('everything'), {
      action: 'accept',
      content: {
        name: 'quick-project',
        description: 'typed on step two',
        owner: 'dev@example.com',
        homepage: 'https://example.com',
        start: '2026-12-01',
        slug: 'my-project',
        replicas: 3,
        budget: 250.5,
        public: false,
        license: 'MIT',
        tier: 'enterprise',
        features: ['ci', 'issues'],
      },
    });
  });

  it('a long question is shown in full and hides no option', async () => {
    const { page } = wb;
    await ask('Long question', 'locks tables for several minutes.', 'inject');
    const message = qi().locator('.quick-input-message');
    await message.filter({ hasText: 'locks tables for several minutes.' }).waitFor();
    assert.match((await message.textContent()) ?? '', /^Before I run the migration/);
    // Both options are there to read, "Yes" included (a long separator used to cover it).
    for (const label of ['Yes', 'No']) {
      const name = rows().locator('.label-name', { hasText: new RegExp(`^${label}$`) });
      const box = await name.boundingBox();
      assert.ok(box !== null && box.width > 10, `${label} is visible (${JSON.stringify(box)})`);
    }
    await shot('quickpick-long-question-dark');
    await focusRow(page, 'No');
    await page.keyboard.press('Enter');
    assert.deepEqual(await answer('long_question', 'inject'), { action: 'accept', content: { proceed: false } });
  });

  it('remember: "Accept and remember for this session" answers the same confirmation the next time, with a note; Undo asks again', async () => {
    const { page } = wb;
    await hideNotifications(page);
    await ask('Confirm without fields', 'Restart the build agents now?', 'inject');
    await focusRow(page, 'Accept and remember for this session');
    await shot('remember-option-dark');
    await page.keyboard.press('Enter');
    assert.deepEqual(await answer('confirm_only', 'inject'), { action: 'accept', content: {} });

    // The same question again: no prompt, the same answer on the wire, and a note that says so.
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await pickItem(page, 'inject');
    await pickItem(page, 'Confirm without fields');
    assert.deepEqual(await answer('confirm_only', 'inject'), { action: 'accept', content: {} });
    const noteText = 'Answered from memory: inject asked “Restart the build agents now?”';
    await notification(page, noteText);

    // Asked again while that note is open: answered from memory again, with a status bar line, not a second note.
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await pickItem(page, 'inject');
    await pickItem(page, 'Confirm without fields');
    assert.deepEqual(await answer('confirm_only', 'inject'), { action: 'accept', content: {} });
    await page.locator('.statusbar-item', { hasText: 'inject: answered from memory again.' }).waitFor();
    const note = await notification(page, noteText);
    assert.equal(await page.locator('.notifications-center .notification-list-item', { hasText: noteText }).count(), 1, 'one note');
    await screenshot(page, 'remember-note-dark');
    // By keyboard: the hover of the bell just clicked can lie over the button.
    await note.getByRole('button', { name: 'Undo' }).focus();
    await page.keyboard.press('Enter');
    await notification(page, 'Forgotten. The answer already sent stays sent; inject will ask you next time.');
    await hideNotifications(page);

    // Forgotten: asked again.
    await ask('Confirm without fields', 'Restart the build agents now?', 'inject');
    await rows()
      .filter({ hasText: /^\s*Decline/ })
      .click();
    assert.deepEqual(await answer('confirm_only', 'inject'), { action: 'decline' });
  });

  /** The title-bar Cancel: the one way on the prompt itself to answer cancel (Escape only sets it aside). */
  const cancelButton = (): Locator => qi().getByRole('button', { name: /^Cancel \(close without answering/ });

  it('a form without fields is a confirmation: Accept, Decline and Cancel on a QuickPick; Accept sends {}', async () => {
    const { page } = wb;
    await ask('Confirm without fields', 'Restart the build agents now?', 'inject');
    await qi().locator('.quick-input-message', { hasText: 'Restart the build agents now?' }).waitFor();
    const labels = await rows().evaluateAll((rs) => rs.map((r) => r.querySelector('.label-name')?.textContent?.trim() ?? ''));
    // The three answers first; remembering (issue 26 item 3) comes after them, so Enter never remembers.
    assert.deepEqual(labels, [
      'Accept',
      'Decline',
      'Cancel',
      'Accept and remember for this session',
      'Accept and remember in this workspace',
    ]);
    // No row starts active, so Enter alone answers nothing; a yes takes picking Accept.
    assert.equal(await rows().and(qi().locator('.focused')).count(), 0, 'no row is active');
    await shot('quickpick-confirmation-dark');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    assert.match(await rows().and(qi().locator('.focused')).innerText(), /^\s*Accept/, 'one arrow key to Accept');
    await page.keyboard.press('Enter');
    assert.deepEqual(await answer('confirm_only', 'inject'), { action: 'accept', content: {} });

    await ask('Confirm without fields', 'Restart the build agents now?', 'inject');
    await rows().filter({ hasText: 'Decline' }).click();
    assert.deepEqual(await answer('confirm_only', 'inject'), { action: 'decline' });
  });

  it('Decline sends decline; the Cancel button sends cancel; Escape only sets the question aside, and its notification cancels it', async () => {
    const { page } = wb;
    await ask('Choose a region', 'Europe (Ireland)');
    const decline = qi().getByRole('button', { name: 'Decline (tell the server no)' });
    await decline.hover();
    // The tooltip says what the button does.
    await page.locator('.monaco-hover, .workbench-hover', { hasText: 'Decline (tell the server no)' }).first().waitFor();
    await decline.click();
    assert.deepEqual(await answer('choose_region'), { action: 'decline' });

    await ask('Pick a number', 'How many seats should I reserve?');
    // The prompt says what Escape does: on the Cancel button, one click away.
    await cancelButton().hover();
    await page.locator('.monaco-hover, .workbench-hover', { hasText: 'Escape only sets the question aside' }).first().waitFor();
    await shot('inputbox-cancel-tooltip-dark');
    await cancelButton().click();
    assert.deepEqual(await answer('pick_number'), { action: 'cancel' });

    await hideNotifications(page);
    await ask('Confirm a deployment', 'Deploy build 1.4.2 to staging?');
    await page.keyboard.press('Escape');
    await qi().waitFor({ state: 'hidden' });
    // Still pending, nothing sent.
    await page.locator('[id$="mcpElicitation.pending"]').filter({ hasText: '1' }).waitFor();
    assert.equal(records().length, seen, 'Escape sent nothing');
    const item = await notification(page, 'The question from demo is set aside, not answered: Deploy build 1.4.2 to staging?');
    await item.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await answer('confirm_deploy'), { action: 'cancel' });
    await hideNotifications(page);
  });

  it('a [label](command:…) link in a server message is plain text in the prompt and the set-aside notification: clicking it runs nothing', async () => {
    const { page } = wb;
    // The link's command would hide the status bar (and write workbench.statusBar.visible).
    const statusBar = page.locator('.part.statusbar');
    await statusBar.waitFor();
    await hideNotifications(page);
    await ask('Command link', 'Click to continue', 'inject');
    const message = qi().locator('.quick-input-message', { hasText: 'Click to continue' });
    // The server's words are all there to read, and none of them is a link.
    assert.match(
      (await message.innerText()).replace(/\u200b/g, ''),
      /\[Click to continue\]\(command:workbench\.action\.toggleStatusbarVisibility\) before you answer\./,
    );
    assert.equal(await message.locator('a').count(), 0, 'no link in the prompt');
    await message.getByText('Click to continue', { exact: false }).click();
    await page.keyboard.press('Escape');
    await qi().waitFor({ state: 'hidden' });
    const item = await notification(page, 'is set aside, not answered: [Click to continue]');
    assert.equal(await item.locator('.notification-list-item-message a').count(), 0, 'no link in the notification');
    await item.locator('.notification-list-item-message').getByText('Click to continue', { exact: false }).click();
    // The Cancel is handled after the clicks: had one run the command, it would have by now.
    await item.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(await answer('command_link', 'inject'), { action: 'cancel' });
    assert.ok(await statusBar.isVisible(), 'the status bar is still shown: no command ran');
    await hideNotifications(page);
  });

  it('a [label](command:…) link in a server’s pattern is plain text in the InputBox validation message: clicking it runs nothing', async () => {
    const { page } = wb;
    const statusBar = page.locator('.part.statusbar');
    await statusBar.waitFor();
    await ask('Pattern link', 'Enter the code from the letter.', 'inject');
    await page.keyboard.type('x');
    // The validation message replaces the prompt and quotes the server's pattern.
    const message = qi().locator('.quick-input-message', { hasText: 'Must match the pattern' });
    await message.waitFor();
    assert.match(
      (await message.innerText()).replace(/\u200b/g, ''),
      /\^\[Fix it\]\(command:workbench\.action\.toggleStatusbarVisibility\)\$/,
    );
    assert.equal(await message.locator('a').count(), 0, 'no link in the validation message');
    await message.getByText('Fix it', { exact: false }).click();
    // Enter with the refused value sends nothing; the message stays.
    await page.keyboard.press('Enter');
    await message.waitFor();
    await cancelButton().click();
    assert.deepEqual(await answer('pattern_link', 'inject'), { action: 'cancel' });
    assert.ok(await statusBar.isVisible(), 'the status bar is still shown: no command ran');
  });

  it('a [label](command:…) link in the first line of a message is plain text in the "ask" notification: clicking it runs nothing', async () => {
    const { page } = wb;
    const statusBar = page.locator('.part.statusbar');
    await statusBar.waitFor();
    await hideNotifications(page);
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await pickItem(page, 'asker');
    await pickItem(page, 'Command link');
    const item = await notification(page, 'asker wants your input: [Click to continue]');
    const text = item.locator('.notification-list-item-message');
    assert.match(
      (await text.innerText()).replace(/\u200b/g, ''),
      /\[Click to continue\]\(command:workbench\.action\.toggleStatusbarVisibility\) before you answer\./,
    );
    assert.equal(await text.locator('a').count(), 0, 'no link in the notification');
    await text.getByText('Click to continue', { exact: false }).click();
    // Decline is handled after the click: had the click run the command, it would have by now.
    await item.getByRole('button', { name: 'Decline' }).click();
    assert.deepEqual(await answer('command_link', 'asker'), { action: 'decline' });
    assert.ok(await statusBar.isVisible(), 'the status bar is still shown: no command ran');
    await hideNotifications(page);
  });

  it('light theme: every widget kind (each closed with its Cancel button)', async () => {
    const { page } = wb;
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await page.locator('.monaco-workbench.vs').waitFor();

    await ask('Pick a number', 'How many seats should I reserve?');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('42');
    await qi().locator('.quick-input-message', { hasText: 'Must be at most 10' }).waitFor();
    await shot('inputbox-number-validation-light');
    await cancelButton().click();
    assert.deepEqual(await answer('pick_number'), { action: 'cancel' });

    await ask('Confirm a deployment', 'Deploy build 1.4.2 to staging?');
    await shot('quickpick-boolean-light');
    await cancelButton().click();
    assert.deepEqual(await answer('confirm_deploy'), { action: 'cancel' });

    await ask('Choose a region', 'US East (Virginia)');
    await shot('quickpick-enum-light');
    await cancelButton().click();
    assert.deepEqual(await answer('choose_region'), { action: 'cancel' });

    await ask('Pick toppings', 'Mushrooms');
    await shot('quickpick-multiselect-light');
    await cancelButton().click();
    assert.deepEqual(await answer('pick_toppings'), { action: 'cancel' });

    await ask('Everything form', 'Create a new project.');
    for (let n = 1; n <= 12; n++) {
      await qi()
        .locator('.quick-input-title', { hasText: `(${n}/13)` })
        .waitFor();
      await page.keyboard.press('Enter');
    }
    await qi().locator('.quick-input-title', { hasText: 'Review (13/13)' }).waitFor();
    await shot('quickinput-review-light');
    await cancelButton().click();
    assert.deepEqual(await answer('everything'), { action: 'cancel' });
  });
});
