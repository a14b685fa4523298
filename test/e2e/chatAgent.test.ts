/**
 * The whole path as a user walks it: a prompt typed into the chat panel in agent mode, VS Code's
 * agent calling a tool of a server we broker, the question that tool raises answered in our form,
 * and the agent's answer built from the tool's result.
 *
 * No language model can be installed offline, so a test extension (test/fixtures/chatModelExtension)
 * contributes one: it calls the MCP tool named in the request, then repeats the tool's result. The
 * agent is VS Code's own (its built-in GitHub Copilot Chat extension, which runs without a GitHub
 * account once a model of another vendor is available).
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { askAgentInChat, chatWorkbenchOptions, demoModernServers, startFromMcpList, vscodeElicitationShown } from './agentWorkbench';
import {
  formFrame,
  hideNotifications,
  openWorkbench,
  screenshot,
  screenshotIfFailed,
  waitForRecord,
  waitForServers,
  type Workbench,
} from './workbench';

describe('Workbench: the chat panel in agent mode calls a brokered tool, and our form answers it', () => {
  let wb: Workbench;
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-e2e-chat-'));

  before(async () => {
    wb = await openWorkbench(chatWorkbenchOptions(demoModernServers(recordDir), { 'mcpElicitation.presentation': 'webview' }));
    await waitForServers(wb.page, 1);
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async (t) => {
    await screenshotIfFailed(wb.page, 'chat-agent', t);
  });

  it("a prompt in agent mode runs sign_up through our gateway; its form is ours; the answer carries the result; VS Code's own prompt never shows", async () => {
    const { page } = wb;
    const chat = page.locator('.part.auxiliarybar');

    await startFromMcpList(page, 'demo-modern');

    // VS Code asks before the agent runs an MCP tool (its confirmation, not an elicitation).
    const confirmation = await askAgentInChat(page, 'Please sign_up for me', 'Run Sign up');
    assert.match(await confirmation.innerText(), /demo-modern/, 'the confirmation names the server');
    await confirmation
      .getByRole('button', { name: /^Allow/ })
      .first()
      .click();

    const form = formFrame(page);
    await form.locator('.banner .server-name', { hasText: 'demo-modern' }).waitFor({ timeout: 60_000 });
    assert.equal(await form.locator('.banner .message').textContent(), 'Create your account');
    assert.equal(await form.locator('.field').count(), 3, 'name, e-mail and plan in one form');
    await chat
      .getByText(/Running Sign up/)
      .first()
      .waitFor({ timeout: 10_000 }); // the agent waits on the form
    await form.getByLabel(/^Name\*?$/).fill('Ada Lovelace');
    await form.getByLabel(/^E-mail\*?$/).fill('ada@example.com');
    await form.getByRole('radio', { name: 'Team' }).check();
    await screenshot(page, 'chat-agent-form');
    assert.equal(await vscodeElicitationShown(page), 0, 'while the agent waits on our form, VS Code shows no prompt of its own');
    await form.getByRole('button', { name: 'Accept', exact: true }).click();

    // The agent gets the tool's result and answers with it.
    const answer = chat.getByText('The tool answered: Welcome, Ada Lovelace (team plan).');
    await answer.waitFor({ timeout: 60_000 });
    await chat
      .getByText(/Ran Sign up/)
      .first()
      .waitFor();
    assert.deepEqual((await waitForRecord({ ...wb, recordDir }, 'sign_up'))[0]?.result, {
      action: 'accept',
      content: { name: 'Ada Lovelace', email: 'ada@example.com', plan: 'team' },
    });
    assert.equal(await vscodeElicitationShown(page), 0, 'nor afterwards');
    await screenshot(page, 'chat-agent-answer');
    // Toasts are off under the smoke-test driver: every notification lands in the centre, shown here.
    await page.locator('.statusbar-item[id="status.notifications"]').click();
    await page.locator('.notifications-center.visible').waitFor();
    assert.equal(await vscodeElicitationShown(page), 0, 'nothing with "Respond" in the notification centre');
    await hideNotifications(page);
  });
});
