/**
 * Form-mode elicitation in the webview, end to end: the demo server's `everything` tool (twelve
 * fields, all with defaults) and a hostile fixture server whose form is full of script-injection
 * payloads, driven through the real workbench with the mouse and keyboard. Every assertion that
 * matters is on what the server received (the servers append each answer to a JSONL file).
 */
import { before, beforeEach, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { everythingDefaults } from '../../scripts/lib/demoDefaults.mjs';
import { demoRecords, formFrame, pickItem, runCommand, screenshot, type DemoRecord } from './workbench';
import { formWorkbench } from './formWorkbench';

/** The payloads of test/fixtures/injectionServer.mjs (kept in step by hand: that file is a stdio server, not a module). */
const P = {
  img: '<img src=x onerror="window.__pwned=1">',
  script: '<script>window.__pwned=1</script>',
  svg: '"><svg onload="window.__pwned=1">',
  attr: "' autofocus onfocus='window.__pwned=1",
  iframe: '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  style: '<style>body{display:none}</style>',
};

describe('Workbench: form-mode elicitation in the webview', () => {
  let defaults: Record<string, unknown>;
  before(async () => {
    defaults = await everythingDefaults();
  });
  // Closing its editor cancels a form left on screen.
  const wb = formWorkbench('webview', (page) => runCommand(page, 'View: Close All Editors'));
  // The demo and the injection server both record here.
  const records = (): DemoRecord[] => demoRecords(wb);
  let seen = 0;
  /**
   * The next answer the server recorded. The tool's result then opens in an editor, which takes
   * focus; unless `keepEditors`, wait for it and close every editor so the next palette use is not
   * interrupted by it.
   */
  async function answer(tool = 'everything', server = 'demo', keepEditors = false): Promise<DemoRecord['result']> {
    const t0 = Date.now();
    while (records().length <= seen) {
      if (Date.now() - t0 > 30_000) throw new Error(`no answer from ${tool} after 30 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const r = records()[seen++];
    assert.equal(r?.tool, tool);
    if (!keepEditors) {
      const tab = wb.page.locator('.tab', { hasText: `${server}-${tool}.txt` });
      await tab.first().waitFor();
      // Wait until the result editor has taken focus, or it would close the palette mid-command.
      await wb.page.locator('.editor-instance .monaco-editor.focused').waitFor();
      await runCommand(wb.page, 'View: Close All Editors');
      await tab.first().waitFor({ state: 'detached' });
    }
    return r.result;
  }

  beforeEach(() => {
    seen = records().length;
  });

  /** Runs a tool from the palette and waits until its form shows (Playwright clicks wait for Accept to be enabled). */
  async function openForm(server: string, tool: string): Promise<void> {
    const { page } = wb;
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await pickItem(page, server);
    await pickItem(page, tool);
    await accept().waitFor({ timeout: 30_000 });
  }
  const form = () => formFrame(wb.page);
  const accept = () => form().getByRole('button', { name: 'Accept', exact: true });
  // The label text ends in the required star; the accessible name does not (the star is aria-hidden).
  const field = (label: string) => form().getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*?$`));

  /** The form's own document (for evaluating in it); the one webview frame that holds a form. */
  async function formDocument(page: Page): Promise<Frame> {
    for (let i = 0; i < 100; i++) {
      for (const f of page.frames()) {
        if (!f.url().includes('fake.html')) continue;
        if (
          (await f
            .locator('main.form')
            .count()
            .catch(() => 0)) > 0
        ) {
          return f;
        }
      }
      await page.waitForTimeout(100);
    }
    throw new Error('no form webview frame');
  }

  /** The pending-elicitations status item is shown only while something is queued or on screen. */
  async function waitQueueEmpty(): Promise<void> {
    await wb.page.locator('[id$="mcpElicitation.pending"]').waitFor({ state: 'detached', timeout: 10_000 });
  }

  it('opens with the attribution banner and every default filled in; one click on Accept sends them all with their JSON types', async () => {
    const { page } = wb;
    await openForm('demo', 'Everything form');
    const f = form();
    assert.equal(await f.locator('.banner .server-name').textContent(), 'demo');
    assert.equal(
      await f.locator('.banner .message').textContent(),
      'Create a new project. Every field has a default: press Accept to take them all.',
    );
    // All twelve controls show their defaults.
    assert.equal(await f.locator('.field').count(), 12);
    assert.equal(await field('Project name').inputValue(), defaults['name']);
    assert.equal(await field('Description').inputValue(), defaults['description']);
    assert.equal(await field('Owner email').inputValue(), defaults['owner']);
    assert.equal(await field('Homepage').inputValue(), defaults['homepage']);
    assert.equal(await field('Start date').inputValue(), defaults['start']);
    // The date picker shows the date in the browser's locale; no "YYYY-MM-DD" hint contradicts it.
    assert.equal(
      await f
        .locator('.kind-string', { has: field('Start date') })
        .locator('.field-hint')
        .count(),
      0,
    );
    assert.equal(await field('Slug').inputValue(), defaults['slug']);
    assert.equal(await field('Replicas').inputValue(), String(defaults['replicas']));
    assert.equal(await field('Monthly budget (USD)').inputValue(), String(defaults['budget']));
    assert.equal(await field('Public repository').isChecked(), defaults['public']);
    assert.ok(await field('MIT').isChecked());
    assert.ok(await field('Team').isChecked());
    const features = await Promise.all(['ci', 'docs', 'issues', 'wiki'].map((o) => field(o).isChecked()));
    assert.deepEqual(
      features,
      ['ci', 'docs', 'issues', 'wiki'].map((o) => (defaults['features'] as string[]).includes(o)),
    );
    await screenshot(page, 'form-webview-dark');

    await accept().click();
    const r = await answer();
    // deepEqual is strict: 3 and "3", false and "false" differ.
    assert.deepEqual(r, { action: 'accept', content: defaults });
    assert.equal(typeof r?.content?.['replicas'], 'number');
    await waitQueueEmpty();
    assert.equal(await page.locator('.tab', { hasText: 'demo asks' }).count(), 0, 'the form tab closed');
  });

  it('Ctrl+Enter, pressed as soon as the form appears, accepts the defaults', async () => {
    const { page } = wb;
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await pickItem(page, 'demo');
    await pickItem(page, 'Everything form');
    // No wait for Accept to be enabled: the keyboard must work from the first moment.
    await form().locator('main.form').waitFor({ timeout: 30_000 });
    await page.keyboard.press('Control+Enter');
    assert.deepEqual(await answer(), { action: 'accept', content: defaults });
  });

  it('sends exactly the edited values; an invalid edit disables Accept with an error tied to its control until fixed', async () => {
    const { page } = wb;
    await openForm('demo', 'Everything form');
    await field('Project name').fill('renamed-project');
    await field('Monthly budget (USD)').fill('99.25');
    await field('Public repository').check();
    await field('Apache-2.0').check();
    await field('Enterprise').check();
    await field('ci').uncheck();
    await field('wiki').check();

    // Out of range: the error appears under the control, is announced with it, and Accept goes dead.
    const replicas = field('Replicas');
    await replicas.fill('99');
    const err = form().locator('#field-6-error');
    await err.waitFor({ state: 'visible' });
    assert.match((await err.textContent()) ?? '', /9/);
    assert.ok(((await replicas.getAttribute('aria-describedby')) ?? '').split(' ').includes('field-6-error'));
    assert.equal(await replicas.getAttribute('aria-invalid'), 'true');
    assert.ok(await accept().isDisabled(), 'Accept is disabled while replicas is 99');
    // A bad email too.
    const owner = field('Owner email');
    await owner.fill('not-an-email');
    await form().locator('#field-2-error').waitFor({ state: 'visible' });
    assert.ok(((await owner.getAttribute('aria-describedby')) ?? '').split(' ').includes('field-2-error'));
    await screenshot(page, 'form-webview-error-dark');

    await replicas.fill('5');
    await owner.fill('ops@example.com');
    await form().locator('#field-6-error').waitFor({ state: 'hidden' });
    await form().locator('#field-2-error').waitFor({ state: 'hidden' });
    assert.equal(await replicas.getAttribute('aria-invalid'), null);
    // Errors and the button are rendered from the same verdict: Accept is live again.
    assert.ok(await accept().isEnabled());
    await accept().click({ timeout: 5_000 });
    assert.deepEqual(await answer(), {
      action: 'accept',
      content: {
        ...defaults,
        name: 'renamed-project',
        owner: 'ops@example.com',
        replicas: 5,
        budget: 99.25,
        public: true,
        license: 'Apache-2.0',
        tier: 'enterprise',
        features: ['issues', 'wiki'],
      },
    });
  });

  it('Decline sends decline; Escape and closing the tab send cancel', async () => {
    const { page } = wb;
    await openForm('demo', 'Everything form');
    await form().getByRole('button', { name: 'Decline', exact: true }).click();
    assert.deepEqual(await answer(), { action: 'decline' });

    await openForm('demo', 'Everything form');
    await field('Slug').focus();
    await page.keyboard.press('Escape');
    assert.deepEqual(await answer(), { action: 'cancel' });

    await openForm('demo', 'Everything form');
    await page
      .locator('.tab', { hasText: 'demo asks' })
      .getByRole('button', { name: /^Close/ })
      .click();
    assert.deepEqual(await answer(), { action: 'cancel' });
    await waitQueueEmpty();
  });

  it('keeps typed values when the form is hidden behind another tab and moved to another group', async () => {
    const { page } = wb;
    await openForm('demo', 'Everything form');
    // Switch away at once: possibly inside the page's edit debounce, when only the page's own saved
    // state (not the host) has the value.
    await field('Slug').fill('typed-slug');
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('mcp.json');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'mcp.json' }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'mcp.json' }).waitFor();
    await page.locator('.tab', { hasText: 'demo asks' }).click();
    await accept().waitFor();
    assert.equal(await field('Slug').inputValue(), 'typed-slug');

    await field('Description').fill('moved along');
    await runCommand(page, 'View: Move Editor into Next Group');
    await page.locator('.editor-group-container').nth(1).locator('.tab.active', { hasText: 'demo asks' }).waitFor();
    await accept().waitFor();
    assert.equal(await field('Slug').inputValue(), 'typed-slug');
    assert.equal(await field('Description').inputValue(), 'moved along');
    await accept().click({ timeout: 5_000 });
    assert.deepEqual(await answer(), { action: 'accept', content: { ...defaults, slug: 'typed-slug', description: 'moved along' } });
    await runCommand(page, 'View: Close All Editor Groups');
  });

  it('a double click on Accept answers once, and never the request queued behind it', async () => {
    const { page } = wb;
    await openForm('demo', 'Everything form');
    // A second request from the same server waits its turn behind the open form.
    await runCommand(page, 'MCP Elicitation: Run Tool…');
    await pickItem(page, 'demo');
    await pickItem(page, 'Everything form');
    await page.locator('[id$="mcpElicitation.pending"]', { hasText: '2' }).waitFor();
    await field('Slug').fill('first');
    await accept().dblclick({ timeout: 5_000 });
    assert.deepEqual(await answer('everything', 'demo', true), { action: 'accept', content: { ...defaults, slug: 'first' } });
    // The queued request now shows its own, untouched form (its tab may sit behind the first result).
    await page.locator('[id$="mcpElicitation.pending"]', { hasText: '1' }).waitFor();
    await page.locator('.tab', { hasText: 'demo-everything.txt' }).waitFor();
    await page.locator('.tab', { hasText: 'demo asks' }).click();
    await accept().waitFor();
    assert.equal(await field('Slug').inputValue(), defaults['slug']);
    assert.equal(records().length, seen, 'the second click answered nothing');
    await form().getByRole('button', { name: 'Cancel', exact: true }).click();
    assert.deepEqual(await answer(), { action: 'cancel' });
    await waitQueueEmpty();
    assert.equal(records().length, seen);
  });

  it('shows script-injection payloads in server text as literal text and runs none of them', async () => {
    const { page } = wb;
    await openForm('inject', 'Inject markup');
    const f = form();
    const text = (sel: string): Promise<string | null> => f.locator(sel).first().textContent();
    assert.equal(await text('.banner .message'), `Hello ${P.img} and ${P.script} end.`);
    assert.equal(await text('.banner .server-info'), `Injector ${P.svg} 1.0.0`);
    // Labels end with the required star where the field is required.
    assert.equal(await text('label[for="field-0"]'), `Note ${P.svg}*`);
    assert.equal(await text('#field-0-desc'), `About ${P.iframe}`);
    assert.equal(await text('.kind-singleSelect legend'), `Choice ${P.style}`);
    assert.equal(await text('label[for="field-1-0"]'), `Option ${P.script}`);
    assert.equal(await text('label[for="field-1-1"]'), `Option ${P.attr}`);
    assert.equal(await text('label[for="field-2-0"]'), P.img);
    assert.equal(await text('label[for="field-2-1"]'), P.svg);
    assert.equal(await text('label[for="field-3"]'), `Agree ${P.attr}`);
    assert.equal(await f.locator('#field-0').inputValue(), P.img, 'a default is a value, not markup');
    const doc = await formDocument(page);
    const verdict = await doc.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      // Anything the payloads could have created, anywhere in the form's body.
      injected: document.body.querySelectorAll('img, svg, iframe, style, object, embed, script:not([src$="/media/webview.js"])').length,
      handlers: [...document.body.querySelectorAll('*')].flatMap((e) =>
        [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name),
      ),
      bodyVisible: getComputedStyle(document.body).display !== 'none',
    }));
    assert.deepEqual(verdict, { pwned: undefined, injected: 0, handlers: [], bodyVisible: true });
    await screenshot(page, 'form-webview-injection-dark');
    await accept().click({ timeout: 5_000 });
    // The payloads travel back to the server byte for byte.
    assert.deepEqual(await answer('inject', 'inject'), {
      action: 'accept',
      content: { note: P.img, choice: 'a', tags: [P.img], ok: true },
    });
  });

  it('follows the light theme', async () => {
    const { page } = wb;
    await runCommand(page, 'Preferences: Toggle between Light/Dark Themes');
    await page.locator('.monaco-workbench.vs').waitFor();
    await openForm('demo', 'Everything form');
    await field('Replicas').fill('0');
    await form().locator('#field-6-error').waitFor({ state: 'visible' });
    await field('Replicas').fill('3');
    await form().locator('#field-6-error').waitFor({ state: 'hidden' });
    await field('Project name').focus();
    await form()
      .locator('body')
      .evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'form-webview-light');
    // The page takes its colours from the theme: the body is light now.
    const bg = await form()
      .locator('body')
      .evaluate((b) => getComputedStyle(b).backgroundColor);
    const [r = 0, g = 0, b = 0] = (bg.match(/\d+/g) ?? []).map(Number);
    assert.ok(r + g + b > 600, `light background, got ${bg}`);
    await page.keyboard.press('Escape');
    assert.deepEqual(await answer(), { action: 'cancel' });
  });
});
