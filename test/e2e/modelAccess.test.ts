/**
 * VS Code's own model-access dialog, for real (issue 24 item 2): a model that another extension
 * contributes with `requiresAuthorization` (test/fixtures/gatedModelExtension, as Copilot's models
 * are) may be used by this extension only after the user allows it in VS Code's dialog. The first
 * sample a server asks for brings that dialog up. Deny: the server gets `-32603` saying the user
 * did not allow it, and the user a notification saying why. Allow: the sample goes through.
 * The server is the SDK fixture's `sample` tool, set to `allow` so that no consent of ours comes
 * first; the tool returns what came back on the wire, read in Run Tool's result document.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { stdioFixture } from '../../scripts/lib/fixtures.mjs';
import { fixtureExtensionDir } from './agentWorkbench';
import {
  hideNotifications,
  pickItem,
  notification,
  openWorkbench,
  quickInput,
  runCommand,
  screenshot,
  screenshotIfFailed,
  waitForServers,
  type Workbench,
} from './workbench';

describe('Workbench: VS Code asks before this extension may use another extension’s model', () => {
  let wb: Workbench;
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-e2e-model-access-'));

  before(async () => {
    wb = await openWorkbench({
      servers: {},
      workspaceSettings: {
        'mcpElicitation.servers': { fixture: stdioFixture('fixture', recordDir) },
      },
      settings: {
        // The user's own choice to skip the sampling consent (an elicitation policy is none).
        'mcpElicitation.sampling.skipReview': { fixture: true },
        'chat.disableAIFeatures': false,
        'chat.mcp.autostart': 'never',
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
      },
      applicationStorage: { builtinChatExtensionEnablementMigration: 'true' },
      alsoInstalled: fixtureExtensionDir('gatedModelExtension', 'mcp-test.gated-model-0.0.1'),
      enableProposedApi: ['mcp-test.gated-model'],
    });
    await waitForServers(wb.page, 1);
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async (t) => {
    await screenshotIfFailed(wb.page, 'model-access', t);
  });

  /** Runs the fixture's `sample` tool with a hint for the gated model. */
  async function sample(page: Page, text: string): Promise<void> {
    const params = {
      messages: [{ role: 'user', content: { type: 'text', text } }],
      maxTokens: 50,
      modelPreferences: { hints: [{ name: 'gated' }] },
    };
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await quickInput(page).getByText('Run Tool on fixture').first().waitFor();
    await pickItem(page, 'sample');
    await quickInput(page).getByText('Arguments for sample (JSON)').first().waitFor();
    await quickInput(page).locator('input').fill(JSON.stringify({ params }));
    await page.keyboard.press('Enter');
  }

  const dialog = (page: Page) => page.locator('.monaco-dialog-box');
  const resultWith = (page: Page, text: string) => page.locator('.editor-instance .view-lines', { hasText: text }).first();

  it('Deny: the server gets -32603 saying the user did not allow it; the user is told', async () => {
    const { page } = wb;
    await sample(page, 'first try');
    await dialog(page).waitFor({ timeout: 60_000 });
    const text = (await dialog(page).innerText()).replace(/\s+/g, ' ');
    assert.match(text, /The extension 'MCP Elicitation Host' wants to access the language models provided by Gated Test Model\./);
    // Our sendRequest's justification, so the user sees why.
    assert.match(text, /Justification: An MCP server asked for a reply from a language model \(sampling\)\./);
    assert.deepEqual(await dialog(page).locator('.monaco-button').allInnerTexts(), ['Cancel', 'Allow']);
    await screenshot(page, 'model-access-dialog');
    await dialog(page).getByRole('button', { name: 'Cancel', exact: true }).click();

    const result = resultWith(page, '-32603');
    await result.waitFor({ timeout: 60_000 });
    assert.match(
      (await result.innerText()).replace(/\s+/g, ' '),
      /"message": "MCP error -32603: The user has not allowed this client to use the language model: Language model 'mcp-test-gated\/gated-model' cannot be used by/,
    );
    const note = await notification(page, 'has not been allowed to use language models');
    assert.match(await note.innerText(), /MCP server “fixture” asked for a reply from a language model/);
    await screenshot(page, 'model-access-denied');
    await hideNotifications(page);
  });

  it('Allow: VS Code asks again, and after Allow the sample goes through; the next one brings no dialog', async () => {
    const { page } = wb;
    await sample(page, 'second try');
    // A Cancel is not remembered: the next request asks again.
    await dialog(page).waitFor({ timeout: 60_000 });
    await dialog(page).getByRole('button', { name: 'Allow', exact: true }).click();
    const result = resultWith(page, 'gated-model heard: second try');
    await result.waitFor({ timeout: 60_000 });
    assert.match((await result.innerText()).replace(/\s+/g, ' '), /"model": "gated-model"/);
    await screenshot(page, 'model-access-allowed');

    await sample(page, 'third try');
    await resultWith(page, 'gated-model heard: third try').waitFor({ timeout: 60_000 });
    assert.equal(await dialog(page).count(), 0, 'access, once allowed, is not asked for again');
  });
});
