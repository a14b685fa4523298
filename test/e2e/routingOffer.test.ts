/**
 * The first minute on a default VS Code (issue 26, item 2): a workspace whose server is in
 * `.mcp.json`, which VS Code runs for its chat. The extension offers, once, to bring that server's
 * questions here; the user answers Route and does VS Code's own "Enable" step, starts the server
 * for the agent, and asks the agent in the chat panel to run a tool that asks a question. The
 * question is this extension's form, not VS Code's prompt, and the answer reaches the chat.
 *
 * The language model is the fixture of chatAgent.test.ts (test/fixtures/chatModelExtension): it
 * calls the MCP tool named in the request, then repeats the tool's result; the agent is VS Code's.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { askAgentInChat, fixtureExtensionDir, vscodeElicitationShown } from './agentWorkbench';
import {
  formFrame,
  hideNotifications,
  notification,
  openWorkbench,
  runCommand,
  screenshot,
  screenshotIfFailed,
  waitForRecord,
  type Workbench,
} from './workbench';

describe('Workbench: the offer to route brings a .mcp.json server’s questions from VS Code’s agent to our form', () => {
  let wb: Workbench;
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-e2e-offer-'));
  const helpers = fixtureExtensionDir('chatModelExtension', 'mcp-test.chat-model-0.0.1');
  const dotMcp = JSON.stringify(
    {
      mcpServers: {
        demo: {
          command: 'node',
          args: [path.join(repoRoot, 'demo', 'servers', 'demoServer.mjs')],
          env: { DEMO_RECORD: path.join(recordDir, 'demo.jsonl') },
        },
      },
    },
    null,
    2,
  );

  before(async () => {
    wb = await openWorkbench({
      servers: {},
      files: { '.mcp.json': dotMcp },
      // AI features on (VS Code's default); the user starts servers from VS Code's MCP list.
      settings: { 'chat.disableAIFeatures': false, 'chat.mcp.autostart': 'never', 'mcpElicitation.presentation': 'webview' },
      // As in chatAgent.test.ts: a profile whose first-start chat step is done, offline.
      applicationStorage: { builtinChatExtensionEnablementMigration: 'true' },
      alsoInstalled: helpers,
      viewport: { width: 1440, height: 900 },
    });
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async (t) => {
    await screenshotIfFailed(wb.page, 'routing-offer', t);
  });

  it('offered once, Route and Enable as the user does them; the agent’s next call to the server asks in our form and its answer reaches the chat', async () => {
    const { page } = wb;
    const chat = page.locator('.part.auxiliarybar');

    // The offer, in the notification center (the smoke-test driver that runs this workbench turns toasts off).
    // It comes once the extension has activated and read the servers, which takes a while on a first start.
    const offer = await notification(page, 'VS Code runs the MCP server demo in this workspace', 120_000);
    const offerText = await offer.innerText();
    assert.match(offerText, /no shared file is edited, so teammates are unaffected, and Give Back to VS Code undoes it/);
    for (const answer of ['Route', 'Choose…', "Don't Ask Again"]) {
      assert.equal(await offer.getByRole('button', { name: answer, exact: true }).count(), 1, `the answer ${answer}`);
    }
    await screenshot(page, 'routing-offer');
    await offer.getByRole('button', { name: 'Route', exact: true }).click();

    // Route's notification opens VS Code's own options for the routed copy, where the user picks "Enable".
    const routed = await notification(page, 'demo now runs in MCP Elicitation Host, for you in this workspace');
    assert.match(await routed.innerText(), /\/\.mcp\.json is unchanged, so teammates keep it as it is/);
    // By keyboard: the mouse still rests where Route was, and the hover it raises can lie over this button.
    await routed.getByRole('button', { name: 'Enable in VS Code' }).focus();
    await page.keyboard.press('Enter');
    const enable = page.locator('.quick-input-list .monaco-list-row', { hasText: /^Enable/ }).first();
    await enable.waitFor({ timeout: 30_000 });
    await screenshot(page, 'routing-offer-enable');
    await enable.click();
    await hideNotifications(page);
    assert.equal(readFileSync(path.join(wb.workspace, '.mcp.json'), 'utf8'), dotMcp, '.mcp.json is unchanged');

    // The user starts the server for the agent, as after any install: MCP: List Servers → demo → Start Server.
    await runCommand(page, 'MCP: List Servers');
    // Two servers are labelled demo: VS Code's own copy, now disabled, and the routed one.
    const rows = page.locator('.quick-input-list .monaco-list-row', { hasText: 'demo' });
    await rows.first().waitFor({ timeout: 30_000 });
    const listed = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    assert.ok(
      listed.some((t) => /Disabled/.test(t) && /\.mcp\.json/.test(t)),
      `VS Code's copy of .mcp.json is disabled for this user: ${JSON.stringify(listed)}`,
    );
    await rows.filter({ hasText: 'MCP Elicitation Host' }).first().click();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Start Server' }).first().click();
    await page.locator('.part.panel', { hasText: /Discovered\s\d+\stools/ }).waitFor({ timeout: 60_000 });
    await page.keyboard.press('Control+j');

    const confirmation = await askAgentInChat(page, 'Please ask_name for me', 'Ask for a name');
    await confirmation
      .getByRole('button', { name: /^Allow/ })
      .first()
      .click();

    // The question is ours: our form, attributed to the server, while VS Code shows nothing of its own.
    const form = formFrame(page);
    await form.locator('.banner .server-name', { hasText: 'demo' }).waitFor({ timeout: 60_000 });
    assert.equal(await form.locator('.banner .message').textContent(), 'What should I call you?');
    await form.getByLabel(/^Name\*?$/).fill('Ada');
    await screenshot(page, 'routing-offer-form');
    assert.equal(await vscodeElicitationShown(page), 0, 'VS Code shows no prompt of its own');
    await form.getByRole('button', { name: 'Accept', exact: true }).click();

    await chat.getByText('The tool answered: Hello, Ada!').first().waitFor({ timeout: 60_000 });
    assert.deepEqual((await waitForRecord({ ...wb, recordDir }, 'ask_name'))[0]?.result, { action: 'accept', content: { name: 'Ada' } });
    assert.equal(await vscodeElicitationShown(page), 0, 'nor afterwards');
    await screenshot(page, 'routing-offer-answer');

    // Once per workspace: the offer is not in the notification center again.
    await page.locator('.statusbar-item[id="status.notifications"]').click();
    await page.locator('.notifications-center.visible').waitFor();
    assert.equal(
      await page.locator('.notifications-center .notification-list-item', { hasText: 'VS Code runs the MCP server demo' }).count(),
      0,
      'the offer is not made a second time',
    );
  });
});
