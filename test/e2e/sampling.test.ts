/**
 * Sampling's human in the loop, on screen (issue 24 item 2): a server's `sampling/createMessage`
 * opens a consent that names the server and shows the model and the messages, all editable; after
 * Accept the model's reply is shown for review, editable too, before it goes back to the server.
 *
 * VS Code's chat is on, as for a user with Copilot: its chat extension then lists Copilot CLI's
 * "Auto" model, which takes no input and answers with nothing. The models that answer are those of
 * the test extension test/fixtures/samplingModelExtension (`<model id> heard: <last message>`), so
 * the run needs no network. The server is the SDK fixture's `sample` tool, which returns what came
 * back on the wire; the test reads it in Run Tool's result document.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stdioFixture } from '../../scripts/lib/fixtures.mjs';
import { fixtureExtensionDir } from './agentWorkbench';
import {
  formFrame,
  hideNotifications,
  pickItem,
  openWorkbench,
  quickInput,
  runCommand,
  screenshot,
  screenshotIfFailed,
  waitForServers,
  type Workbench,
} from './workbench';

describe('Workbench: a sampling request is consented to, and its reply reviewed, before it goes back', () => {
  let wb: Workbench;
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-e2e-sampling-'));
  const models = fixtureExtensionDir('samplingModelExtension', 'mcp-test.sampling-model-0.0.1');

  before(async () => {
    wb = await openWorkbench({
      servers: {},
      // With chat on, mcp.json servers are VS Code's; this one is ours.
      workspaceSettings: { 'mcpElicitation.servers': { fixture: stdioFixture('fixture', recordDir) } },
      settings: {
        'chat.disableAIFeatures': false,
        'chat.mcp.autostart': 'never',
        'mcpElicitation.presentation': 'webview',
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
      },
      // Keeps VS Code's built-in chat extension enabled, as on a profile that has used chat (see chatAgent.test.ts).
      applicationStorage: { builtinChatExtensionEnablementMigration: 'true' },
      alsoInstalled: models,
    });
    await waitForServers(wb.page, 1);
    await runCommand(wb.page, 'Register the sampling test models');
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async (t) => {
    await screenshotIfFailed(wb.page, 'sampling', t);
  });

  const form = () => formFrame(wb.page);
  const accept = () => form().getByRole('button', { name: 'Accept', exact: true });
  const field = (label: string) => form().getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*?$`));

  it('the consent names the server and shows the chosen model and the messages; the edited request reaches the model; the reviewed reply is what the server gets', async () => {
    const { page } = wb;
    const params = {
      systemPrompt: 'You seat guests.',
      messages: [{ role: 'user', content: { type: 'text', text: 'Suggest a table for two' } }],
      maxTokens: 50,
      modelPreferences: { hints: [{ name: 'mini' }] },
    };
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    // The only server: Run Tool goes straight to its tools.
    await quickInput(page).getByText('Run Tool on fixture').first().waitFor();
    await pickItem(page, 'sample');
    // `params` is a free-form object, so Run Tool asks for the arguments as JSON.
    const args = quickInput(page).locator('input');
    await quickInput(page).getByText('Arguments for sample (JSON)').first().waitFor();
    await args.fill(JSON.stringify({ params }));
    await page.keyboard.press('Enter');

    // The consent.
    await accept().waitFor({ timeout: 60_000 });
    const f = form();
    assert.equal(await f.locator('.banner .server-name').textContent(), 'fixture');
    assert.match((await f.locator('.banner .message').textContent()) ?? '', /Sampling Large/);
    // The server's hint picks nothing the user has not chosen for it (issue 41): VS Code's first
    // model is preselected, and the user picks the one it hinted. Only models that answer are
    // offered (not Copilot CLI's "Auto").
    assert.ok(await field('Sampling Large (mcp-test-sampling)').isChecked());
    assert.equal(await field('Sampling Mini (mcp-test-sampling)').isChecked(), false);
    await field('Sampling Mini (mcp-test-sampling)').check();
    assert.equal(await f.getByLabel(/^Auto\b/).count(), 0);
    assert.equal(await field('System prompt').inputValue(), 'You seat guests.');
    const message = field('Message 1 (user)');
    assert.equal(await message.inputValue(), 'Suggest a table for two');
    await message.fill('Suggest a table for three');
    await screenshot(page, 'sampling-consent');
    await accept().click();

    // The review: the model's reply to the edited request, before anything goes back.
    const reply = field('Reply');
    await reply.waitFor({ timeout: 60_000 });
    assert.equal(await reply.inputValue(), 'sampling-mini heard: Suggest a table for three');
    assert.equal(await form().locator('.banner .server-name').textContent(), 'fixture');
    await reply.fill('sampling-mini heard: Suggest a table for three (by the window)');
    await screenshot(page, 'sampling-review');
    await accept().click();

    // What the server got, as its tool returned it into Run Tool's result document.
    const result = page.locator('.editor-instance .view-lines', { hasText: 'by the window' }).first();
    await result.waitFor({ timeout: 60_000 });
    const text = (await result.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /"model":\s?"sampling-mini"/);
    assert.match(text, /"text":\s?"sampling-mini heard: Suggest a table for three \(by the window\)"/);
    await hideNotifications(page);
  });
});
