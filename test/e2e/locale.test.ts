import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { openWorkbench, pickItem, quickInput, runCommand, screenshot, waitForServers, type Workbench } from './workbench';

const de = (f: string): Record<string, string> => JSON.parse(readFileSync(path.join(repoRoot, f), 'utf8')) as Record<string, string>;

describe('Localization: German', () => {
  let wb: Workbench;
  before(async () => {
    wb = await openWorkbench({ locale: 'de' });
    await waitForServers(wb.page, 2);
  });
  after(async () => {
    await wb?.close();
  });

  it('shows translated command titles and translated prompt text', async () => {
    const nls = de('package.nls.de.json');
    const bundle = de('l10n/bundle.l10n.de.json');
    const runTool = `${nls['category']}: ${nls['command.runTool']}`;
    assert.notEqual(nls['command.runTool'], 'Run Tool…', 'the German title differs from the English one');
    await runCommand(wb.page, runTool);
    await pickItem(wb.page, 'demo');
    await pickItem(wb.page, 'Ask for a name');
    const asks = bundle['MCP server “{0}” asks'];
    assert.ok(asks, 'the attribution title is translated');
    const expected = asks.replace('{0}', 'demo');
    await quickInput(wb.page)
      .locator('.quick-input-title', { hasText: expected.split('demo')[0]?.trim() ?? expected })
      .waitFor({ timeout: 20_000 });
    await screenshot(wb.page, 'inputbox-german-dark');
    await wb.page.keyboard.press('Escape');
  });
});
