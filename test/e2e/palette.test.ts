import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  demoRecords,
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

describe('Workbench: palette, Servers view and Run Tool', () => {
  let wb: Workbench;
  before(async () => {
    wb = await openWorkbench();
    await waitForServers(wb.page, 2);
  });
  after(async () => {
    await wb?.close();
  });

  it('lists the extension commands in the palette, and hides those that cannot act', async () => {
    const { page } = wb;
    await page.keyboard.press('F1');
    // One command at a time: the list draws only the rows that fit, and the category has more
    // commands than fit.
    for (const title of ['Run Tool…', 'Show Pending Elicitations', 'Restart All Servers', 'Open Audit Log']) {
      await page.locator('.quick-input-widget input').fill(`>MCP Elicitation: ${title}`);
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: `MCP Elicitation: ${title}` })
        .first()
        .waitFor({ timeout: 20_000 });
    }
    // Every server here is ours: Route has nothing to move, and Give Back nothing to give back.
    // The list first shows a command that stays; once that row is gone, the list reflects the
    // new filter, and the hidden command is not in it.
    const input = page.locator('.quick-input-widget input');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    for (const title of ['Route Through MCP Elicitation Host', 'Give Back to VS Code']) {
      await input.fill('>MCP Elicitation: Open Audit Log');
      const shown = rows.filter({ hasText: 'MCP Elicitation: Open Audit Log' }).first();
      await shown.waitFor({ timeout: 20_000 });
      await input.fill(`>MCP Elicitation: ${title}`);
      await shown.waitFor({ state: 'detached', timeout: 20_000 });
      assert.equal(await rows.filter({ hasText: `MCP Elicitation: ${title}` }).count(), 0, `${title} is hidden`);
    }
    await page.keyboard.press('Escape');
  });

  it('shows both servers running with their tools in the Servers view', async () => {
    const { page } = wb;
    await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    const view = page.locator('.pane', { hasText: 'MCP Servers' });
    await view.locator('.monaco-list-row', { hasText: 'demo' }).first().waitFor();
    await view.locator('.monaco-list-row', { hasText: 'Ask for a name' }).first().waitFor();
    await view.locator('.monaco-list-row', { hasText: 'fixture' }).first().waitFor();
    assert.ok(
      (await view.locator('.monaco-list-row', { hasText: 'stdio · demo' }).count()) >= 1,
      'server description shows transport and serverInfo',
    );
    await screenshot(page, 'servers-view-dark');
  });

  it('runs a tool from the palette, answers its InputBox by typing, and shows the result', async () => {
    const { page } = wb;
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await pickItem(page, 'demo');
    await pickItem(page, 'Ask for a name');
    const qi = quickInput(page);
    await qi.locator('.quick-input-title', { hasText: 'demo' }).waitFor();
    await qi.getByText('What should I call you?').waitFor();
    await screenshot(page, 'inputbox-dark');
    await readQuestion(page);
    await page.keyboard.type('Ada Lovelace');
    await page.keyboard.press('Enter');
    const recs = await waitForRecord(wb, 'ask_name');
    assert.deepEqual(recs[0]?.result, { action: 'accept', content: { name: 'Ada Lovelace' } });
    // The result opens in a read-only editor.
    await page.locator('.editor-instance .view-lines', { hasText: 'Hello, Ada Lovelace!' }).first().waitFor({ timeout: 20_000 });
    await screenshot(page, 'run-tool-result-dark');
    assert.equal(demoRecords(wb).length, 1);
  });
});
