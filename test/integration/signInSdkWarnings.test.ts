// The MCP SDK's own warnings in the real host: an authorization server that refuses a refresh with
// `invalid_grant` and quotes the refresh token in its error_description (test/fixtures/oauthServer.mjs,
// FIXTURE_AUTH_MODE=echoRefresh). The SDK words that as `[mcp-sdk] OAuth "invalid_grant" — …
// Cause: "…"` through `console.warn`; in our bundles that call goes to src/util/sdkConsole.ts
// (scripts/build.mjs), so the line is in the extension's log with the token redacted, and the
// extension host's console, which VS Code writes to its own log unredacted, gets nothing.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor } from './helpers';
import { followInBrowser, protectedServer, type ProtectedServer, serverAt } from './protectedServer';

const NAME = 'echo-refresh-http';
const METHODS = ['log', 'info', 'debug', 'trace', 'warn', 'error'] as const;

suite('Sign-in: the SDK’s warning about a refused refresh goes to our log, redacted, not to the host’s console', () => {
  let s: TestServices;
  let server: ProtectedServer | undefined;

  suiteSetup(async function () {
    this.timeout(90_000);
    s = await services();
    server = await protectedServer(s, NAME, followInBrowser, { env: { FIXTURE_AUTH_MODE: 'echoRefresh' } });
  });

  suiteTeardown(async () => {
    await server?.close();
  });

  test('the refresh token quoted back is [redacted] in the MCP Elicitation log, and no SDK line reaches console.*', async function () {
    this.timeout(120_000);
    await waitFor(() => s.manager.get(NAME)?.state.kind === 'running', `${NAME} running`, 60_000);
    const refreshToken = (await s.authStore.tokensOf(serverAt(s, NAME)))?.refresh_token;
    assert.ok(refreshToken, 'the fixture issued a refresh token');

    // Whatever the extension host's console is handed while the refresh fails, from any code in this host.
    const consoleLines: string[] = [];
    const originals = METHODS.map((m) => [m, Object.getOwnPropertyDescriptor(console, m)] as const);
    for (const m of METHODS) {
      // Defined, not assigned: the host's console methods are accessors whose setter keeps the
      // value aside and whose getter still forwards to the host's log without calling it.
      Object.defineProperty(console, m, {
        value: (...args: unknown[]) => void consoleLines.push(`${m}: ${args.map(String).join(' ')}`),
        configurable: true,
        writable: true,
      });
    }
    // The spy is in place for everyone in this host: a line of ours through the global console reaches it.
    globalThis.console.warn('spy check');
    assert.deepEqual(consoleLines, ['warn: spy check'], 'the console spy sees what code in this host writes');
    consoleLines.length = 0;
    const from = s.hooks.logLines.length;
    const sdkLines = (): { channel: string; text: string }[] =>
      s.hooks.logLines.slice(from).filter((l) => l.text.includes('[mcp-sdk] OAuth "invalid_grant"'));
    try {
      // The server stops taking the access token; the SDK's refresh is refused, quoting the token.
      await fetch(`${server?.base ?? ''}/fixture/expire`, { method: 'POST' });
      // The call may fail or succeed after a new sign-in: what counts here is where the warning went.
      await vscode.commands.executeCommand('mcpElicitation.runTool', NAME, 'whoami', {}).then(
        () => undefined,
        () => undefined,
      );
      const warned = (): boolean => sdkLines().length > 0 || consoleLines.some((l) => l.includes('[mcp-sdk] OAuth'));
      await waitFor(warned, 'the SDK’s invalid_grant warning, in a log or on the console', 60_000);
    } finally {
      for (const [m, original] of originals) if (original) Object.defineProperty(console, m, original);
    }

    assert.deepEqual(
      consoleLines.filter((l) => l.includes(refreshToken) || l.includes('[mcp-sdk]')),
      [],
      'nothing of the SDK reached the extension host’s console',
    );
    const [line] = sdkLines();
    assert.equal(line?.channel, 'MCP Elicitation', 'in the extension’s main log');
    assert.match(line?.text ?? '', /Cause: "refresh token \[redacted\] is not valid"/);
    assert.deepEqual(
      s.hooks.logLines.filter((l) => l.text.includes(refreshToken)),
      [],
      'the refresh token is in no log line',
    );
  });
});
