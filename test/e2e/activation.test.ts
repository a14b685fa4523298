// Issue 40, item 3: the extension activates wherever it has work. Servers written only in the
// extension's own setting, in user settings or in a `.code-workspace` file, with no mcp.json in
// any folder: "Run Tool…" is in the palette as soon as the window is up, the server starts by
// itself (the status bar counts it), and its question opens when the tool runs. Before, nothing
// activated the extension there: the palette had no Run Tool and no server started.
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openWorkbench, pickItem, quickInput, readQuestion, runCommand, screenshot, waitForServers, type Workbench } from './workbench';
import { repoRoot } from '../../scripts/hostPaths.mjs';

const records = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-activation-'));
const demo = (name: string): Record<string, unknown> => ({
  command: 'node',
  args: [path.join(repoRoot, 'demo', 'servers', 'demoServer.mjs')],
  env: { DEMO_RECORD: path.join(records, `${name}.jsonl`) },
});

function answered(name: string): unknown[] {
  const f = path.join(records, `${name}.jsonl`);
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { result?: unknown }).result);
}

async function waitForAnswer(name: string): Promise<unknown> {
  for (let i = 0; i < 300; i++) {
    const got = answered(name);
    if (got.length > 0) return got[0];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name}: no answer recorded`);
}

/** Runs the demo's "Ask for a name" from the palette and answers its InputBox. */
async function runAskName(wb: Workbench, server: string): Promise<void> {
  const { page } = wb;
  await runCommand(page, 'MCP Elicitation: Run Tool…');
  // One server, running: Run Tool goes straight to its tools.
  await pickItem(page, 'Ask for a name');
  await quickInput(page).locator('.quick-input-title', { hasText: server }).waitFor();
  await readQuestion(page);
  await page.keyboard.type('Grace Hopper');
  await page.keyboard.press('Enter');
  assert.deepEqual(await waitForAnswer(server), { action: 'accept', content: { name: 'Grace Hopper' } });
}

describe('Activation: servers only in the mcpElicitation.servers setting, no mcp.json anywhere', () => {
  let wb: Workbench;
  const folder = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-plain-'));
  before(async () => {
    wb = await openWorkbench({ servers: null, settings: { 'mcpElicitation.servers': { 'in-user-settings': demo('in-user-settings') } } });
  });
  after(async () => {
    await wb?.close();
    rmSync(records, { recursive: true, force: true });
    rmSync(folder, { recursive: true, force: true });
  });

  it('in user settings: the server starts with the window, and Run Tool… is in the palette and runs it', async () => {
    assert.ok(!existsSync(path.join(wb.workspace, '.vscode', 'mcp.json')), 'the folder has no mcp.json');
    await waitForServers(wb.page, 1);
    // The palette, as the window opened: Run Tool is there.
    await wb.page.keyboard.press('F1');
    await wb.page.locator('.quick-input-widget input').fill('>MCP Elicitation: Run Tool');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'MCP Elicitation: Run Tool…' }).first().waitFor();
    await screenshot(wb.page, 'activation-user-settings');
    await wb.page.keyboard.press('Escape');
    await runAskName(wb, 'in-user-settings');
  });

  it('in a .code-workspace file only: the same, after opening it', async () => {
    const settingsFile = path.join(wb.userDataDir, 'User', 'settings.json');
    const user = JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
    delete user['mcpElicitation.servers'];
    writeFileSync(settingsFile, JSON.stringify(user, null, 2));
    mkdirSync(path.join(folder, 'src'), { recursive: true });
    const file = path.join(folder, 'team.code-workspace');
    writeFileSync(
      file,
      JSON.stringify(
        { folders: [{ path: 'src' }], settings: { 'mcpElicitation.servers': { 'in-workspace-file': demo('in-workspace-file') } } },
        null,
        2,
      ),
    );
    await wb.openFolder(file);
    await waitForServers(wb.page, 1);
    await runAskName(wb, 'in-workspace-file');
  });
});
