/**
 * Give Back restores exactly what was there (issue 23, item 3). Route asks the user for VS Code's
 * own "Enable" on the routed copy; by its collision rule VS Code then stores its own copy as
 * "disabled in this workspace" (its `mcp.enablement` storage), where before Route it stored
 * nothing. Give Back must lead the user to the one choice that deletes that entry again: the MCP
 * Servers view's "Enable" (VS Code's server options' "Enable" would store "enabled in this
 * workspace" instead). Compared: VS Code's stored enablement of its copy, read from the web
 * workbench's storage (IndexedDB) as VS Code keeps it, before Route and after Give Back.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { fixtureExtensionDir } from './agentWorkbench';
import { hideNotifications, notification, openWorkbench, pickItem, runCommand, screenshot, type Workbench } from './workbench';

/**
 * VS Code's stored enablement of one server, per storage database: the web workbench keeps the
 * profile's `mcp.enablement` in `vscode-web-state-db-global` and the workspace's in its own
 * database (`vscode-web-state-db-<workspace id>`), each a JSON list of [server id, enabled] pairs,
 * as `new Map(pairs)` writes it. `undefined` where nothing is stored.
 */
async function storedEnablement(page: Page, id: string): Promise<Record<string, boolean | undefined>> {
  return page.evaluate(async (serverId) => {
    const out: Record<string, boolean | undefined> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name?.startsWith('vscode-web-state-db-')) continue;
      const value = await new Promise<unknown>((resolve) => {
        const open = indexedDB.open(name);
        open.onerror = () => resolve(undefined);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('ItemTable')) return resolve(undefined);
          const get = db.transaction('ItemTable').objectStore('ItemTable').get('mcp.enablement');
          get.onsuccess = () => resolve(get.result);
          get.onerror = () => resolve(undefined);
        };
      });
      const pairs = typeof value === 'string' ? (JSON.parse(value) as [string, boolean][]) : [];
      const scope = name.endsWith('-global') ? 'profile' : name.endsWith('-global-shared') ? 'shared' : 'workspace';
      out[scope] = new Map(pairs).get(serverId);
    }
    return out;
  }, id);
}

/** Every storage entry whose key names MCP, per database: what a failure message shows. */
async function mcpStorage(page: Page): Promise<Record<string, Record<string, unknown>>> {
  return page.evaluate(async () => {
    const out: Record<string, Record<string, unknown>> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      out[name] = await new Promise<Record<string, unknown>>((resolve) => {
        const entries: Record<string, unknown> = {};
        const open = indexedDB.open(name);
        open.onerror = () => resolve(entries);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('ItemTable')) return resolve({ stores: [...db.objectStoreNames] });
          const cursor = db.transaction('ItemTable').objectStore('ItemTable').openCursor();
          cursor.onsuccess = () => {
            const c = cursor.result;
            if (!c) return resolve(entries);
            // The workbench's keys are strings.
            const key = typeof c.key === 'string' ? c.key : JSON.stringify(c.key);
            if (/mcp/i.test(key)) entries[key] = c.value;
            c.continue();
          };
          cursor.onerror = () => resolve(entries);
        };
      });
    }
    return out;
  });
}

/** Polls VS Code's storage until `want` holds: the workbench writes it to IndexedDB a moment after a change. */
async function waitForStored(
  page: Page,
  id: string,
  want: (s: Record<string, boolean | undefined>) => boolean,
  what: string,
): Promise<Record<string, boolean | undefined>> {
  const t0 = Date.now();
  let last: Record<string, boolean | undefined> = {};
  while (Date.now() - t0 < 30_000) {
    last = await storedEnablement(page, id);
    if (want(last)) return last;
    await page.waitForTimeout(250);
  }
  throw new Error(`${what}: VS Code stored ${JSON.stringify(last)}; its MCP entries: ${JSON.stringify(await mcpStorage(page))}`);
}

/** Runs one of our commands once the extension has activated and set the context that lists it. */
async function runOurCommand(page: Page, title: string): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    try {
      return await runCommand(page, title);
    } catch (err) {
      if (Date.now() - t0 > 120_000) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

const DEMO = { command: 'node', args: [path.join(repoRoot, 'demo', 'servers', 'demoServer.mjs')] };

describe('Workbench: after Route and Give Back, VS Code stores for its copy what it stored before Route', () => {
  let wb: Workbench;

  before(async () => {
    wb = await openWorkbench({
      servers: { demo: DEMO },
      files: { '.mcp.json': JSON.stringify({ mcpServers: { dotserver: DEMO } }, null, 2) },
      settings: { 'chat.disableAIFeatures': false, 'chat.mcp.autostart': 'never', 'mcpElicitation.offerRouting': false },
      applicationStorage: { builtinChatExtensionEnablementMigration: 'true' },
      alsoInstalled: fixtureExtensionDir('chatModelExtension', 'mcp-test.chat-model-0.0.1'),
      viewport: { width: 1440, height: 900 },
    });
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async (t) => {
    if ('passed' in t && !t.passed) await screenshot(wb.page, 'give-back-failed').catch(() => undefined);
  });

  /**
   * Route (with VS Code's Enable, as Route's notification asks), then Give Back (with the Enable
   * its notification names) for the server `name`, which VS Code knows as `id`; VS Code's stored
   * enablement of `id` must end as it was before Route.
   */
  async function roundTrip(name: string, id: string): Promise<void> {
    const { page } = wb;
    const before = await storedEnablement(page, id);
    assert.equal(before['workspace'], undefined, `nothing stored before Route: ${JSON.stringify(before)}`);
    assert.equal(before['profile'], undefined, `nothing stored before Route: ${JSON.stringify(before)}`);

    await runOurCommand(page, 'Route Through MCP Elicitation Host');
    await pickItem(page, name);
    const routed = await notification(page, `${name} now runs in MCP Elicitation Host`, 60_000);
    // VS Code reads our changed definitions a moment after Route tells it (asynchronously, after
    // the notification is up); options asked for before then open nothing. A person reads the
    // notification first; so does the test.
    await page.waitForTimeout(1_500);
    await routed.getByRole('button', { name: 'Enable in VS Code' }).focus();
    await page.keyboard.press('Enter');
    const enable = page.locator('.quick-input-list .monaco-list-row', { hasText: /^Enable/ }).first();
    await enable.waitFor({ timeout: 30_000 });
    await enable.click();
    await hideNotifications(page);
    // The reference: Route's Enable stored VS Code's copy as disabled in this workspace.
    await waitForStored(page, id, (s) => s['workspace'] === false, 'after Route and Enable, disabled in this workspace');

    await runOurCommand(page, 'Give Back to VS Code');
    await pickItem(page, name);
    const given = await notification(page, `${name} is VS Code's again`);
    assert.match(
      await given.innerText(),
      /"MCP Servers - Installed" in the Extensions view, choose "Enable" in its menu \(not "Enable \(Workspace\)"\)/,
    );
    await given.getByRole('button', { name: 'Show Installed MCP Servers' }).focus();
    await page.keyboard.press('Enter');
    await hideNotifications(page);
    const row = page.locator('.extensions-viewlet .monaco-list-row', { hasText: name }).first();
    await row.waitFor({ timeout: 30_000 });
    await screenshot(page, `give-back-mcp-servers-${name}`);
    await row.click({ button: 'right' });
    const item = page.locator('.monaco-menu .action-item', { hasText: /^Enable$/ }).first();
    await item.waitFor({ timeout: 10_000 });
    await screenshot(page, `give-back-enable-${name}`);
    await item.click();

    // Throws unless every entry is as before Route: here, nothing stored.
    await waitForStored(
      page,
      id,
      (s) => (['workspace', 'profile', 'shared'] as const).every((k) => s[k] === before[k]),
      'after Give Back and Enable, what was stored before Route',
    );
  }

  it('a server of .vscode/mcp.json: Give Back’s notification opens the installed MCP servers, whose "Enable" deletes what Route’s Enable stored', () =>
    roundTrip('demo', 'mcp.config.ws0.demo'));

  it('a server of the folder’s .mcp.json: the same round trip', () => roundTrip('dotserver', 'workspace-dot-mcp.0.dotserver'));
});
