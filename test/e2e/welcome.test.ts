import { after, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openWorkbench, screenshot, type Workbench } from './workbench';

/**
 * The first minute as a new user sees it: the views' welcome content and the walkthrough tell
 * the truth for the setup at hand (VS Code's AI features off, or on: the default) and offer the
 * next step.
 */

function pane(page: Page, title: string) {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: title }) });
}

async function openContainer(page: Page): Promise<void> {
  await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
  await pane(page, 'MCP Servers').waitFor();
  // Off the activity bar, so its hover does not cover the views in the screenshots.
  await page.mouse.move(660, 600);
}

/** The welcome content of a view, once it shows `text`. */
async function welcome(page: Page, view: string, text: string) {
  const content = pane(page, view).locator('.welcome-view-content');
  await content.filter({ hasText: text }).first().waitFor({ timeout: 60_000 });
  return content.first();
}

/** Opens the walkthrough from a view's "Get Started" button and returns the steps' titles shown. */
async function walkthroughFrom(page: Page, view: string): Promise<string[]> {
  await pane(page, view).locator('.welcome-view-content').getByRole('button', { name: 'Get Started' }).click();
  const steps = page.locator('.getting-started-step .step-title');
  await page
    .locator('.gettingStartedSlideDetails', { hasText: 'Get Started with MCP Elicitation Host' })
    .first()
    .waitFor({ timeout: 60_000 });
  await steps.first().waitFor();
  return (await steps.allInnerTexts()).map((t) => t.trim());
}

describe('First run: welcome content and walkthrough, AI features off and on', () => {
  let wb: Workbench | undefined;
  after(async () => {
    await wb?.close();
  });

  it('AI features off, no server anywhere: both views say so and lead to the walkthrough, whose first step is adding a server', async () => {
    wb = await openWorkbench({ servers: {} });
    const { page } = wb;
    await openContainer(page);
    const servers = await welcome(page, 'MCP Servers', 'No MCP server is configured.');
    assert.match(await servers.innerText(), /this extension runs it/);
    assert.doesNotMatch(await servers.innerText(), /AI features are on/);
    await welcome(page, 'Pending Elicitations', 'No question is waiting, and no MCP server is configured.');
    await screenshot(page, 'welcome-ai-off');
    const steps = await walkthroughFrom(page, 'MCP Servers');
    assert.equal(steps[0], 'Add a server');
    assert.ok(!steps.includes("Bring your servers' questions here"), steps.join(' | '));
    await screenshot(page, 'walkthrough-ai-off');
    await wb.close();
    wb = undefined;
  });

  it("AI features on: VS Code's servers are listed as its own, the Pending view offers Route, and with none left the walkthrough starts with bringing questions here", async () => {
    wb = await openWorkbench({
      servers: { 'team-tools': { command: 'node', args: ['server.js'] } },
      // The views as they are without the offer to route (test/e2e/routingOffer.test.ts shows it).
      workspaceSettings: { 'mcpElicitation.offerRouting': false },
      settings: { 'chat.disableAIFeatures': false, 'chat.mcp.autostart': 'never' },
    });
    const { page } = wb;
    await openContainer(page);
    await pane(page, 'MCP Servers')
      .locator('.monaco-list-row', { hasText: 'run by VS Code · .vscode/mcp.json' })
      .first()
      .waitFor({ timeout: 60_000 });
    const pending = await welcome(page, 'Pending Elicitations', 'VS Code runs this workspace');
    await pending.getByRole('button', { name: 'Route a Server…' }).waitFor();
    // The README's picture of the first minute with AI features on (docs/images/first-run-ai-on.png).
    await screenshot(page, 'welcome-ai-on-vscode-servers');

    // The server leaves mcp.json: nothing is configured anywhere now.
    writeFileSync(path.join(wb.workspace, '.vscode', 'mcp.json'), JSON.stringify({ servers: {} }));
    const servers = await welcome(page, 'MCP Servers', "VS Code's AI features are on");
    assert.match(await servers.innerText(), /mcpElicitation\.servers/);
    await welcome(page, 'Pending Elicitations', 'No question is waiting, and no MCP server is configured.');
    await screenshot(page, 'welcome-ai-on');
    const steps = await walkthroughFrom(page, 'MCP Servers');
    assert.equal(steps[0], "Bring your servers' questions here");
    assert.ok(!steps.includes('Add a server'), steps.join(' | '));
    await screenshot(page, 'walkthrough-ai-on');
  });
});
