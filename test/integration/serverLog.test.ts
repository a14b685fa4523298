import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning } from './helpers';

// Each server has its own log, as VS Code gives each MCP server its own output channel: its stderr
// (as warnings, the way VS Code logs it) and its lifecycle, redacted like the extension's log, and
// not in the extension's log, where a chatty server would bury everything else.

const NAME = 'own-log';
const TOKEN = 'tok-own-log-4242-secret';
const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const CHANNEL = `MCP Elicitation: ${NAME}`;
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

suite("Per-server log: a server's stderr and lifecycle go to its own channel, redacted", () => {
  let s: TestServices;
  let saved: unknown;

  suiteSetup(async () => {
    s = await services();
    saved = config().inspect('servers')?.workspaceValue;
  });
  suiteTeardown(async () => {
    await config().update('servers', saved, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.manager.get(NAME), `${NAME} gone`);
  });

  test('stderr and state changes reach "MCP Elicitation: <server>" with its secret redacted; the main log has none of its stderr', async () => {
    const servers = {
      ...(config().inspect<Record<string, unknown>>('servers')?.workspaceValue ?? {}),
      [NAME]: { command: 'node', args: [FIXTURE, NAME], env: { FIXTURE_TOKEN: TOKEN, FIXTURE_ECHO_TOKEN: '1' } },
    };
    await config().update('servers', servers, vscode.ConfigurationTarget.Workspace);
    await waitForRunning(s, NAME);
    const own = (): { level: string; text: string }[] => s.hooks.logLines.filter((l) => l.channel === CHANNEL);
    await waitFor(() => own().some((l) => l.text.includes(`fixture ${NAME} token`)), 'the stderr line carrying the token');

    const stderr = own().filter((l) => l.text.startsWith('[server stderr] '));
    assert.ok(
      stderr.some((l) => l.text.includes(`fixture ${NAME} listening on stdio`)),
      `stderr lines: ${stderr.map((l) => l.text).join(' | ')}`,
    );
    assert.ok(
      stderr.every((l) => l.level === 'warn'),
      'stderr is logged as warnings, as VS Code does',
    );
    const tokenLine = stderr.find((l) => l.text.includes(`fixture ${NAME} token`));
    assert.ok(tokenLine?.text.includes('[redacted]'), `redacted: ${tokenLine?.text}`);
    assert.ok(
      s.hooks.logLines.every((l) => !l.text.includes(TOKEN)),
      'the secret reaches no channel',
    );
    assert.ok(
      own().some((l) => l.text.startsWith('starting')) && own().some((l) => l.text.startsWith('running over stdio')),
      `lifecycle lines: ${own()
        .map((l) => l.text)
        .join(' | ')}`,
    );
    assert.ok(
      !s.hooks.logLines.some((l) => l.channel === 'MCP Elicitation' && l.text.includes(`fixture ${NAME} listening`)),
      "the extension's log does not carry the server's stderr",
    );

    // The palette command and the row's "Show Log" open it (and never the wrong one: an unknown name opens nothing new).
    await vscode.commands.executeCommand('mcpElicitation.showServerLog', NAME);
    const entry = s.manager.list().find((e) => e.name === NAME);
    assert.ok(entry);
    await vscode.commands.executeCommand('mcpElicitation.showLog', { kind: 'server', entry });

    // Stopping is a lifecycle line of the same channel.
    const before = own().length;
    await vscode.commands.executeCommand('mcpElicitation.stopServer', NAME);
    await waitFor(
      () =>
        own()
          .slice(before)
          .some((l) => l.text === 'stopped'),
      'the stop in its log',
    );
  });
});
