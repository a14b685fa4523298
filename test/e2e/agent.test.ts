/**
 * VS Code's agent calls a tool of a server we broker, and the question the tool raises comes to
 * our UI. A helper extension (test/fixtures/agentPlayerExtension) plays the agent without a
 * language model: it starts the server through VS Code's own MCP client, which reaches it through
 * our gateway, and calls the tool with `vscode.lm.invokeTool`. The server speaks only MCP
 * 2026-07-28, which VS Code's own client cannot talk to.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoModernServers, fixtureExtensionDir, vscodeElicitationShown } from './agentWorkbench';
import {
  formFrame,
  openWorkbench,
  runCommand,
  screenshot,
  screenshotIfFailed,
  waitForRecord,
  waitForServers,
  type Workbench,
} from './workbench';

const EXTENSION_ID = 'mcp-elicitation.mcp-elicitation-host';

describe("Workbench: VS Code's agent calls a tool, and its form is ours", () => {
  let wb: Workbench;
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-e2e-agent-'));
  const players = fixtureExtensionDir('agentPlayerExtension', 'mcp-test.agent-player-0.0.1');

  before(async () => {
    wb = await openWorkbench({
      servers: {},
      workspaceSettings: {
        'mcpElicitation.servers': demoModernServers(recordDir),
      },
      settings: {
        'chat.disableAIFeatures': false,
        'chat.mcp.autostart': 'never',
        'mcpElicitation.presentation': 'webview',
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
      },
      alsoInstalled: players,
    });
    await waitForServers(wb.page, 1);
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async (t) => {
    await screenshotIfFailed(wb.page, 'agent', t);
  });

  it("a multi-field form raised under the agent is our webview, answered through it; the result reaches the invoking code; VS Code's own prompt never shows", async () => {
    const { page } = wb;
    const agentDir = path.join(wb.workspace, '.agent');
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(
      path.join(agentDir, 'request.json'),
      JSON.stringify({ server: `${EXTENSION_ID}/demo-modern`, tool: 'sign_up', input: {} }),
    );
    await runCommand(page, 'Agent Player: Invoke the Requested Tool');
    // VS Code's own confirmation before an agent runs a tool (not an elicitation): the user allows it.
    const confirm = page.locator('.monaco-dialog-box').filter({ has: page.locator('.dialog-message-text', { hasText: 'Run Sign up' }) });
    await confirm.waitFor({ timeout: 60_000 });
    await confirm.getByRole('button', { name: 'Yes', exact: true }).click();

    const form = formFrame(page);
    const accept = form.getByRole('button', { name: 'Accept', exact: true });
    const resultFile = path.join(agentDir, 'result.json');
    let shown = false;
    await Promise.race([
      form
        .locator('.banner .server-name', { hasText: 'demo-modern' })
        .waitFor({ timeout: 60_000 })
        .finally(() => (shown = true)),
      // A result before any form means the call went wrong: say how, instead of timing out.
      (async () => {
        while (!shown && !existsSync(resultFile)) await new Promise((r) => setTimeout(r, 200));
        if (!shown) throw new Error(`the agent's call ended before a form showed: ${readFileSync(resultFile, 'utf8')}`);
      })(),
    ]);
    assert.equal(await form.locator('.banner .message').textContent(), 'Create your account');
    assert.equal(await form.locator('.field').count(), 3, 'name, e-mail and plan in one form');
    await form.getByLabel(/^Name\*?$/).fill('Ada Lovelace');
    await form.getByLabel(/^E-mail\*?$/).fill('ada@example.com');
    await form.getByRole('radio', { name: 'Team' }).check();
    await screenshot(page, 'agent-gateway-form');
    // While the agent's call waits on our form, VS Code shows nothing of its own for it.
    assert.equal(await vscodeElicitationShown(page), 0, 'no "Respond" prompt from VS Code');
    await accept.click();

    const t0 = Date.now();
    while (!existsSync(resultFile)) {
      if (Date.now() - t0 > 30_000) throw new Error('the agent player never got a result');
      await new Promise((r) => setTimeout(r, 100));
    }
    const outcome = JSON.parse(readFileSync(resultFile, 'utf8')) as { tool?: string; text?: string; error?: string };
    assert.equal(outcome.error, undefined);
    assert.equal(outcome.text, 'Welcome, Ada Lovelace (team plan).', 'the tool result the agent got carries our answer');
    assert.deepEqual((await waitForRecord({ ...wb, recordDir }, 'sign_up'))[0]?.result, {
      action: 'accept',
      content: { name: 'Ada Lovelace', email: 'ada@example.com', plan: 'team' },
    });
    assert.equal(await vscodeElicitationShown(page), 0, 'and none afterwards, nor in the notification centre');

    // The Servers view says the agent is connected through the gateway.
    await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    await page
      .locator('.monaco-list-row', { hasText: 'demo-modern' })
      .filter({ hasText: 'agent connected' })
      .first()
      .waitFor({ timeout: 30_000 });
    await screenshot(page, 'agent-gateway-servers-view');
  });
});
