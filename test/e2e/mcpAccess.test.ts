/**
 * `chat.mcp.access: "registry"` as the user sees it in the Servers view. VS Code then runs only
 * servers installed from its MCP registry, none of `.vscode/mcp.json` or `.mcp.json`, so this
 * extension runs those (gateway/gateway.ts, reach `registryOnly`). The row and its tooltip must
 * say why the agent does not get them, naming the setting and the file; a server of our own
 * setting is still offered to the agent. The in-host side (who starts what) is
 * test/integration/zy_mcpAccess.test.ts.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import path from 'node:path';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { openWorkbench, screenshot, screenshotIfFailed, waitForServers, type Workbench } from './workbench';

describe('Workbench: chat.mcp.access "registry" in the Servers view', () => {
  let wb: Workbench;

  before(async () => {
    const fixture = (name: string): Record<string, unknown> => ({
      command: 'node',
      args: [path.join(repoRoot, 'test', 'fixtures', 'stdioServer.mjs'), name],
    });
    wb = await openWorkbench({
      // `.vscode/mcp.json` and `.mcp.json`: VS Code's files, which "registry" keeps VS Code from running.
      servers: { 'team-tools': fixture('team-tools') },
      files: { '.mcp.json': JSON.stringify({ mcpServers: { 'dot-tools': fixture('dot-tools') } }) },
      workspaceSettings: { 'mcpElicitation.servers': { 'my-tools': fixture('my-tools') } },
      settings: {
        'chat.disableAIFeatures': false,
        'chat.mcp.access': 'registry',
        'chat.mcp.autostart': 'never',
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
      },
    });
    await waitForServers(wb.page, 3);
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async (t) => {
    await screenshotIfFailed(wb.page, 'mcp-access', t);
  });

  it('the servers of .vscode/mcp.json and .mcp.json run here: their rows say the agent does not get them, and the tooltip says why, naming the file and the way back', async () => {
    const { page } = wb;
    await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    const view = page.locator('.pane', { hasText: 'MCP Servers' });
    await view.locator('.monaco-list-row', { hasText: 'echo' }).first().waitFor({ timeout: 60_000 });
    // Each server's tools fill the view: collapsed, every server's row is on screen.
    await view.locator('.pane-header').hover();
    await view.locator('.pane-header .action-label[aria-label="Collapse All"]').click();
    const description = async (name: string): Promise<string> => {
      const row = view.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: name }) }).first();
      await row.waitFor({ timeout: 30_000 });
      return (await row.locator('.label-description').innerText()).trim();
    };
    // The agent's reach comes first on a running server's row, where a narrow sidebar keeps it.
    assert.match(await description('team-tools'), /^not offered to the agent \(registry only\) · stdio · /);
    assert.match(await description('dot-tools'), /^not offered to the agent \(registry only\) · stdio · /);
    assert.match(await description('my-tools'), /^offered to the agent · stdio · /, 'our setting’s server still reaches the agent');

    const tooltip = async (name: string) => {
      // Off the list first, so the hover of the row before closes.
      await page.mouse.move(800, 600);
      await view
        .locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: name }) })
        .first()
        .hover();
      const hover = page.locator('.monaco-hover, .workbench-hover', { hasText: `${name} — ` }).first();
      await hover.waitFor({ timeout: 20_000 });
      return hover;
    };
    const dot = (await (await tooltip('dot-tools')).innerText()).replace(/\s+/g, ' ');
    assert.ok(
      dot.includes(`not those written in ${path.join(wb.workspace, '.mcp.json')}.`),
      `the tooltip names the server’s file:\n${dot}`,
    );
    const team = await tooltip('team-tools');
    const text = (await team.innerText()).replace(/\s+/g, ' ');
    for (const said of [
      'VS Code\'s agent: not offered. chat.mcp.access is "registry", so VS Code runs only servers installed from its MCP registry,',
      `not those written in ${path.join(wb.workspace, '.vscode', 'mcp.json')}.`,
      'This extension runs them instead, for Run Tool and other extensions.',
      'Once chat.mcp.access is "all" again, VS Code runs them and its agent gets them.',
    ]) {
      assert.ok(text.includes(said), `the tooltip says ${JSON.stringify(said)}:\n${text}`);
    }
    // Markdown escaped, not rendered: the path and the setting's name are plain text, never a link.
    assert.equal(await team.locator('a').count(), 0, 'no link in the tooltip');
    assert.ok(!text.includes('\\'), `no markdown escape shows: ${text}`);
    await screenshot(page, 'mcp-access-registry-tooltip');
  });
});
