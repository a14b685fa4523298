/**
 * For a suite whose tests share one workbench: what a test leaves behind is taken away before the
 * next one starts, and what a failed test left is recorded first. Left behind, an open picker or
 * question would take the next test's keys, and a tool result that arrives late would open an
 * editor that takes focus and closes the next test's palette mid-command (VS Code then keeps the
 * palette for its 150 ms fade-out, `inert`, which is how such a failure reads).
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { declineAllPending, demoRecords, hideNotifications, runCommand, screenshot, type Workbench } from './workbench';

const PENDING = '[id$="mcpElicitation.pending"]';
const CENTER_ITEM = '.notifications-center .notification-list-item';
/** Run Tool's progress notification: the tool has not returned yet. */
const RUNNING = /Running \S+ on \S+…/;

/**
 * Runs in the page from the start of the suite: a timeline of focus, keys, quick input and dialogs
 * (what a screenshot taken after a failure no longer shows), and every tool result shown. A string:
 * tsx would add helpers to a function that the page does not have.
 */
const WATCH = `(() => {
  const e2e = (window.__e2e = { trail: [], results: new Set() });
  const t0 = Date.now();
  const where = function (el) {
    if (!el || !el.closest) return String(el);
    const parts = [['.quick-input-widget', 'quick input'], ['.notifications-center', 'notifications'], ['.monaco-dialog-box', 'dialog'], ['.context-view', 'menu'], ['.editor-instance', 'editor'], ['.part.sidebar', 'side bar'], ['.part.statusbar', 'status bar']];
    const part = parts.find(function (p) { return el.closest(p[0]); });
    return (part ? part[1] : 'page') + ' ' + el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0];
  };
  const log = function (s) {
    const tab = document.querySelector('.tab.active');
    e2e.trail.push((Date.now() - t0) + ' ms  ' + s + '  [tab ' + (tab ? tab.textContent : '-') + ']');
    if (e2e.trail.length > 300) e2e.trail.shift();
  };
  let qiLast = '';
  const quickInput = function (q) {
    const title = q.querySelector('.quick-input-title');
    const input = q.querySelector('input');
    const s = (q.style.display === 'none' ? 'hidden' : q.inert ? 'closing (inert)' : 'open') + ': ' + ((title && title.textContent) || (input && input.placeholder) || '');
    if (s !== qiLast) log('quick input ' + (qiLast = s));
  };
  const result = function (el) {
    const uri = el.getAttribute && el.getAttribute('data-uri');
    if (uri && uri.startsWith('mcp-tool-result:') && !e2e.results.has(uri)) {
      e2e.results.add(uri);
      log('tool result shown ' + uri);
    }
  };
  document.addEventListener('focusin', function (e) { log('focus ' + where(e.target)); }, true);
  document.addEventListener('keydown', function (e) { log('key ' + e.key + ' in ' + where(e.target)); }, true);
  new MutationObserver(function (ms) {
    for (const m of ms) {
      if (m.type === 'attributes') {
        if (m.attributeName === 'data-uri') result(m.target);
        else if (m.target.classList.contains('quick-input-widget')) quickInput(m.target);
        continue;
      }
      for (const n of m.addedNodes) {
        if (!(n instanceof HTMLElement)) continue;
        if (n.matches('.monaco-dialog-modal-block, .monaco-dialog-box') || n.querySelector('.monaco-dialog-box')) log('dialog: ' + n.innerText.slice(0, 200));
        result(n);
        n.querySelectorAll('[data-uri]').forEach(result);
      }
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-uri', 'class', 'style', 'inert'] });
})()`;

export async function watchWorkbench(page: Page): Promise<void> {
  await page.evaluate(WATCH);
}

/** What is on screen now, and the timeline before it. */
const REPORT = `(() => {
  const q = document.querySelector('.quick-input-widget');
  const text = function (sel) { return [...document.querySelectorAll(sel)].map(function (e) { return e.innerText.replace(/\\s+/g, ' ').trim(); }); };
  const a = document.activeElement;
  return [
    'quick input: ' + (q ? (q.style.display === 'none' ? 'hidden' : (q.inert ? 'closing (inert) ' : 'open ') + q.innerText.replace(/\\s+/g, ' ').slice(0, 200)) : 'never opened'),
    'dialogs: ' + JSON.stringify(text('.monaco-dialog-box')),
    'notifications: ' + JSON.stringify(text('.notifications-center .notification-list-item-message')),
    'pending status: ' + JSON.stringify(text('[id$="mcpElicitation.pending"]')),
    'active tab: ' + JSON.stringify(text('.tab.active')),
    'focus: ' + (a ? a.tagName.toLowerCase() + '.' + String(a.className) : 'none'),
    'tool results shown: ' + (window.__e2e ? window.__e2e.results.size : '?'),
    '',
    ...(window.__e2e ? window.__e2e.trail : []),
  ].join('\\n');
})()`;

/** A screenshot and a text report (state and timeline) under test-results/screenshots, both named `prefix`-‹test›. */
export async function reportFailure(page: Page, prefix: string, test: string): Promise<void> {
  const file = await screenshot(page, `${prefix}-${test.slice(0, 50).replace(/\W+/g, '-')}`);
  writeFileSync(file.replace(/\.png$/, '.txt'), `${test}\n\n${await page.evaluate<string>(REPORT)}\n`);
}

/**
 * Takes away what a test left: a dialog or menu, an open quick input, pending questions (declined
 * from the pending list, as a user would), the results of the tools they belonged to, an
 * unanswered rate-limit warning, and the editors. Not the server policy: the suite's tests hand it
 * on to each other on purpose. Needs watchWorkbench, and every tool run to be a demo tool run
 * from the palette: each answer the demo server records is followed by one result editor.
 */
export async function settle(wb: Workbench): Promise<void> {
  const { page } = wb;
  // A dialog or a menu takes the keys; Escape closes either (a dialog as its Cancel).
  for (let i = 0; i < 3 && (await page.locator('.monaco-dialog-box, .context-view .monaco-menu').first().isVisible()); i++) {
    await page.keyboard.press('Escape');
  }
  // Escape only sets a question aside; it stays pending and is declined below.
  if (await page.locator('.quick-input-widget:not(.quick-input-widget-closing)').first().isVisible()) await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden' });
  await declineAllPending(page);
  await page.locator(PENDING).waitFor({ state: 'detached', timeout: 10_000 });

  // The tools those answers belonged to return now, and their results open and take focus.
  if ((await page.locator('.notifications-center.visible').count()) === 0) {
    await page.locator('.statusbar-item[id="status.notifications"]').click();
  }
  await page.locator(CENTER_ITEM, { hasText: RUNNING }).first().waitFor({ state: 'detached', timeout: 30_000 });
  await page.waitForFunction(`window.__e2e.results.size >= ${demoRecords(wb).length}`, undefined, { timeout: 10_000 });
  // A rate-limit warning left unanswered would decline the next test's requests for a minute.
  const allowMore = page.locator(CENTER_ITEM, { hasText: 'further requests are declined' }).getByRole('button', { name: 'Allow More' });
  if (await allowMore.first().isVisible()) await allowMore.first().click();
  // Not cleared: after "Clear All Notifications" the center sized the next lone notification too
  // short and cut off its buttons. Hidden, they take no keys.
  await hideNotifications(page);
  await runCommand(page, 'View: Close All Editors');
  await page.locator('.tabs-container .tab').first().waitFor({ state: 'detached' });
}
