/**
 * Playwright against the real workbench: each test file starts its own code-server with the
 * extension loaded from this folder (the workbench `payload`), a fresh workspace, and the demo or
 * fixture MCP servers; `close()` stops exactly what it started.
 */
import { mkdirSync, mkdtempSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
// The launcher modules are plain ESM shared with the scripts.
import { launchBrowser } from '../../scripts/lib/browser.mjs';
import { startCodeServer, workbenchUrl } from '../../scripts/lib/codeServer.mjs';
import { makeWorkspace, startHttpFixture, stdioFixture } from '../../scripts/lib/fixtures.mjs';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { STRAY_ACCEPT_MS } from '../../src/ui/quickInput/strayAccept';

export const SCREENSHOTS = path.join(repoRoot, 'test-results', 'screenshots');

export interface Workbench {
  readonly page: Page;
  readonly recordDir: string;
  readonly workspace: string;
  /** code-server's user data folder: its `logs/` hold every log the host wrote, the extension's too. */
  readonly userDataDir: string;
  /** Every URL the page tried to open in a new window (openExternal in the browser). */
  readonly popups: string[];
  /**
   * Opens another folder in the same page: the same code-server, browser profile and user data,
   * so the same SecretStorage and application storage, as when a user opens a second project.
   */
  openFolder(dir: string): Promise<void>;
  close(): Promise<void>;
}

export interface WorkbenchOptions {
  /** mcp.json servers; defaults to the demo stdio server plus the fixture. `null`: no mcp.json at all. */
  readonly servers?: Record<string, unknown> | null;
  /** mcp.json `inputs`. */
  readonly inputs?: unknown[];
  readonly settings?: Record<string, unknown>;
  readonly workspaceSettings?: Record<string, unknown>;
  /** More files of the workspace, by path relative to its folder (a `.mcp.json`, say). */
  readonly files?: Record<string, string>;
  readonly theme?: 'dark' | 'light';
  readonly withHttpDemo?: boolean;
  readonly locale?: string;
  readonly viewport?: { width: number; height: number };
  /** Use extensions installed in this folder instead of loading the development folder. */
  readonly extensionsDir?: string;
  /** Extensions installed in this folder run beside the development folder (test helpers). */
  readonly alsoInstalled?: string;
  /** Extension ids allowed to use proposed API, e.g. a test model's `requiresAuthorization`. */
  readonly enableProposedApi?: string[];
  /**
   * Entries of the workbench's application storage (kept in the browser's IndexedDB, so fresh for
   * each test) as they are when it first starts, as if a profile had been used before.
   */
  readonly applicationStorage?: Record<string, string>;
}

const THEMES = { dark: 'Default Dark Modern', light: 'Default Light Modern' } as const;

export async function openWorkbench(opts: WorkbenchOptions = {}): Promise<Workbench> {
  const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-e2e-rec-'));
  const demoRecord = path.join(recordDir, 'demo.jsonl');
  const servers =
    opts.servers !== undefined
      ? opts.servers
      : {
          demo: { command: 'node', args: [path.join(repoRoot, 'demo', 'servers', 'demoServer.mjs')], env: { DEMO_RECORD: demoRecord } },
          fixture: stdioFixture('fixture', recordDir),
        };
  const ws = makeWorkspace({
    servers,
    ...(opts.inputs ? { inputs: opts.inputs } : {}),
    ...(opts.workspaceSettings ? { settings: opts.workspaceSettings } : {}),
    ...(opts.files ? { files: opts.files } : {}),
  });
  const cs = await startCodeServer({
    workspace: ws.dir,
    settings: { 'workbench.colorTheme': THEMES[opts.theme ?? 'dark'], ...opts.settings },
    ...(opts.locale ? { locale: opts.locale } : {}),
    ...(opts.enableProposedApi ? { enableProposedApi: opts.enableProposedApi } : {}),
    ...((opts.extensionsDir ?? opts.alsoInstalled) ? { extensionsDir: opts.extensionsDir ?? opts.alsoInstalled } : {}),
  });
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const context = await browser.newContext({
      viewport: opts.viewport ?? { width: 1280, height: 800 },
      ...(opts.locale ? { locale: opts.locale } : {}),
    });
    const popups: string[] = [];
    context.on('page', (p) => {
      popups.push(p.url());
      p.on('framenavigated', (f) => {
        if (f === p.mainFrame()) popups.push(f.url());
      });
    });
    if (opts.applicationStorage) await context.addInitScript(seedApplicationStorage(opts.applicationStorage));
    const page = await context.newPage();
    const open = async (dir: string): Promise<void> => {
      await page.goto(workbenchUrl(cs, dir, opts.extensionsDir ? {} : { extensionDevelopmentPath: repoRoot }));
      await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
    };
    await open(ws.dir);
    const b = browser;
    return {
      page,
      recordDir,
      workspace: ws.dir,
      userDataDir: cs.userDataDir,
      popups,
      openFolder: open,
      close: async () => {
        await b.close().catch(() => undefined);
        await cs.stop();
        ws.dispose();
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await cs.stop();
    ws.dispose();
    throw err;
  }
}

/**
 * A script for the page that writes `entries` where the web workbench keeps its application storage,
 * before the workbench opens it: IndexedDB requests run in order, so its first read sees them. A
 * string: tsx would add helpers to a function that the page does not have.
 */
function seedApplicationStorage(entries: Record<string, string>): string {
  return `(() => {
    if (window.top !== window) return;
    const open = indexedDB.open('vscode-web-state-db-global', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('ItemTable');
    open.onsuccess = () => {
      const db = open.result;
      const tx = db.transaction('ItemTable', 'readwrite');
      for (const [key, value] of Object.entries(${JSON.stringify(entries)})) tx.objectStore('ItemTable').put(value, key);
      tx.oncomplete = () => db.close();
    };
  })()`;
}

/**
 * A question that opened by itself takes no answer for its first moments (STRAY_ACCEPT_MS,
 * src/ui/quickInput/strayAccept.ts), so an Enter meant for something else is not taken: the test
 * reads it for as long as a user would before it answers.
 */
export function readQuestion(page: Page): Promise<void> {
  return page.waitForTimeout(STRAY_ACCEPT_MS);
}

/** Runs a command from the palette by its full title ("Category: Title"). */
export async function runCommand(page: Page, title: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await page.keyboard.press('Enter');
}

/** Picks a row of the open quick pick by its visible text. */
export async function pickItem(page: Page, text: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  await input.fill(text);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await page.keyboard.press('Enter');
}

export function quickInput(page: Page) {
  return page.locator('.quick-input-widget');
}

/** Waits until the extension's servers are up (the status bar shows "MCP n/n"). */
export async function waitForServers(page: Page, count: number): Promise<void> {
  await page
    .locator('.statusbar-item', { hasText: `MCP ${count}/${count}` })
    .first()
    .waitFor({ timeout: 60_000 });
}

/** The webview form: two iframes deep. */
export function formFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * For a suite's `afterEach`: a screenshot of a failed test, named `<prefix>-failed-<its name>`, so
 * a failure in CI leaves the screen it failed on; a passed test, or a page that cannot be shot, adds
 * nothing.
 */
export async function screenshotIfFailed(page: Page, prefix: string, t: { readonly name: string }): Promise<void> {
  if (!('passed' in t) || t.passed) return;
  await screenshot(page, `${prefix}-failed-${t.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`).catch(() => undefined);
}

/** What a demo tool recorded, in order. */
export function demoRecords(wb: Workbench): { tool: string; result: { action: string; content?: Record<string, unknown> } }[] {
  const f = path.join(wb.recordDir, 'demo.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { tool: string; result: { action: string; content?: Record<string, unknown> } });
}

export type DemoRecord = ReturnType<typeof demoRecords>[number];

export async function waitForRecord(wb: Workbench, tool: string, count = 1, timeoutMs = 30_000): Promise<DemoRecord[]> {
  const t0 = Date.now();
  for (;;) {
    const recs = demoRecords(wb).filter((r) => r.tool === tool);
    if (recs.length >= count) return recs;
    if (Date.now() - t0 > timeoutMs) throw new Error(`no record for ${tool} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A notification with `text`, in the notification center. The smoke-test driver (which our harness
 * needs for the workbench `payload`) turns toasts off, so every notification lands only there.
 */
export async function notification(page: Page, text: string, timeoutMs = 20_000) {
  const center = page.locator('.notifications-center');
  const item = center.locator('.notification-list-item', { hasText: text }).first();
  const t0 = Date.now();
  for (;;) {
    // The center element exists only once it was opened; the workbench may close it again while it starts.
    if ((await page.locator('.notifications-center.visible').count()) === 0) {
      await page.locator('.statusbar-item[id="status.notifications"]').click();
    }
    const left = timeoutMs - (Date.now() - t0);
    try {
      await item.waitFor({ timeout: Math.max(1, Math.min(left, 5_000)) });
      return item;
    } catch (err) {
      if (left <= 5_000) throw err;
    }
  }
}

export async function hideNotifications(page: Page): Promise<void> {
  if ((await page.locator('.notifications-center.visible').count()) > 0) {
    await page.locator('.statusbar-item[id="status.notifications"]').click();
  }
}

/**
 * Settles whatever is still pending, from the pending list ("Decline All from ‹server›"). Escape
 * would not: it only sets a question aside, still pending. For cleanup after a failed test.
 */
export async function declineAllPending(page: Page): Promise<void> {
  const item = page.locator('[id$="mcpElicitation.pending"]');
  for (let i = 0; i < 5 && (await item.count()) > 0; i++) {
    await item.click();
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Decline All from' }).first();
    await row.waitFor({ timeout: 10_000 }).catch(() => undefined);
    if (await row.isVisible()) await row.click();
    await page.keyboard.press('Escape');
  }
}

export { startHttpFixture };
