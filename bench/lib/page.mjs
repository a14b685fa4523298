// The page side of `npm run bench`: watching the workbench for a prompt and acting on it like a
// user. Code-server serves webviews from the workbench's own origin, so the top page can read the
// form's document two iframes down (iframe.webview → iframe#active-frame) without Playwright.
// The functions passed to page.evaluate and page.waitForFunction run in the page, hence the DOM types.
import { now, systemClockOffset } from './wallClock.mjs';

/**
 * The page's own hooks: the watch in progress, and the harness's callback (page.exposeFunction).
 * @typedef {Window & { __benchWatch?: { stop: () => void }, __benchSeen: (token: string, at: number) => Promise<void> }} BenchWindow
 */
/** @typedef {import('playwright-core').Page} Page */

/**
 * Starts watching the page for one prompt; when it is visible, the page calls
 * window.__benchSeen(token, performance.timeOrigin + performance.now()), the clock the bench
 * servers stamp their sends with (bench/lib/wallClock.mjs). Quick inputs are caught by a
 * MutationObserver the moment the DOM changes; webview forms live in other documents, so those
 * are polled every 4 ms (the browser's minimum timer interval), which bounds the error at about
 * one poll.
 * @param {import('playwright-core').Page} page
 * @param {{ token: string, kind: 'inputBox'|'quickPick'|'webview', option?: string, fields?: number }} spec
 */
export async function armWatch(page, spec) {
  await page.evaluate((spec) => {
    const win = /** @type {BenchWindow} */ (/** @type {unknown} */ (window));
    win.__benchWatch?.stop();
    const visible = (/** @type {HTMLElement} */ el) => el.offsetWidth > 0 && el.offsetHeight > 0;
    const found = () => {
      if (spec.kind === 'webview') {
        for (const outer of /** @type {NodeListOf<HTMLIFrameElement>} */ (document.querySelectorAll('iframe.webview.ready'))) {
          if (!visible(outer)) continue;
          let doc;
          try {
            doc = outer.contentDocument?.querySelector(/** @type {'iframe'} */ ('iframe#active-frame'))?.contentDocument;
          } catch {
            continue;
          }
          const form = doc?.querySelector('main.form');
          if (form && form.querySelectorAll('.field').length >= (spec.fields ?? 1) && (doc?.body?.textContent ?? '').includes(spec.token)) {
            return true;
          }
        }
        return false;
      }
      const w = /** @type {HTMLElement | null} */ (document.querySelector('.quick-input-widget'));
      if (!w || w.style.display === 'none' || !visible(w) || !(w.textContent ?? '').includes(spec.token)) return false;
      if (spec.kind === 'quickPick') {
        return [...w.querySelectorAll('.quick-input-list .monaco-list-row')].some((r) => (r.textContent ?? '').includes(spec.option ?? ''));
      }
      return true;
    };
    let done = false;
    const check = () => {
      if (done || !found()) return;
      done = true;
      const at = performance.timeOrigin + performance.now();
      stop();
      void win.__benchSeen(spec.token, at);
    };
    const mo = new MutationObserver(check);
    mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    const iv = setInterval(check, 4);
    const stop = () => {
      mo.disconnect();
      clearInterval(iv);
    };
    win.__benchWatch = { stop };
    check();
  }, spec);
}

/**
 * How far the page's clock is ahead of this process's, from the shortest of `probes` round trips
 * (Playwright evaluate): the page stamped somewhere between send and receive. Also the page's
 * offset from the system clock, which needs no round trip (bench/lib/wallClock.mjs).
 * @param {Page} page
 * @param {number} probes
 */
export async function pageClockSkew(page, probes) {
  let best = { skewMs: NaN, rttMs: Infinity };
  for (let i = 0; i < probes; i++) {
    const t0 = now();
    const at = await page.evaluate(() => performance.timeOrigin + performance.now());
    const t1 = now();
    if (t1 - t0 < best.rttMs) best = { skewMs: at - (t0 + t1) / 2, rttMs: t1 - t0 };
  }
  return { ...best, offsetMs: await page.evaluate(systemClockOffset, 25) };
}

/**
 * Waits until no quick input and no webview is on screen, so every sample starts the same way.
 * @param {Page} page
 */
export async function waitClean(page, timeoutMs = 15_000) {
  await page.waitForFunction(
    () => {
      const visible = (/** @type {HTMLElement} */ el) => el.offsetWidth > 0 && el.offsetHeight > 0;
      const w = /** @type {HTMLElement | null} */ (document.querySelector('.quick-input-widget'));
      if (w && w.style.display !== 'none' && visible(w)) return false;
      return ![.../** @type {NodeListOf<HTMLIFrameElement>} */ (document.querySelectorAll('iframe.webview'))].some(visible);
    },
    undefined,
    { polling: 10, timeout: timeoutMs },
  );
}

/**
 * Resolves once a webview form with `fields` fields is rendered; returns the page's Date.now() then.
 * @param {Page} page
 * @param {number} fields
 */
export async function waitForForm(page, fields, timeoutMs = 30_000) {
  const handle = await page.waitForFunction(
    (fields) => {
      for (const outer of /** @type {NodeListOf<HTMLIFrameElement>} */ (document.querySelectorAll('iframe.webview.ready'))) {
        const doc = outer.contentDocument?.querySelector(/** @type {'iframe'} */ ('iframe#active-frame'))?.contentDocument;
        const form = doc?.querySelector('main.form');
        if (form && form.querySelectorAll('.field').length === fields) return Date.now();
      }
      return 0;
    },
    fields,
    { polling: 10, timeout: timeoutMs },
  );
  return handle.jsonValue();
}

/**
 * The form's Accept button, two iframes down.
 * @param {Page} page
 */
export function acceptButton(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame').getByRole('button', { name: 'Accept', exact: true });
}

/**
 * Resolves with the page's Date.now() once keyboard input would reach the form (its document has
 * focus): before that, a key pressed "on the form" goes to the workbench instead.
 * @param {Page} page
 */
export async function waitForFormFocus(page, timeoutMs = 10_000) {
  const handle = await page.waitForFunction(
    () => {
      for (const outer of /** @type {NodeListOf<HTMLIFrameElement>} */ (document.querySelectorAll('iframe.webview.ready'))) {
        const doc = outer.contentDocument?.querySelector(/** @type {'iframe'} */ ('iframe#active-frame'))?.contentDocument;
        if (doc?.querySelector('main.form') && doc.hasFocus()) return Date.now();
      }
      return 0;
    },
    undefined,
    { polling: 10, timeout: timeoutMs },
  );
  return handle.jsonValue();
}

/**
 * Collects the page's garbage, then reports its size. Before each burst: a page that has shown and
 * hidden hundreds of quick inputs without a full collection gets slower at it (the prompt cycle
 * went from ~65 to ~140 ms over four bursts without this, and stayed flat with it), which is the
 * browser's state, not the extension's. The figures say whether anything really piles up.
 * @param {Page} page
 */
export async function collectPageGarbage(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    return await page.evaluate(() => ({
      domNodes: document.getElementsByTagName('*').length,
      // Chromium's own, non-standard figure.
      jsHeapBytes: /** @type {Performance & { memory?: { usedJSHeapSize: number } }} */ (performance).memory?.usedJSHeapSize ?? 0,
    }));
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * The burst's user: clicks the Cancel button of whatever question is on screen, as fast as the
 * page lets a click land, until stopped. Each click is a real one (Playwright waits until the
 * button is visible, stable and hit by the pointer), so a prompt is only cancelled once the
 * workbench has drawn it, and the cancel reaches the extension host the way a user's does.
 * @param {Page} page
 */
export function startCanceller(page) {
  const button = page.locator('.quick-input-widget').getByRole('button', { name: /^Cancel \(close without answering/ });
  let stopped = false;
  let clicks = 0;
  let misses = 0;
  const loop = (async () => {
    while (!stopped) {
      try {
        await button.click({ timeout: 500 });
        clicks++;
      } catch {
        // Nothing to cancel for half a second (the queue is between prompts, or drained): look again.
        misses++;
      }
    }
  })();
  return {
    /** Stops after the click in progress; resolves with how many clicks landed. */
    async stop() {
      stopped = true;
      await loop;
      return { clicks, misses };
    },
  };
}
