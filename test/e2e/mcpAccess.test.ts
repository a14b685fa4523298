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

  let opened = false;
  /** Opens the Servers view once (a second click on its icon would close it), its server rows collapsed so that every row is on screen. */
  const serversView = async () => {
    const { page } = wb;
    const view = page.locator('.pane', { hasText: 'MCP Servers' });
    if (opened) return view;
    opened = true;
    await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    await view.locator('.monaco-list-row', { hasText: 'echo' }).first().waitFor({ timeout: 60_000 });
    // Each server's tools fill the view: collapsed, every server's row is on screen.
    await view.locator('.pane-header').hover();
    await view.locator('.pane-header .action-label[aria-label="Collapse All"]').click();
    return view;
  };
  const rowOf = (name: string) =>
    wb.page
      .locator('.pane', { hasText: 'MCP Servers' })
      .locator('.monaco-list-row', { has: wb.page.locator('.label-name', { hasText: name }) })
      .first();
  const description = async (name: string): Promise<string> => {
    const row = rowOf(name);
    await row.waitFor({ timeout: 30_000 });
    return (await row.locator('.label-description').innerText()).trim();
  };
  /** The row's name and description as drawn: `cut` when the sidebar ends them with an ellipsis. */
  const drawn = async (name: string) => {
    // Off the list, no hover open: a hovered row gives part of its width to its inline actions.
    await wb.page.mouse.move(800, 600);
    await wb.page.keyboard.press('Escape');
    return rowOf(name)
      .locator('.monaco-icon-label-container')
      .evaluate((el) => ({
        cut: el.scrollWidth > el.clientWidth,
        width: el.clientWidth,
        sidebar: el.closest('.part.sidebar')?.clientWidth,
      }));
  };
  /** The row's hover, its lines as shown. */
  const tooltip = async (name: string, first: string) => {
    // Off the list first, so the hover of the row before closes.
    await wb.page.mouse.move(800, 600);
    await rowOf(name).hover();
    const hover = wb.page.locator('.monaco-hover, .workbench-hover', { hasText: first }).first();
    await hover.waitFor({ timeout: 20_000 });
    return hover;
  };
  const linesOf = async (hover: Awaited<ReturnType<typeof tooltip>>) =>
    (await hover.innerText())
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);

  it('the servers of .vscode/mcp.json and .mcp.json run here: their rows say the agent does not get them, and the tooltip says why, naming the file and the way back', async () => {
    const { page } = wb;
    await serversView();
    // The agent's reach comes first on a running server's row, where a narrow sidebar keeps it.
    assert.match(await description('team-tools'), /^not offered to the agent \(registry only\) · stdio · /);
    assert.match(await description('dot-tools'), /^not offered to the agent \(registry only\) · stdio · /);
    assert.match(await description('my-tools'), /^offered to the agent · stdio · /, 'our setting’s server still reaches the agent');

    const dot = (await (await tooltip('dot-tools', 'dot-tools — running')).innerText()).replace(/\s+/g, ' ');
    assert.ok(
      dot.includes(`not those written in ${path.join(wb.workspace, '.mcp.json')}.`),
      `the tooltip names the server’s file:\n${dot}`,
    );
    const team = await tooltip('team-tools', 'team-tools — running');
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

  it('a running server’s tooltip: its name and state on the first line, then one fact a line, none repeated from the row or from each other', async () => {
    await serversView();
    const row = await description('team-tools');
    const lines = await linesOf(await tooltip('team-tools', 'team-tools — running'));
    // It began `team-tools — ` and the whole row, so the revision and the transport came twice.
    assert.equal(lines[0], 'team-tools — running', lines.join('\n'));
    assert.ok(!lines[0]?.includes(row), `the first line repeats the row: ${lines[0]}`);
    for (const fact of ['Transport: stdio', 'Server reports: team-tools 1.0.0', 'Elicitation policy: allow']) {
      assert.equal(lines.filter((l) => l === fact).length, 1, `${fact}, once:\n${lines.join('\n')}`);
    }
    const revision = lines.find((l) => l.startsWith('MCP revision: '));
    assert.ok(revision, lines.join('\n'));
    const all = lines.join('\n');
    assert.equal(all.split(revision.slice('MCP revision: '.length)).length - 1, 1, `the revision, once:\n${all}`);
    assert.equal(all.split('stdio').length - 1, 1, `the transport, once:\n${all}`);
    assert.equal(new Set(lines).size, lines.length, `no line twice:\n${all}`);
  });

  it('a stopped server’s row says it is stopped and that the agent does not get it, in full in a sidebar of default width', async () => {
    const { page } = wb;
    await serversView();
    // The check below sees a cut: a running row's versions are beyond the sidebar's edge.
    assert.equal((await drawn('team-tools')).cut, true, 'the running row is cut (the tooltip has the rest)');
    await rowOf('team-tools').hover();
    await rowOf('team-tools').locator('.action-label[aria-label="Stop Server"]').click();
    const t0 = Date.now();
    while (!(await description('team-tools')).includes('stopped')) {
      if (Date.now() - t0 > 20_000) throw new Error(`not stopped: ${await description('team-tools')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // It read `stdio · stopped · not offered to the agent (registry only)`, cut after "not off…".
    assert.equal(await description('team-tools'), 'stopped · registry only');
    const shown = await drawn('team-tools');
    assert.ok(shown.sidebar !== undefined && shown.sidebar <= 320, `a sidebar of default width: ${shown.sidebar}px`);
    assert.equal(shown.cut, false, `the row is drawn in full in ${shown.width}px`);
    await screenshot(page, 'mcp-access-stopped-row');

    const lines = await linesOf(await tooltip('team-tools', 'team-tools — stopped'));
    assert.equal(lines[0], 'team-tools — stopped', lines.join('\n'));
    assert.ok(lines.includes('Transport: stdio'), lines.join('\n'));
    assert.ok(!lines.some((l) => l.startsWith('MCP revision')), `no revision of a stopped server:\n${lines.join('\n')}`);
    assert.ok(lines.join(' ').includes('chat.mcp.access is "registry"'), lines.join('\n'));
    await screenshot(page, 'mcp-access-stopped-tooltip');
  });
});
