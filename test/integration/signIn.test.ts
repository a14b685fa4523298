// Issue 25: sign-in to a protected remote MCP server in the real host. test/fixtures/oauthServer.mjs
// is an SDK MCP server behind the SDK's bearer gate with its own authorization server. The consent
// is a modal dialog that code in the host cannot click, so the presenter's sign-in step answers for
// the user and, as the browser, follows the authorization URL with an HTTP client; the connection,
// the SDK's OAuth client, the loopback redirect, SecretStorage, the commands and the view are real.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SignInAnswer, SignInPrompt } from '../../src/elicitation/presenter';
import type { TestServices } from '../host/testServices';
import { acceptQuickInput, services, waitFor } from './helpers';
import { followInBrowser, protectedServer, type ProtectedServer, serverAt } from './protectedServer';

const NAME = 'protected-http';

interface Stats {
  registrations: unknown[];
  authorizations: Record<string, string>[];
  codeGrants: number;
  refreshGrants: number;
}

async function whoami(): Promise<string> {
  const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', NAME, 'whoami', {});
  return r.content[0]?.text ?? '';
}

suite('Sign-in: a protected remote server, through the url consent (issue 25)', () => {
  let s: TestServices;
  let server: ProtectedServer | undefined;
  let base = '';
  const shown: SignInPrompt[] = [];
  /**
   * What the user does with the consent: allow and let the "browser" follow the URL, decline, or
   * `wait`: leave the dialog open until the sign-in calls it off (as the real one, it then closes).
   */
  let user: 'allow' | 'decline' | 'wait' = 'allow';
  /** Whether each consent shown was called off by the sign-in, by position. */
  const calledOff: boolean[] = [];
  /** Sign-in takes a few round trips more than a start: generous under load. */
  const running = (): Promise<void> => waitFor(() => s.manager.get(NAME)?.state.kind === 'running', `${NAME} running`, 60_000);
  const stats = async (): Promise<Stats> => (await (await fetch(`${base}/fixture/stats`)).json()) as Stats;
  const row = (): vscode.TreeItem => {
    const entry = s.manager.list().find((e) => e.name === NAME);
    assert.ok(entry, `${NAME} is listed`);
    return s.serversView.getTreeItem({ kind: 'server', entry });
  };

  suiteSetup(async function () {
    this.timeout(90_000);
    s = await services();
    server = await protectedServer(s, NAME, (prompt, signal) => {
      shown.push(prompt);
      const at = calledOff.push(false) - 1;
      if (user === 'wait') {
        return new Promise((resolve) =>
          signal.addEventListener(
            'abort',
            () => {
              calledOff[at] = true;
              resolve('cancelled');
            },
            { once: true },
          ),
        );
      }
      return user === 'decline' ? Promise.resolve('declined') : followInBrowser(prompt);
    });
    base = server.base;
  });

  suiteTeardown(async () => {
    await server?.close();
  });

  test('401 → consent naming the server and the host → browser → redirect → tool call; then refresh; then Sign Out', async function () {
    this.timeout(120_000);
    await running();
    assert.equal(shown.length, 1, 'asked once');
    const prompt = shown[0];
    assert.equal(prompt?.asker.name, NAME);
    assert.equal(prompt?.analysis.display?.hostUnicode, '127.0.0.1', 'the consent names the authorization server host');
    assert.ok(prompt?.url.startsWith(`${base}/as/authorize?`), prompt?.url);
    assert.equal((await stats()).codeGrants, 1);
    assert.match(await whoami(), /^client \S+ scopes mcp:read$/);

    // The Servers view says so and offers Sign Out.
    await waitFor(() => String(row().description).includes(vscode.l10n.t('signed in')), 'the row says signed in');
    assert.match(String(row().contextValue), /\.auth-signedIn/);

    // SecretStorage holds the token; no log line does (Trace included).
    const tokens = await s.authStore.tokensOf(serverAt(s, NAME));
    assert.ok(tokens?.access_token);
    const leaked = s.hooks.logLines.filter(
      (l) => l.text.includes(tokens.access_token) || (tokens.refresh_token && l.text.includes(tokens.refresh_token)),
    );
    assert.deepEqual(leaked, []);
    // Sign-in writes where its server's lifecycle is: its own log (Show Log), not the extension's.
    const own = (): string[] => s.hooks.logLines.filter((l) => l.channel === `MCP Elicitation: ${NAME}`).map((l) => l.text);
    assert.ok(own().includes('signed in'), `${NAME}'s log: ${own().join(' | ')}`);
    const main = (): string[] =>
      s.hooks.logLines.filter((l) => l.channel === 'MCP Elicitation' && /sign-in|signed in/.test(l.text)).map((l) => l.text);
    assert.deepEqual(main(), [], 'no sign-in line in the main log');

    // The server stops taking the access token: refreshed without the user.
    await fetch(`${base}/fixture/expire`, { method: 'POST' });
    assert.match(await whoami(), /^client /);
    assert.equal((await stats()).refreshGrants, 1);
    assert.equal(shown.length, 1, 'a refresh asks nobody');

    // Sign Out forgets the tokens and stops the server; the row offers Sign In.
    await vscode.commands.executeCommand('mcpElicitation.signOut', NAME);
    assert.equal(await s.authStore.tokensOf(serverAt(s, NAME)), undefined);
    await waitFor(() => s.manager.get(NAME)?.state.kind === 'stopped', 'stopped after sign-out');
    await waitFor(() => /\.auth-signedOut/.test(String(row().contextValue)), 'the row offers Sign In');
    // The server's own log says so, after "signed in": its last sign-in line is not "signed in".
    const signedOut = own().lastIndexOf('signed out: the stored sign-in was forgotten');
    assert.ok(signedOut > own().lastIndexOf('signed in'), `${NAME}'s log after Sign Out: ${own().join(' | ')}`);

    // Sign In after a decline: declined, nothing opened, the server stays stopped with the reason.
    user = 'decline';
    const authorizations = (await stats()).authorizations.length;
    await vscode.commands.executeCommand('mcpElicitation.signIn', NAME);
    await waitFor(() => s.manager.get(NAME)?.state.kind === 'error', 'error after the decline');
    const st = s.manager.get(NAME)?.state;
    assert.ok(st?.kind === 'error' && st.gaveUp && /declined/.test(st.reason), JSON.stringify(st));
    assert.equal((await stats()).authorizations.length, authorizations, 'nothing opened without consent');
    assert.ok(own().includes('sign-in ended: sign-in was declined'), `why, in ${NAME}'s log: ${own().join(' | ')}`);
    assert.deepEqual(main(), [], 'still none in the main log');
    assert.equal(shown.length, 2);

    // Sign In again, allowed: running, and the registered client is reused.
    user = 'allow';
    await vscode.commands.executeCommand('mcpElicitation.signIn', NAME);
    await running();
    assert.equal(shown.length, 3);
    assert.equal((await stats()).registrations.length, 1);
    assert.match(await whoami(), /^client /);
  });

  test('Sign Out while the consent is still open: the dialog closes, and the server’s log says the sign-in ended because the server was stopped, then what Sign Out forgot', async function () {
    this.timeout(120_000);
    const own = (): string[] => s.hooks.logLines.filter((l) => l.channel === `MCP Elicitation: ${NAME}`).map((l) => l.text);
    // Signed out, then Sign In again, and the user leaves the consent open.
    await vscode.commands.executeCommand('mcpElicitation.signOut', NAME);
    user = 'wait';
    const asked = shown.length;
    const from = own().length;
    const signingIn = Promise.resolve(vscode.commands.executeCommand('mcpElicitation.signIn', NAME)).catch(() => undefined);
    await waitFor(() => shown.length > asked && s.signIn.stateOf(NAME) === 'signingIn', 'the consent is open', 60_000);

    await vscode.commands.executeCommand('mcpElicitation.signOut', NAME);
    await signingIn;
    await waitFor(() => s.manager.get(NAME)?.state.kind === 'stopped', 'stopped after sign-out');
    assert.equal(calledOff.at(-1), true, 'the open consent was called off');
    assert.equal(await s.authStore.tokensOf(serverAt(s, NAME)), undefined);
    // Both facts, in the order they happened; nothing says "aborted".
    const lines = own().slice(from);
    const ended = lines.indexOf('sign-in ended: the server was stopped');
    const forgot = lines.findIndex((l) => l.startsWith('signed out:') || l.startsWith('sign out:'));
    assert.ok(ended >= 0 && forgot > ended, `${NAME}'s log: ${lines.join(' | ')}`);
    assert.deepEqual(
      lines.filter((l) => /abort/i.test(l)),
      [],
    );
    user = 'allow';
  });
});

suite('Sign-in: a pre-registered client, its secret set through the command (issue 25, item 5)', () => {
  const PRE = 'preregistered-http';
  const SECRET = 'pre-registered-s3cret-9f1c';
  let s: TestServices;
  let server: ProtectedServer | undefined;
  let base = '';
  const shown: SignInPrompt[] = [];
  const state = (): string => JSON.stringify(s.manager.get(PRE)?.state);

  suiteSetup(async function () {
    this.timeout(90_000);
    s = await services();
    // The authorization server knows one client, `pre-id`, with a secret; it registers nobody.
    const present = (prompt: SignInPrompt): Promise<SignInAnswer> => {
      shown.push(prompt);
      return followInBrowser(prompt);
    };
    server = await protectedServer(s, PRE, present, { env: { FIXTURE_CLIENT: `pre-id:${SECRET}` }, def: { clientId: 'pre-id' } });
    base = server.base;
  });

  suiteTeardown(async () => {
    await server?.close();
  });

  test('without its secret the sign-in ends naming the client; Set Client Secret (a password InputBox) stores it in SecretStorage only, and sign-in then succeeds; Sign Out forgets it', async function () {
    this.timeout(120_000);
    // No secret yet: the token request is refused, and the reason says what to do.
    await waitFor(() => s.manager.get(PRE)?.state.kind === 'error', `${PRE} stopped for want of its secret`, 60_000);
    assert.match(state(), /did not accept client \\"pre-id\\".*Set Client Secret for Server/);
    const stats = (await (await fetch(`${base}/fixture/stats`)).json()) as {
      registrations: unknown[];
      codeGrants: number;
      clientAuth: string[];
    };
    assert.equal(stats.registrations.length, 0, 'a pre-registered client is never registered again');
    assert.equal(stats.codeGrants, 0);

    // The command, from the palette with the server named: a password InputBox.
    const box = new Promise<vscode.InputBox>((resolve) => {
      const sub = s.hooks.onDidShowPrompt((p) => {
        if (p.kind !== 'clientSecret') return;
        sub.dispose();
        resolve(p.widget as vscode.InputBox);
      });
    });
    const done = vscode.commands.executeCommand('mcpElicitation.setClientSecret', PRE);
    const input = await box;
    assert.equal(input.password, true, 'typed masked');
    assert.match(input.title ?? '', new RegExp(PRE));
    assert.match(input.prompt ?? '', /pre-id/);
    input.value = SECRET;
    await acceptQuickInput();
    await done;

    // Stored in SecretStorage, and the stopped server signed in with it.
    assert.equal(await s.authStore.clientSecret(serverAt(s, PRE)), SECRET);
    await waitFor(() => s.manager.get(PRE)?.state.kind === 'running', `${PRE} running with its secret`, 60_000);
    const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', PRE, 'whoami', {});
    assert.match(r.content[0]?.text ?? '', /^client pre-id scopes mcp:read$/);
    const after = (await (await fetch(`${base}/fixture/stats`)).json()) as { clientAuth: string[] };
    assert.deepEqual(after.clientAuth, ['client_secret_basic'], 'the secret authenticated the token request');

    // Never in settings or a log line.
    assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('mcpElicitation').inspect('servers')).includes(SECRET), 'not in settings');
    assert.deepEqual(
      s.hooks.logLines.filter((l) => l.text.includes(SECRET)),
      [],
    );

    // Sign Out forgets the tokens and the secret.
    await vscode.commands.executeCommand('mcpElicitation.signOut', PRE);
    assert.equal(await s.authStore.clientSecret(serverAt(s, PRE)), undefined);
    assert.equal(await s.authStore.tokensOf(serverAt(s, PRE)), undefined);
  });
});
