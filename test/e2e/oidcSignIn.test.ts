/**
 * Sign-in against a real authorization server in the real host (issue 25, item 7):
 * test/fixtures/oidcServer.mjs runs `oidc-provider` with the SDK's MCP server in front of it. The
 * user's path, all of it in the workbench and the browser: Run Tool → our sign-in consent, which
 * names the server and the authorization server's host → Sign In in Browser → the page the
 * workbench opens (Playwright catches it) → oidc-provider's own login and consent pages → the
 * redirect to our loopback listener → the tool's result. Then the access token expires at the
 * authorization server and the next call is refreshed without a browser; a tool that needs a wider
 * scope gets 403 insufficient_scope and the user consents again; Sign Out forgets the tokens and
 * the next call asks again. No token may appear in any log the host wrote.
 */
import { after, afterEach, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { openWorkbench, quickInput, runCommand, screenshot, screenshotIfFailed, type Workbench } from './workbench';
import { FIXTURES, listeningPort, makeWorkspace } from '../../scripts/lib/fixtures.mjs';

interface Stats {
  registrations: { scope?: string }[];
  grants: string[];
  scopes: string[];
  issued: string[];
}

const AS_HOST = '127.0.0.1';
const AS = AS_HOST.replace(/\./g, '\\.');

/** The authorization server and the MCP server in front of it, on two free ports of this machine. */
async function startOidcFixture(): Promise<{ child: ChildProcess; base: string; asPort: number }> {
  const child = spawn(process.execPath, [path.join(FIXTURES, 'oidcServer.mjs')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  const mcpPort = await listeningPort(child, 'oidc fixture');
  const asPort = Number(/LISTENING \d+ (\d+)/.exec(out)?.[1]);
  return { child, base: `http://127.0.0.1:${mcpPort}`, asPort };
}

function dialog(page: Page, title: RegExp): Locator {
  return page.locator('.monaco-dialog-box').filter({ has: page.locator('.dialog-message-text', { hasText: title }) });
}

/** Every file under `dir` (the host's logs). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** Picks the quick pick row whose label is exactly `label`. */
async function pickExact(page: Page, label: string): Promise<void> {
  await quickInput(page).locator('input').fill(label);
  const row = page
    .locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) })
    .first();
  await row.waitFor({ state: 'visible', timeout: 60_000 });
  await row.click();
}

describe('Workbench: sign-in with a real authorization server (oidc-provider)', () => {
  let wb: Workbench;
  let fixture: Awaited<ReturnType<typeof startOidcFixture>>;
  /** Sign-in pages the workbench opened through code-server's port forwarding. */
  const tunneled: string[] = [];
  /** The full addresses our consent showed. */
  const shownUrls: string[] = [];
  const stats = async (): Promise<Stats> => (await (await fetch(`${fixture.base}/fixture/stats`)).json()) as Stats;

  before(async () => {
    fixture = await startOidcFixture();
    wb = await openWorkbench({
      // The server starts when Run Tool picks it, so the sign-in follows from the user's call. A
      // second server keeps Run Tool's server picker on screen each time.
      servers: { oidc: { type: 'http', url: `${fixture.base}/mcp` }, other: { type: 'http', url: `${fixture.base}/none` } },
      settings: { 'mcpElicitation.autoStart': false },
    });
    // Both servers listed, neither started: the extension is active and Run Tool is in the palette.
    await wb.page.locator('.statusbar-item', { hasText: 'MCP 0/2' }).first().waitFor({ timeout: 90_000 });
    // code-server is a remote window: VS Code opens a URL on 127.0.0.1 through its port forwarding,
    // `http://<code-server>/proxy/<port>/…`, which strips the prefix, so oidc-provider's pages
    // (absolute paths) break there. Desktop VS Code opens the address itself, and the browser here
    // is on the same machine: it is sent there, the query as VS Code passed it.
    const codeServer = new URL(wb.page.url()).host;
    const tunnel = `/proxy/${fixture.asPort}/`;
    await wb.page.context().route(
      (u) => u.host === codeServer && u.pathname.startsWith(tunnel),
      (route) => {
        const u = new URL(route.request().url());
        tunneled.push(u.href);
        return route.fulfill({
          status: 302,
          headers: { location: `http://${AS_HOST}:${fixture.asPort}/${u.pathname.slice(tunnel.length)}${u.search}` },
        });
      },
    );
  });
  after(async () => {
    await wb?.close();
    fixture?.child.kill();
  });
  afterEach(async (t) => {
    await screenshotIfFailed(wb.page, 'oidc', t);
  });

  /** Run Tool → oidc → `tool`, as a user does it; the server starts first when it is stopped. */
  async function runTool(tool: string, starts = false): Promise<void> {
    await runCommand(wb.page, 'View: Close All Editors');
    await runCommand(wb.page, 'MCP Elicitation: Run Tool…');
    await pickExact(wb.page, 'oidc');
    if (!starts) await pickExact(wb.page, tool);
  }

  async function result(text: string): Promise<void> {
    await wb.page.locator('.editor-instance .view-lines', { hasText: text }).first().waitFor({ timeout: 60_000 });
  }

  /**
   * Our sign-in consent: checks what it names, then Sign In in Browser; resolves with the page the
   * workbench opened (and VS Code's own link prompt answered, if it asks).
   */
  async function allowSignIn(shot: string): Promise<Page> {
    const box = dialog(wb.page, new RegExp(`^Sign in to “oidc” on ${AS}\\?$`));
    await box.waitFor({ timeout: 90_000 });
    const detail = await box.locator('.dialog-message-detail').innerText();
    assert.match(detail, new RegExp(`^Host: ${AS}, port ${fixture.asPort}$`, 'm'), 'the authorization server’s host');
    assert.match(detail, /MCP server “oidc.*” requires you to sign in\./, 'the server that asks');
    const shown = new RegExp(`^http://${AS}:${fixture.asPort}/auth\\?.*$`, 'm').exec(detail)?.[0];
    assert.ok(shown, `the full address that opens: ${detail}`);
    // code-server is a remote window: the loopback address is the remote machine's, and is forwarded.
    assert.match(
      detail,
      /^⚠ The page is on the remote machine this window runs on \(.+\), at 127\.0\.0\.1\. VS Code opens it through a forwarded port, so the browser shows a different address\. It is allowed because the MCP server asking runs there too\.$/m,
    );
    assert.doesNotMatch(detail, /this computer/, 'no word of "this computer": it is the remote machine');
    shownUrls.push(shown);
    assert.deepEqual(
      (await box.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((t) => t.trim()).sort(),
      ['Cancel', 'Decline', 'Sign In in Browser'],
      'one Cancel: VS Code’s own',
    );
    await screenshot(wb.page, shot);
    const opened = wb.page.context().waitForEvent('page', { timeout: 90_000 });
    await box.getByRole('button', { name: 'Sign In in Browser', exact: true }).click();
    // VS Code's own link protection may ask once more (the dialog says so); that is the workbench's prompt.
    const linkPrompt = dialog(wb.page, /open the external website/);
    const page = await Promise.race([
      opened,
      linkPrompt.waitFor({ timeout: 90_000 }).then(async () => {
        await linkPrompt.getByRole('button', { name: 'Open', exact: true }).click();
        return opened;
      }),
    ]);
    return page;
  }

  /** The authorization server's pages in the browser: log in (the first time), consent, and back to VS Code. */
  async function signInAtAuthorizationServer(page: Page, shot: string, login: boolean): Promise<void> {
    await page.waitForURL(new RegExp(`^http://${AS}:${fixture.asPort}/interaction/`), { timeout: 60_000 });
    if (login) {
      await page.locator('input[name="login"]').fill('alice');
      await page.locator('input[name="password"]').fill('any password');
      await screenshot(page, `${shot}-login`);
      await page.getByRole('button', { name: 'Sign-in' }).click();
    }
    const proceed = page.getByRole('button', { name: 'Continue' });
    await proceed.waitFor({ timeout: 60_000 });
    await screenshot(page, `${shot}-consent`);
    await proceed.click();
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/mcp-elicitation\/oauth\/callback\?/, { timeout: 60_000 });
    assert.equal((await page.locator('body').innerText()).trim(), 'Signed in. You can close this page and return to VS Code.');
    assert.equal(new URL(page.url()).searchParams.get('iss'), `http://${AS_HOST}:${fixture.asPort}`, 'RFC 9207 iss from oidc-provider');
    await screenshot(page, `${shot}-back`);
    await page.close();
    await wb.page.bringToFront();
  }

  it('Run Tool → consent naming the server and the host → browser → login and consent at oidc-provider → redirect → result', async () => {
    await runTool('whoami', true);
    const browser = await allowSignIn('oidc-consent');
    await signInAtAuthorizationServer(browser, 'oidc-browser', true);
    // Signed in, the server started: Run Tool goes on to the tool picker.
    await pickExact(wb.page, 'whoami');
    await result('signed in with scopes mcp:read');
    await screenshot(wb.page, 'oidc-result');
    // The page that opened asked the authorization server for what the dialog showed, parameter for parameter.
    const params = (u: string): string[][] => [...new URL(u).searchParams].sort();
    assert.equal(tunneled.length, 1);
    assert.deepEqual(params(tunneled[0] ?? ''), params(shownUrls[0] ?? ''));
    const s = await stats();
    assert.equal(s.registrations.length, 1, 'registered once, dynamically');
    assert.deepEqual(s.grants, ['authorization_code']);
    assert.deepEqual(
      s.registrations[0]?.scope?.split(' ').sort(),
      ['mcp:read', 'mcp:write', 'offline_access'],
      'registered for every scope the resource advertises, so a step-up is allowed later',
    );
  });

  it('refresh: the access token expires at the authorization server, the next call succeeds with no browser and no dialog', async () => {
    const pagesBefore = wb.page.context().pages().length;
    await fetch(`${fixture.base}/fixture/expire`, { method: 'POST' });
    await runTool('whoami');
    await result('signed in with scopes mcp:read');
    assert.deepEqual((await stats()).grants, ['authorization_code', 'refresh_token'], 'the authorization server saw a refresh_token grant');
    assert.equal(wb.page.context().pages().length, pagesBefore, 'no browser page opened');
    assert.equal(await dialog(wb.page, /^Sign in to/).count(), 0, 'nobody was asked');
  });

  it('step-up: a tool needing mcp:write gets 403 insufficient_scope, the user consents to the wider scope, and the call runs', async () => {
    await runTool('write');
    const browser = await allowSignIn('oidc-stepup-consent');
    // Still signed in at the authorization server (its session cookie): only the consent page.
    await signInAtAuthorizationServer(browser, 'oidc-stepup-browser', false);
    await result('written with mcp:write');
    const s = await stats();
    assert.deepEqual(s.grants, ['authorization_code', 'refresh_token', 'authorization_code']);
    assert.deepEqual(s.scopes.at(-1)?.split(' ').sort(), ['mcp:read', 'mcp:write'], 'the new token carries the wider scope');
    assert.equal(s.registrations.length, 1, 'the same client');
  });

  it('a same-named server at another URL, in a second workspace, gets no token: nothing is sent before it signs in anew', async () => {
    // The other URL records every request's Authorization header, and answers as a server that is not there.
    const seen: (string | undefined)[] = [];
    const recorder = http.createServer((req, res) => {
      seen.push(req.headers.authorization);
      req.resume();
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const port = (recorder.address() as AddressInfo).port;
    const second = makeWorkspace({
      servers: { oidc: { type: 'http', url: `http://127.0.0.1:${port}/mcp` }, other: { type: 'http', url: `${fixture.base}/none` } },
    });
    try {
      await wb.openFolder(second.dir);
      await wb.page.locator('.statusbar-item', { hasText: 'MCP 0/2' }).first().waitFor({ timeout: 90_000 });
      await runCommand(wb.page, 'MCP Elicitation: Run Tool…');
      await pickExact(wb.page, 'oidc');
      for (let i = 0; i < 300 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
      assert.ok(seen.length >= 2, `the other URL was asked (${seen.length} requests)`);
      assert.deepEqual(
        seen.filter((a) => a !== undefined),
        [],
        'no Authorization header reached it',
      );
      await wb.page.keyboard.press('Escape');
    } finally {
      recorder.close();
      second.dispose();
      // Back to the first workspace, where "oidc" is still signed in at its own URL.
      await wb.openFolder(wb.workspace);
      await wb.page.locator('.statusbar-item', { hasText: 'MCP 0/2' }).first().waitFor({ timeout: 90_000 });
    }
    await runTool('whoami', true);
    await pickExact(wb.page, 'whoami');
    await result('signed in with scopes mcp:read');
    assert.equal(await dialog(wb.page, /^Sign in to/).count(), 0, 'the first server kept its own sign-in');
  });

  it('Sign Out forgets the tokens: the next call asks to sign in again; no token ever reached a log', async () => {
    await runCommand(wb.page, 'MCP Elicitation: Sign Out of Server…');
    await pickExact(wb.page, 'oidc');
    await runTool('whoami', true);
    const box = dialog(wb.page, new RegExp(`^Sign in to “oidc” on ${AS}\\?$`));
    await box.waitFor({ timeout: 90_000 });
    await screenshot(wb.page, 'oidc-after-signout');
    await box.getByRole('button', { name: 'Decline', exact: true }).click();
    await box.waitFor({ state: 'hidden' });
    await wb.page.keyboard.press('Escape');

    const s = await stats();
    assert.ok(s.issued.length >= 4, `tokens were issued: ${s.issued.length}`);
    const logs = filesUnder(path.join(wb.userDataDir, 'logs')).map((f) => ({ f, text: readFileSync(f, 'utf8') }));
    // Sign-in writes to the server's own log ("MCP Elicitation: oidc", Show Log): that file is among those read.
    const signedIn = logs.filter((l) => /\[info\] signed in$/m.test(l.text)).map((l) => path.basename(l.f));
    assert.ok(signedIn.length > 0 && signedIn.every((f) => f.includes('oidc')), `the files saying "signed in": ${signedIn.join(', ')}`);
    for (const { f, text } of logs) {
      for (const secret of s.issued) assert.ok(!text.includes(secret), `${path.basename(f)} holds a token or code`);
    }
  });
});
