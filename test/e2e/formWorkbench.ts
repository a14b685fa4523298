/**
 * The workbench both form suites run in (formQuick, formWebview): the demo server and the
 * injection fixture (also as `asker`, under the `ask` policy), which append every answer to one file in `recordDir`, under the presentation
 * on trial. A failed test leaves a screenshot, and no test leaves a prompt on screen: later
 * requests would queue behind it.
 */
import { after, afterEach, before } from 'node:test';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { openWorkbench, runCommand, screenshot, waitForServers, type Workbench } from './workbench';

const PENDING = '[id$="mcpElicitation.pending"]';

/**
 * Registers the suite's hooks and returns its workbench, whose page exists once `before` has run.
 * @param dismiss takes a prompt left on screen away (Escape for a quick input, closing the editor for a webview form)
 */
export function formWorkbench(presentation: 'quickInput' | 'webview', dismiss: (page: Page) => Promise<void>): Workbench {
  const recordDir = mkdtempSync(path.join(os.tmpdir(), `mcp-eh-e2e-${presentation}-`));
  const record = path.join(recordDir, 'demo.jsonl');
  let opened: Workbench | undefined;
  const current = (): Workbench => {
    if (!opened) throw new Error('the form workbench opens in the suite’s before hook');
    return opened;
  };

  before(async () => {
    opened = await openWorkbench({
      servers: {
        demo: { command: 'node', args: [path.join(repoRoot, 'demo', 'servers', 'demoServer.mjs')], env: { DEMO_RECORD: record } },
        inject: { command: 'node', args: [path.join(repoRoot, 'test', 'fixtures', 'injectionServer.mjs')], env: { DEMO_RECORD: record } },
        // The same fixture under the `ask` policy: its questions wait behind a notification.
        asker: { command: 'node', args: [path.join(repoRoot, 'test', 'fixtures', 'injectionServer.mjs')], env: { DEMO_RECORD: record } },
      },
      // The form is what is on trial; an empty secondary side bar only narrows the screenshots.
      settings: {
        'mcpElicitation.presentation': presentation,
        'mcpElicitation.serverPolicy': { asker: 'ask' },
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
      },
    });
    await waitForServers(opened.page, 3);
  });
  after(async () => {
    await opened?.close();
  });
  afterEach(async (t) => {
    const { page } = current();
    // `passed` exists from Node 21 on; on Node 20 no failure screenshot is taken.
    if ((t as { passed?: boolean }).passed === false) await screenshot(page, `failed-${t.name.slice(0, 40).replace(/\W+/g, '-')}`);
    if ((await page.locator(PENDING).count()) === 0) return;
    await dismiss(page);
    await page.locator(PENDING).waitFor({ state: 'detached', timeout: 10_000 });
    // The cancelled tool's result editor opens and takes focus; let it, then close it, before the next test uses the palette.
    await page.locator('.editor-instance .monaco-editor.focused').waitFor();
    await runCommand(page, 'View: Close All Editors');
  });

  return {
    get page() {
      return current().page;
    },
    recordDir,
    get workspace() {
      return current().workspace;
    },
    get userDataDir() {
      return current().userDataDir;
    },
    get popups() {
      return current().popups;
    },
    openFolder: (dir) => current().openFolder(dir),
    close: () => current().close(),
  };
}
