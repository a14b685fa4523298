import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import {
  formFrame,
  openWorkbench,
  quickInput,
  runCommand,
  screenshot,
  screenshotIfFailed,
  waitForServers,
  type Workbench,
} from './workbench';
import { stdioFixture } from '../../scripts/lib/fixtures.mjs';
import { repoRoot } from '../../scripts/hostPaths.mjs';

/**
 * A server of the draft spec's era: its tool fails with JSON-RPC error -32604 whose elicitations
 * carry the misspelled `elicitionId`, then succeeds. Built on the SDK's low-level `Server`, because
 * `McpServer` (and so the fixture) turns every tool error except -32042 into an `isError` result,
 * which never reaches the client as a protocol error. No `${` in it: mcp.json args are substituted.
 */
function draftServerScript(): string {
  const sdk = (p: string): string =>
    JSON.stringify(pathToFileURL(path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'sdk', 'dist', 'esm', p)).href);
  return [
    `import { Server } from ${sdk('server/index.js')};`,
    `import { StdioServerTransport } from ${sdk('server/stdio.js')};`,
    `import { CallToolRequestSchema, ListToolsRequestSchema, McpError } from ${sdk('types.js')};`,
    `let attempts = 0;`,
    `const s = new Server({ name: 'draft', version: '0.1.0' }, { capabilities: { tools: {} } });`,
    `s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'report', description: 'Needs a browser step first.', inputSchema: { type: 'object', properties: {} } }] }));`,
    `s.setRequestHandler(CallToolRequestSchema, async () => {`,
    `  attempts++;`,
    `  if (attempts === 1) throw new McpError(-32604, 'Elicitation required', { elicitations: [{ mode: 'url', url: 'https://auth.example.com/draft', elicitionId: 'dr1', message: 'Connect your account (draft server).' }] });`,
    `  return { content: [{ type: 'text', text: 'done after ' + attempts + ' attempts' }] };`,
    `});`,
    `await s.connect(new StdioServerTransport());`,
  ].join('\n');
}

/** One line of the fixture server's record file (see test/fixtures/fixtureServer.mjs). */
interface FixtureRecord {
  readonly kind: string;
  readonly tag?: string;
  readonly response?: { action: string; content?: unknown };
  readonly tool?: string;
  readonly elicitationId?: string;
  readonly attempt?: number;
}

/** The fixture's record file: this suite defines its own servers, so it names the folder. */
const recordDir = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-e2e-url-'));

function records(): FixtureRecord[] {
  const f = path.join(recordDir, 'fixture.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as FixtureRecord);
}

async function waitForRecord(what: string, pick: (r: FixtureRecord) => boolean, timeoutMs = 30_000): Promise<FixtureRecord> {
  const t0 = Date.now();
  for (;;) {
    const hit = records().find(pick);
    if (hit) return hit;
    if (Date.now() - t0 > timeoutMs) throw new Error(`the fixture recorded no ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function attempts(elicitationId: string): number {
  return records().filter((r) => r.kind === 'toolAttempt' && r.elicitationId === elicitationId).length;
}

/** Picks the quick pick row whose label is exactly `label` (tool names share prefixes: elicit, elicitMany). */
async function pickExact(page: Page, label: string): Promise<void> {
  await quickInput(page).locator('input').fill(label);
  const row = page
    .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
}

/** "MCP Elicitation: Run Tool…" → server → `tool`, from the palette as a user does it. */
async function runFixtureTool(page: Page, tool: string, server = 'fixture'): Promise<void> {
  await runCommand(page, 'MCP Elicitation: Run Tool…');
  await pickExact(page, server);
  await pickExact(page, tool);
}

/** `elicit` takes a record parameter, so Run Tool asks for its arguments as JSON. */
async function runElicit(page: Page, params: Record<string, unknown>, tag: string): Promise<void> {
  await runFixtureTool(page, 'elicit');
  await quickInput(page).locator('.quick-input-title', { hasText: 'Arguments for elicit' }).waitFor();
  await quickInput(page).locator('input').fill(JSON.stringify({ params, tag }));
  await page.keyboard.press('Enter');
}

/** `urlRequired` fits the elicitation schema subset, so Run Tool collects its arguments in the form. */
async function runUrlRequired(page: Page, args: { url: string; elicitationId: string; loop?: boolean }): Promise<void> {
  await runFixtureTool(page, 'urlRequired');
  const form = formFrame(page);
  // Required fields' labels end in a star.
  const field = (key: string): Locator => form.getByLabel(new RegExp(`^${key}\\*?$`));
  await field('url').fill(args.url);
  await field('elicitationId').fill(args.elicitationId);
  if (args.loop) await field('loop').check();
  await form.getByRole('button', { name: 'Accept', exact: true }).click();
}

/** The fixture's `complete` tool sends notifications/elicitation/complete; its one string field is an InputBox. */
async function completeFromPalette(page: Page, elicitationId: string): Promise<void> {
  // Result editors look alike; closing the old ones makes the next one found this call's.
  await runCommand(page, 'View: Close All Editors');
  await runFixtureTool(page, 'complete');
  await quickInput(page).locator('.quick-input-title', { hasText: 'Run Tool: complete' }).waitFor();
  await page.keyboard.type(elicitationId);
  await page.keyboard.press('Enter');
}

/**
 * The tool result opens in an editor after the server's answer; it takes focus and would close a
 * quick input opened meanwhile, so each step waits for it before the next one.
 */
async function waitForResultEditor(page: Page, text: string | RegExp): Promise<void> {
  await page.locator('.editor-instance .view-lines', { hasText: text }).first().waitFor({ timeout: 30_000 });
}

async function elicitResult(wb: Workbench, tag: string): Promise<FixtureRecord['response']> {
  const rec = await waitForRecord(`answer to "${tag}"`, (r) => r.tag === tag);
  await waitForResultEditor(wb.page, `"tag": "${tag}"`);
  return rec.response;
}

function dialog(page: Page): Locator {
  return page.locator('.monaco-dialog-box');
}

/** Title and detail of the open modal, waiting for one whose title matches. */
async function openDialog(page: Page, title: RegExp): Promise<{ box: Locator; title: string; detail: string }> {
  const box = dialog(page).filter({ has: page.locator('.dialog-message-text', { hasText: title }) });
  await box.waitFor({ timeout: 30_000 });
  return {
    box,
    title: await box.locator('.dialog-message-text').innerText(),
    detail: await box.locator('.dialog-message-detail').innerText(),
  };
}

async function click(box: Locator, button: string): Promise<void> {
  await box.getByRole('button', { name: button, exact: true }).click();
  await box.waitFor({ state: 'hidden' });
}

/**
 * VS Code's own link protection: openExternal to a domain the user has not trusted asks once more
 * ("Do you want code-server to open the external website?"). That is the workbench's dialog, not ours.
 */
async function confirmWorkbenchLinkPrompt(page: Page, screenshotName?: string): Promise<void> {
  const { box } = await openDialog(page, /open the external website/);
  if (screenshotName) await screenshot(page, screenshotName);
  await click(box, 'Open');
}

/** URLs of pages the workbench opened after `since` (the first entries are the workbench itself). */
function popupsSince(wb: Workbench, since: number): string[] {
  return wb.popups.slice(since).filter((u) => u !== 'about:blank');
}

async function waitForPopup(wb: Workbench, since: number, url: string): Promise<void> {
  const t0 = Date.now();
  while (!popupsSince(wb, since).includes(url)) {
    if (Date.now() - t0 > 20_000) throw new Error(`no page opened with ${url}; opened: ${JSON.stringify(popupsSince(wb, since))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // The new tab takes focus, and the workbench ignores keys until it is back in front.
  for (const p of wb.page.context().pages()) if (p !== wb.page) await p.close();
  await wb.page.bringToFront();
}

/**
 * The smoke-test driver (needed for the workbench `payload`) turns toasts off, so notifications
 * are read from the notification center. Cleared first, so a wait sees only the next one.
 */
async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
}

async function waitForNotification(page: Page, text: RegExp): Promise<string> {
  await runCommand(page, 'Notifications: Show Notifications');
  const item = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  await item.waitFor({ timeout: 30_000 });
  const shown = await item.innerText();
  await hideNotifications(page);
  return shown;
}

/** The center closes by itself when its last notification goes; the command exists only while it is open. */
async function hideNotifications(page: Page): Promise<void> {
  if (await page.locator('.notifications-center.visible').count()) await runCommand(page, 'Notifications: Hide Notifications');
}

/** The pending list (Show Pending Elicitations) row for `label`, in the awaiting-completion state. */
async function expectAwaitingCompletion(page: Page, label: string): Promise<void> {
  await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).filter({ hasText: 'url · awaiting completion' }).waitFor();
  await page.keyboard.press('Escape');
}

describe('Workbench: url-mode elicitation (consent dialog, completion, -32042 retry)', () => {
  let wb: Workbench;
  before(async () => {
    wb = await openWorkbench({
      servers: {
        fixture: stdioFixture('fixture', recordDir),
        draft: { type: 'stdio', command: 'node', args: ['--input-type=module', '-e', draftServerScript()] },
      },
    });
    // Stand-in for the sign-in site: the browser really navigates, and records the exact URL.
    await wb.page.context().route(
      (u) => u.hostname.endsWith('example.com'),
      (route) => route.fulfill({ contentType: 'text/html', body: '<title>sign-in stand-in</title>' }),
    );
    await waitForServers(wb.page, 2);
  });
  after(async () => {
    await wb?.close();
    rmSync(recordDir, { recursive: true, force: true });
  });
  afterEach(async (t) => {
    // What the workbench showed when a test failed, for diagnosis.
    await screenshotIfFailed(wb.page, 'url-mode', t);
  });

  // Percent-escapes in the query are where a re-serialised URL would differ from the one shown.
  const signInUrl = 'https://auth.example.com/authorize?x=1&redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb';

  it('shows server, site, host and exact URL; Open in Browser opens exactly that URL and the server gets accept', async () => {
    const { page } = wb;
    const since = wb.popups.length;
    await runElicit(page, { mode: 'url', message: 'Sign in', url: signInUrl, elicitationId: 'e1' }, 'open');
    const { box, title, detail } = await openDialog(page, /in your browser\?/);
    assert.equal(title, 'Open a page on example.com in your browser?');
    assert.match(detail, /^Host: auth\.example\.com$/m);
    assert.match(detail, /Requested by MCP server “fixture \(Fixture fixture 1\.0\.0\)”/);
    assert.ok(detail.split('\n').includes(signInUrl), `the full URL is shown verbatim:\n${detail}`);
    assert.match(detail, /Message from the server:\nSign in$/);
    // VS Code's link protection asks again for an untrusted domain; our dialog says so beforehand.
    assert.match(detail, /^After “Open in Browser”, VS Code's own link protection may ask once more before the page opens\.$/m);
    for (const b of ['Open in Browser', 'Copy URL', 'Decline']) {
      assert.equal(await box.getByRole('button', { name: b, exact: true }).count(), 1, `${b} button`);
    }
    await screenshot(page, 'url-consent-dark');
    // Nothing opens before the click.
    assert.deepEqual(popupsSince(wb, since), []);
    await click(box, 'Open in Browser');
    await confirmWorkbenchLinkPrompt(page, 'url-consent-link-protection-dark');
    await waitForPopup(wb, since, signInUrl);
    assert.deepEqual(await elicitResult(wb, 'open'), { action: 'accept' });
    assert.deepEqual(popupsSince(wb, since), [signInUrl], 'exactly one page, with exactly the URL shown');
  });

  it('keeps the accepted request pending until the server completes it, then names the server', async () => {
    const { page } = wb;
    await expectAwaitingCompletion(page, 'fixture: Sign in');
    // An unknown id changes nothing.
    await completeFromPalette(page, 'no-such-id');
    await waitForResultEditor(page, '# complete — fixture');
    await expectAwaitingCompletion(page, 'fixture: Sign in');
    await completeFromPalette(page, 'e1');
    await waitForResultEditor(page, '# complete — fixture');
    await page.locator('.statusbar-item', { hasText: 'fixture: browser step completed' }).first().waitFor({ timeout: 20_000 });
    await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
    await quickInput(page).locator('input[placeholder="Nothing is pending"]').waitFor();
    assert.equal(await page.locator('.quick-input-list .monaco-list-row', { hasText: 'fixture: Sign in' }).count(), 0);
    await page.keyboard.press('Escape');
  });

  it('Decline answers decline and Escape answers cancel; neither opens anything', async () => {
    const { page } = wb;
    const since = wb.popups.length;
    await runElicit(page, { mode: 'url', message: 'Sign in', url: 'https://auth.example.com/d', elicitationId: 'd1' }, 'decline');
    await click((await openDialog(page, /in your browser\?/)).box, 'Decline');
    assert.deepEqual(await elicitResult(wb, 'decline'), { action: 'decline' });

    await runElicit(page, { mode: 'url', message: 'Sign in', url: 'https://auth.example.com/c', elicitationId: 'c1' }, 'escape');
    const { box } = await openDialog(page, /in your browser\?/);
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden' });
    assert.deepEqual(await elicitResult(wb, 'escape'), { action: 'cancel' });
    assert.deepEqual(popupsSince(wb, since), []);
  });

  it('shows every warning for a look-alike host, with the host as registered', async () => {
    const { page } = wb;
    const url = 'https://xn--pple-43d.com:8443/login';
    await runElicit(page, { mode: 'url', message: 'Verify your Apple ID', url, elicitationId: 'w1' }, 'warn');
    const { box, title, detail } = await openDialog(page, /in your browser\?/);
    assert.equal(title, 'Open a page on xn--pple-43d.com in your browser?');
    assert.match(detail, /^Host: аpple\.com \(registered as xn--pple-43d\.com\), port 8443$/m);
    for (const w of [/international characters/, /mixes letters from different alphabets/, /can pass for apple\.com/, /port 8443/]) {
      assert.match(detail, w);
    }
    assert.equal(await box.locator('.codicon-dialog-warning').count(), 1, 'a warning dialog, not an info one');
    await screenshot(page, 'url-consent-warning-dark');
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'hidden' });
    assert.deepEqual(await elicitResult(wb, 'warn'), { action: 'cancel' });
  });

  it('refuses a blocked URL: says why, offers no Open, declines at once, opens nothing', async () => {
    const { page } = wb;
    const since = wb.popups.length;
    await runElicit(page, { mode: 'url', message: 'Click me', url: 'javascript:alert(1)', elicitationId: 'b1' }, 'blocked-js');
    let shown = await openDialog(page, /^Blocked a link from “fixture”/);
    assert.equal(shown.title, 'Blocked a link from “fixture” to javascript:');
    assert.doesNotMatch(shown.detail, /link protection/, 'a blocked link never opens: no word of a second prompt');
    assert.match(shown.detail, /"javascript:" scheme/);
    assert.ok(shown.detail.split('\n').includes('javascript:alert(1)'));
    assert.deepEqual(
      await shown.box.locator('.dialog-buttons .monaco-button').allInnerTexts(),
      ['OK'],
      'only OK: no Open, nothing to press by accident',
    );
    // The server is not kept waiting while the user reads why.
    assert.deepEqual(await elicitResult(wb, 'blocked-js'), { action: 'decline' });
    await screenshot(page, 'url-blocked-dark');
    await click(shown.box, 'OK');

    await runElicit(
      page,
      { mode: 'url', message: 'Refresh token', url: 'https://169.254.169.254/', elicitationId: 'b2' },
      'blocked-metadata',
    );
    shown = await openDialog(page, /^Blocked a link from “fixture”/);
    assert.equal(shown.title, 'Blocked a link from “fixture” to 169.254.169.254');
    assert.match(shown.detail, /cloud metadata service/);
    assert.equal(await shown.box.getByRole('button', { name: 'Open in Browser' }).count(), 0);
    await page.keyboard.press('Escape');
    await shown.box.waitFor({ state: 'hidden' });
    assert.deepEqual(await elicitResult(wb, 'blocked-metadata'), { action: 'decline' });
    assert.deepEqual(popupsSince(wb, since), []);
  });

  it('Copy URL copies and accepts only when the user will open it; the pending entry offers Open Again and Mark as Done', async () => {
    const { page } = wb;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const since = wb.popups.length;
    const url = 'https://auth.example.com/device?code=AB%2FCD';
    await runElicit(page, { mode: 'url', message: 'Authorise this device', url, elicitationId: 'k1' }, 'copy');
    await click((await openDialog(page, /in your browser\?/)).box, 'Copy URL');
    await click((await openDialog(page, /Will you open it yourself\?/)).box, 'Yes, I will open it');
    assert.deepEqual(await elicitResult(wb, 'copy'), { action: 'accept' });
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), url);
    assert.deepEqual(popupsSince(wb, since), []);

    // Open Again: the same consent, and only its button opens the page.
    await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'fixture: Authorise this device' })
      .filter({ hasText: 'awaiting completion' })
      .click();
    const again = await openDialog(page, /in your browser\?/);
    assert.ok(again.detail.split('\n').includes(url));
    await click(again.box, 'Open in Browser');
    await confirmWorkbenchLinkPrompt(page);
    await waitForPopup(wb, since, url);

    // Mark as Done: the server never sends completion; the user says the browser step is over.
    await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'fixture: Authorise this device' });
    await row.hover();
    await row.locator('.action-label[aria-label="Mark as Done"]').click();
    await quickInput(page).locator('input[placeholder="Nothing is pending"]').waitFor();
    await page.keyboard.press('Escape');
  });

  it('-32042: consent, wait for completion, retry once, show the result', async () => {
    const { page } = wb;
    const since = wb.popups.length;
    const url = 'https://auth.example.com/x';
    await runUrlRequired(page, { url, elicitationId: 'r1' });
    const { box, detail } = await openDialog(page, /in your browser\?/);
    assert.ok(detail.split('\n').includes(url));
    assert.match(detail, /Please finish signing in\.$/);
    await click(box, 'Open in Browser');
    await confirmWorkbenchLinkPrompt(page);
    await waitForPopup(wb, since, url);
    // The first call now waits for completion; a second tool call completes it.
    await expectAwaitingCompletion(page, 'fixture: Please finish signing in.');
    assert.equal(attempts('r1'), 1);
    await completeFromPalette(page, 'r1');
    await waitForResultEditor(page, 'done after 2 attempts');
    assert.equal(attempts('r1'), 2);
  });

  it('-32042 declined: the original error is shown and the tool is not retried', async () => {
    const { page } = wb;
    await clearNotifications(page);
    await runUrlRequired(page, { url: 'https://auth.example.com/n', elicitationId: 'n1' });
    await click((await openDialog(page, /in your browser\?/)).box, 'Decline');
    await waitForNotification(page, /urlRequired on fixture failed: .*URL elicitation required/);
    assert.equal(attempts('n1'), 1);
  });

  it('-32042: Cancel on the running tool stops waiting for completion, without a retry; the entry can be dismissed', async () => {
    const { page } = wb;
    await clearNotifications(page);
    await runUrlRequired(page, { url: 'https://auth.example.com/w', elicitationId: 'x1' });
    await click((await openDialog(page, /in your browser\?/)).box, 'Copy URL');
    await click((await openDialog(page, /Will you open it yourself\?/)).box, 'Yes, I will open it');
    await expectAwaitingCompletion(page, 'fixture: Please finish signing in.');
    await runCommand(page, 'Notifications: Show Notifications');
    const progress = page.locator('.notifications-center .notification-list-item', { hasText: 'Running urlRequired on fixture' });
    await progress.getByRole('button', { name: 'Cancel' }).click();
    await progress.waitFor({ state: 'hidden' });
    await hideNotifications(page);
    await waitForNotification(page, /urlRequired on fixture failed: .*URL elicitation required/);
    assert.equal(attempts('x1'), 1);
    // The entry stays listed (the server may still complete it) until the user dismisses it.
    await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'fixture: Please finish signing in.' });
    await row.hover();
    // An accepted url elicitation is dismissed, not cancelled: the server is not told anything.
    await row.locator('.action-label[aria-label="Dismiss"]').click();
    await quickInput(page).locator('input[placeholder="Nothing is pending"]').waitFor();
    await page.keyboard.press('Escape');
  });

  it('-32042 loop guard: a retry that asks for the same URL again is not retried', async () => {
    const { page } = wb;
    await clearNotifications(page);
    await runUrlRequired(page, { url: 'https://auth.example.com/loop', elicitationId: 'l1', loop: true });
    await click((await openDialog(page, /in your browser\?/)).box, 'Copy URL');
    await click((await openDialog(page, /Will you open it yourself\?/)).box, 'Yes, I will open it');
    await completeFromPalette(page, 'l1');
    await waitForResultEditor(page, '# complete — fixture');
    await waitForNotification(page, /urlRequired on fixture failed: .*URL elicitation required/);
    assert.equal(attempts('l1'), 2);
    // No third attempt and no second consent dialog.
    assert.equal(await dialog(page).count(), 0);
  });

  it('draft -32604 with `elicitionId` is handled the same; Mark as Done stands in for completion', async () => {
    const { page } = wb;
    await runFixtureTool(page, 'report', 'draft');
    const { box, detail } = await openDialog(page, /in your browser\?/);
    assert.ok(detail.split('\n').includes('https://auth.example.com/draft'));
    assert.match(detail, /Requested by MCP server “draft/);
    await click(box, 'Copy URL');
    await click((await openDialog(page, /Will you open it yourself\?/)).box, 'Yes, I will open it');
    // This server never sends completion: the user says the browser step is over.
    await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
    const row = page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'draft: Connect your account' })
      .filter({ hasText: 'awaiting completion' });
    await row.hover();
    await row.locator('.action-label[aria-label="Mark as Done"]').click();
    await page.keyboard.press('Escape');
    await waitForResultEditor(page, 'done after 2 attempts');
  });
  // Last in the suite: in one of several full runs, the webview forms of the tests that followed it
  // stayed blank (cause not found; see the closing note of 2026-11-23).
  it("Open in Browser, but the browser does not open (VS Code's link prompt cancelled): cancel, not accept; the user is told and can take the link; the history says so", async () => {
    const { page } = wb;
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const since = wb.popups.length;
    const url = 'https://auth.example.com/refused?state=1';
    await runElicit(page, { mode: 'url', message: 'Sign in, refused', url, elicitationId: 'nf1' }, 'not-opened');
    await click((await openDialog(page, /in your browser\?/)).box, 'Open in Browser');
    // VS Code's own link protection asks; the user changes their mind there, and openExternal resolves false.
    await click((await openDialog(page, /open the external website/)).box, 'Cancel');
    const told = await openDialog(page, /did not open$/);
    assert.equal(told.title, 'The page on example.com did not open');
    assert.match(told.detail, /^Unless you open it yourself, “fixture” is told the request was cancelled\.$/m);
    assert.ok(told.detail.split('\n').includes(url), `the full URL is shown:\n${told.detail}`);
    assert.equal(await told.box.getByRole('button', { name: 'Copy URL', exact: true }).count(), 1);
    await screenshot(page, 'url-not-opened-dark');
    assert.equal(records().filter((r) => r.tag === 'not-opened').length, 0, 'no answer while the user reads it');
    await page.keyboard.press('Escape');
    await told.box.waitFor({ state: 'hidden' });
    assert.deepEqual(await elicitResult(wb, 'not-opened'), { action: 'cancel' });
    assert.deepEqual(popupsSince(wb, since), []);

    // The history names what happened.
    const tree = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Pending Elicitations' }) });
    if (!(await tree.isVisible())) await page.locator('.activitybar [aria-label^="MCP Elicitation"]').first().click();
    const history = tree.locator('.monaco-list-row', { hasText: /^History/ });
    const row = tree.locator('.monaco-list-row', { hasText: 'fixture: Sign in, refused' });
    // Earlier tests may have left History expanded, and the view refreshes as the queue changes:
    // expand it (collapsing first if it shows no rows) until the row is there.
    for (let attempt = 0; attempt < 3 && !(await row.isVisible()); attempt++) {
      if ((await history.getAttribute('aria-expanded')) === 'true') await history.click();
      await history.click();
      await row.waitFor({ timeout: 5_000 }).catch(() => undefined);
    }
    await row.waitFor();
    assert.match((await row.innerText()).replace(/\s+/g, ' '), /cancel · user · browser did not open/);

    // Taking the link instead: Copy URL, "I will open it", and the server gets accept.
    await runElicit(page, { mode: 'url', message: 'Sign in, copied', url, elicitationId: 'nf2' }, 'not-opened-copied');
    await click((await openDialog(page, /in your browser\?/)).box, 'Open in Browser');
    await click((await openDialog(page, /open the external website/)).box, 'Cancel');
    await click((await openDialog(page, /did not open$/)).box, 'Copy URL');
    await click((await openDialog(page, /Will you open it yourself\?/)).box, 'Yes, I will open it');
    assert.deepEqual(await elicitResult(wb, 'not-opened-copied'), { action: 'accept' });
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), url);
    assert.deepEqual(popupsSince(wb, since), []);
    await runCommand(page, 'MCP Elicitation: Show Pending Elicitations');
    const pending = page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'fixture: Sign in, copied' })
      .filter({ hasText: 'awaiting completion' });
    await pending.hover();
    await pending.locator('.action-label[aria-label="Mark as Done"]').click();
    await quickInput(page).locator('input[placeholder="Nothing is pending"]').waitFor();
    await page.keyboard.press('Escape');
  });
});
