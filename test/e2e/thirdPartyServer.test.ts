/**
 * A server nobody on the team wrote, as a user installs it: Microsoft's Azure MCP Server
 * (`@azure/mcp` from npm, .NET on the official C# MCP SDK). The user asks the chat agent to read
 * a Key Vault secret; before reading, the server asks the person to approve. That question must be
 * ours (attributed, on a native QuickPick with the server's own choices), and the agent must get
 * the server's answer to a decline.
 *
 * No language model can be installed offline, so test/fixtures/chatModelExtension calls the tool
 * named in the request with the JSON written there. The server runs in a network namespace of its
 * own (`unshare -rn`): it probes for an Azure host as it starts, and nothing may leave this machine.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { askAgentInChat, chatWorkbenchOptions, startFromMcpList, vscodeElicitationShown } from './agentWorkbench';
import { openWorkbench, quickInput, readQuestion, screenshot, screenshotIfFailed, waitForServers, type Workbench } from './workbench';

const AZMCP = path.join(repoRoot, 'node_modules', '@azure', 'mcp-linux-x64', 'dist', 'azmcp');

describe(
  'Workbench: a third-party server (Azure MCP, C# SDK) asks through the agent, and the question is ours',
  { skip: process.platform !== 'linux' || process.arch !== 'x64' },
  () => {
    let wb: Workbench;

    before(async () => {
      wb = await openWorkbench(
        chatWorkbenchOptions({
          azure: {
            command: 'unshare',
            args: ['-rn', '--', AZMCP, 'server', 'start', '--namespace', 'keyvault'],
            env: { AZURE_MCP_COLLECT_TELEMETRY: 'false' },
          },
        }),
      );
      await waitForServers(wb.page, 1);
    });
    after(async () => {
      await wb?.close();
    });
    afterEach(async (t) => {
      await screenshotIfFailed(wb.page, 'third-party', t);
    });

    it('the agent’s secret read asks here first: attributed, the server’s two choices by their titles; Decline reaches the server and the agent', async () => {
      const { page } = wb;
      const chat = page.locator('.part.auxiliarybar');

      await startFromMcpList(page, 'azure', 90_000);

      const request = {
        intent: 'read the database password',
        command: 'keyvault_secret_get',
        parameters: { vault: 'contoso-vault', secret: 'db-password', subscription: '00000000-0000-0000-0000-000000000000' },
      };
      const confirmation = await askAgentInChat(page, `Please keyvault ${JSON.stringify(request)}`, 'Azure Key Vault');
      await confirmation
        .getByRole('button', { name: /^Allow/ })
        .first()
        .click();

      const qi = quickInput(page);
      await qi.locator('.quick-input-titlebar', { hasText: 'MCP server “azure” asks' }).waitFor({ timeout: 60_000 });
      await qi
        .getByText(/keyvault_secret_get' may expose secrets/)
        .first()
        .waitFor();
      await readQuestion(page);
      // Each choice by the server's title, with the value it sends beneath (visible text only).
      const rows = await qi.locator('.quick-input-list .monaco-list-row').evaluateAll((rs) =>
        rs.map((r) =>
          (r as HTMLElement).innerText
            .trim()
            .split('\n')
            .map((l) => l.trim()),
        ),
      );
      assert.deepEqual(rows.slice(0, 2), [
        ['Approve', 'accept'],
        ['Reject', 'reject'],
      ]);
      assert.equal(await vscodeElicitationShown(page), 0, 'VS Code shows no prompt of its own');
      await screenshot(page, 'third-party-azure-question');

      await qi.getByRole('button', { name: 'Decline (tell the server no)' }).click();
      await chat.getByText('The tool answered: Operation cancelled by user (decline).').waitFor({ timeout: 60_000 });
      await screenshot(page, 'third-party-azure-declined');
    });
  },
);
