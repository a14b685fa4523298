#!/usr/bin/env node
// `npm run docs:media`: the README's pictures, from real runs of the workbench (code-server) with
// the demo servers, in dark and light, plus an animated GIF of one elicitation answered end to end
// (needs ffmpeg: apt-get install ffmpeg). Writes docs/images/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from './hostPaths.mjs';
import { openWorkbench, pickItem, quickInput, runCommand, waitForServers, formFrame } from '../test/e2e/workbench.ts';

const OUT = path.join(repoRoot, 'docs', 'images');
mkdirSync(OUT, { recursive: true });

async function shot(page: Page, name: string): Promise<void> {
  // Quick input and dialogs fade in; wait for the animation to end so the picture is not see-through.
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  process.stdout.write(`  ${name}.png\n`);
}

async function runDemoTool(page: Page, title: string): Promise<void> {
  await runCommand(page, 'MCP Elicitation: Run Tool…');
  await pickItem(page, 'demo');
  await pickItem(page, title);
}

/** A cancelled or declined demo tool still returns a result, whose editor takes focus: wait for it. */
async function resultShown(page: Page, action: string): Promise<void> {
  await page
    .locator('.editor-instance .view-lines', { hasText: `The user chose "${action}"` })
    .first()
    .waitFor();
}

async function pictures(theme: 'dark' | 'light'): Promise<void> {
  const wb = await openWorkbench({ theme, viewport: { width: 1280, height: 760 } });
  const { page } = wb;
  try {
    await waitForServers(page, 2);
    await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    await page.locator('.pane', { hasText: 'MCP Servers' }).locator('.monaco-list-row', { hasText: 'Ask for a name' }).first().waitFor();
    await shot(page, `servers-view-${theme}`);

    await runDemoTool(page, 'Ask for a name');
    await quickInput(page).getByText('What should I call you?').waitFor();
    await page.keyboard.type('Ada');
    await shot(page, `inputbox-${theme}`);
    await page.keyboard.press('Enter');
    await page.locator('.editor-instance .view-lines', { hasText: 'Hello, Ada!' }).first().waitFor();

    await runDemoTool(page, 'Choose a region');
    await quickInput(page).getByText('US East (Virginia)').waitFor();
    await shot(page, `quickpick-${theme}`);
    await page.keyboard.press('Escape');
    await resultShown(page, 'cancel');

    await runCommand(page, 'View: Close All Editors');
    await runDemoTool(page, 'Everything form');
    await formFrame(page).getByRole('button', { name: 'Accept', exact: true }).waitFor();
    await shot(page, `form-webview-${theme}`);
    await formFrame(page).getByRole('button', { name: 'Cancel', exact: true }).click();
    await resultShown(page, 'cancel');

    await runCommand(page, 'View: Close All Editors');
    await runDemoTool(page, 'Connect an account');
    await page.locator('.monaco-dialog-box').waitFor();
    await shot(page, `url-consent-${theme}`);
    await page.locator('.monaco-dialog-box').getByRole('button', { name: 'Decline' }).click();
    await resultShown(page, 'decline');
  } finally {
    await wb.close();
  }
}

/** The pending list needs several prompts waiting at once; webview forms stay open behind it. */
async function pendingPicture(theme: 'dark' | 'light'): Promise<void> {
  const wb = await openWorkbench({ theme, viewport: { width: 1280, height: 760 }, settings: { 'mcpElicitation.presentation': 'webview' } });
  const { page } = wb;
  try {
    await waitForServers(page, 2);
    await runDemoTool(page, 'Burst of questions');
    const form = formFrame(page);
    await form.getByLabel('count', { exact: true }).fill('3');
    await form.getByRole('button', { name: 'Accept', exact: true }).click();
    await form.getByText('Question 1 of 3: keep going?').waitFor();
    const pendingItem = page.locator('[id$="mcpElicitation.pending"]');
    await pendingItem.filter({ hasText: '3' }).waitFor();
    await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    await pendingItem.click();
    await quickInput(page).getByText('Decline All from demo').waitFor();
    await shot(page, `pending-${theme}`);
    await pickItem(page, 'Decline All from demo');
  } finally {
    await wb.close();
  }
}

async function gif(): Promise<void> {
  const frames = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-gif-'));
  const wb = await openWorkbench({ theme: 'dark', viewport: { width: 1100, height: 640 } });
  const { page } = wb;
  let n = 0;
  let recording = true;
  const recorder = (async () => {
    while (recording) {
      await page.screenshot({ path: path.join(frames, `f${String(n++).padStart(4, '0')}.png`) });
    }
  })();
  try {
    await waitForServers(page, 2);
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await page.waitForTimeout(300);
    await pickItem(page, 'demo');
    await page.waitForTimeout(300);
    await pickItem(page, 'Ask for a name');
    await quickInput(page).getByText('What should I call you?').waitFor();
    await page.waitForTimeout(600);
    await page.keyboard.type('Ada Lovelace', { delay: 90 });
    await page.waitForTimeout(500);
    await page.keyboard.press('Enter');
    await page.locator('.editor-instance .view-lines', { hasText: 'Hello, Ada Lovelace!' }).first().waitFor();
    await page.waitForTimeout(1500);
  } finally {
    recording = false;
    await recorder;
    await wb.close();
  }
  const out = path.join(OUT, 'elicitation.gif');
  const r = spawnSync(
    'ffmpeg',
    [
      '-y',
      '-loglevel',
      'error',
      '-framerate',
      '5',
      '-i',
      path.join(frames, 'f%04d.png'),
      '-vf',
      'scale=800:-1:flags=lanczos,split[a][b];[a]palettegen=max_colors=96[p];[b][p]paletteuse=dither=bayer',
      out,
    ],
    { stdio: 'inherit' },
  );
  rmSync(frames, { recursive: true, force: true });
  if (r.status !== 0) throw new Error('ffmpeg failed (apt-get install ffmpeg)');
  process.stdout.write(`  elicitation.gif (${n} frames)\n`);
}

for (const theme of ['dark', 'light'] as const) {
  process.stdout.write(`${theme}:\n`);
  await pictures(theme);
  await pendingPicture(theme);
}
await gif();
