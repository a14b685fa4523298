/**
 * The "Check before answering" box of the webview form, end to end: it names what matters to the
 * person answering (a link in the form's text, a field that looks like a secret) and nothing that is
 * a note for the server's author, such as the deprecated `enumNames`. Those go to the log and to
 * Preview Elicitation Form. The fixture server's `elicit` tool sends the request as given.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { formFrame, openWorkbench, quickInput, runCommand, screenshot, waitForServers, type Workbench } from './workbench';

/** Picks the quick pick row whose label is exactly `label` (tool names share prefixes: elicit, elicitMany). */
async function pickExact(page: Page, label: string): Promise<void> {
  await quickInput(page).locator('input').fill(label);
  const row = page
    .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
}

/** Runs the fixture's `elicit` tool from the palette; it takes a record parameter, so its arguments are JSON. */
async function runElicit(page: Page, params: Record<string, unknown>, tag: string): Promise<void> {
  await runCommand(page, 'MCP Elicitation: Run Tool…');
  await pickExact(page, 'fixture');
  await pickExact(page, 'elicit');
  await quickInput(page).locator('.quick-input-title', { hasText: 'Arguments for elicit' }).waitFor();
  await quickInput(page).locator('input').fill(JSON.stringify({ params, tag }));
  await page.keyboard.press('Enter');
}

describe('Workbench: what the webview form warns the person answering about', () => {
  let wb: Workbench;

  /** The answer the fixture server received for `tag`. */
  async function response(tag: string): Promise<unknown> {
    const file = path.join(wb.recordDir, 'fixture.jsonl');
    for (const t0 = Date.now(); Date.now() - t0 < 30_000; await new Promise((r) => setTimeout(r, 100))) {
      if (!existsSync(file)) continue;
      const hit = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { tag?: string; kind: string; response?: unknown })
        .find((r) => r.tag === tag && r.kind === 'result');
      if (hit) {
        // The tool's result then opens in an editor and takes focus; wait for it, so that it cannot
        // close the palette under the next step.
        await wb.page
          .locator('.editor-instance .view-lines', { hasText: `"tag": "${tag}"` })
          .first()
          .waitFor({ timeout: 30_000 });
        return hit.response;
      }
    }
    throw new Error(`no answer for ${tag}`);
  }

  before(async () => {
    wb = await openWorkbench({
      settings: { 'mcpElicitation.presentation': 'webview', 'workbench.secondarySideBar.defaultVisibility': 'hidden' },
    });
    await waitForServers(wb.page, 2);
  });
  after(async () => {
    await wb?.close();
  });
  afterEach(async (t) => {
    if ((t as { passed?: boolean }).passed === false) await screenshot(wb.page, `failed-${t.name.slice(0, 40).replace(/\W+/g, '-')}`);
  });

  const legacyPlan = { type: 'string', title: 'Plan', enum: ['basic', 'pro'], enumNames: ['Basic', 'Pro'] };

  it('names the link and the secret-like field, not the enumNames deprecation', async () => {
    const { page } = wb;
    await runElicit(
      page,
      {
        message: 'Sign in at https://evil.example/login first',
        requestedSchema: { type: 'object', properties: { plan: legacyPlan, password: { type: 'string', title: 'Password' } } },
      },
      'warned',
    );
    const form = formFrame(page);
    await form.getByRole('button', { name: 'Decline', exact: true }).waitFor({ timeout: 30_000 });
    assert.equal(await form.locator('.warnings-title').innerText(), 'Check before answering');
    assert.deepEqual(await form.locator('.warnings li').allInnerTexts(), [
      'The message contains a link (https://evil.example/login). Servers must not put links in a form; do not open it unless you trust this server.',
      'Field “Password” looks like a secret. Servers must not ask for secrets in a form; use a browser flow instead.',
    ]);
    assert.equal(await form.getByText(/enumNames|deprecated/).count(), 0, 'no server-author note on the form');
    // The legacy names are still what the options are called.
    assert.equal(await form.getByLabel('Pro', { exact: true }).count(), 1);
    await screenshot(page, 'form-warnings-dark');
    await form.getByRole('button', { name: 'Decline', exact: true }).click();
    assert.deepEqual(await response('warned'), { action: 'decline' });
  });

  it('a suggested value with a right-to-left override: the box shows it with the marker, the input holds it exactly', async () => {
    const { page } = wb;
    await runElicit(
      page,
      {
        message: 'Confirm the transfer',
        requestedSchema: { type: 'object', properties: { amount: { type: 'string', title: 'Amount', default: '\u202e001 USD' } } },
      },
      'reversed',
    );
    const form = formFrame(page);
    await form.getByRole('button', { name: 'Decline', exact: true }).waitFor({ timeout: 30_000 });
    assert.deepEqual(await form.locator('.warnings li').allInnerTexts(), [
      'Field “Amount”: the suggested value holds characters you cannot see or that reorder it; it is ⟨U+202E⟩001 USD. Check it before you accept.',
    ]);
    assert.equal(await form.getByLabel('Amount').inputValue(), '\u202e001 USD', 'the input holds the value that would be sent');
    await screenshot(page, 'form-warning-reversed-default-dark');
    await form.getByRole('button', { name: 'Decline', exact: true }).click();
    assert.deepEqual(await response('reversed'), { action: 'decline' });
  });

  it('a form whose only notes are for the server author shows no warnings box at all', async () => {
    const { page } = wb;
    await runElicit(page, { message: 'Which plan?', requestedSchema: { type: 'object', properties: { plan: legacyPlan } } }, 'lint-only');
    const form = formFrame(page);
    await form.getByLabel('Basic', { exact: true }).check({ timeout: 30_000 });
    assert.equal(await form.locator('.warnings').count(), 0);
    await form.getByRole('button', { name: 'Accept', exact: true }).click();
    assert.deepEqual(await response('lint-only'), { action: 'accept', content: { plan: 'basic' } });
  });
});
