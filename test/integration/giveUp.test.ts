// A server that exits at start, in the real host: after the restart policy gives up, the user gets
// one notification naming the server, with the reason and the server's last stderr line as plain
// text (no link, no secret), and Show Log / Restart. Restart starts it again; when it gives up
// again within the quiet period, no second notification stacks on the first, while another
// server's give-up is still announced.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { GaveUpAction } from '../../src/ui/gaveUpNotice';
import { services, waitFor } from './helpers';

const fixture = (name: string): string => {
  const root = process.env['MCP_TEST_REPO_ROOT'];
  assert.ok(root, 'MCP_TEST_REPO_ROOT is set by the harness');
  return path.join(root, 'test', 'fixtures', name);
};

async function setServers(servers: Record<string, unknown> | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('mcpElicitation').update('servers', servers, vscode.ConfigurationTarget.Workspace);
}

/** Launches per give-up: the first, and the five restarts of the test build (test/host/testServices.ts). */
const ROUND = 6;
const SECRET = 'tok-give-up-5f2c9a71';
const exitsAtStart = { command: 'node', args: [fixture('exitAtStartServer.mjs')], env: { FIXTURE_TOKEN: SECRET } };

suite('Give-up notice: a server that exits at start', () => {
  let s: TestServices;
  let saved: unknown;
  const shown: { message: string; actions: readonly GaveUpAction[] }[] = [];
  let answer: GaveUpAction | undefined;
  let watching: vscode.Disposable | undefined;

  /** The stderr lines of `server`'s launches in its own log: one per launch. */
  const launches = (server: string): number =>
    s.hooks.logLines.filter((l) => l.channel === `MCP Elicitation: ${server}` && l.text.includes('[server stderr] fatal:')).length;
  const gaveUp = (server: string): boolean => {
    const st = s.manager.get(server)?.state;
    return st?.kind === 'error' && st.gaveUp;
  };

  suiteSetup(async () => {
    s = await services();
    saved = vscode.workspace.getConfiguration('mcpElicitation').inspect('servers')?.workspaceValue;
    watching = s.hooks.gaveUp.intercept('show', () => (message, actions) => {
      shown.push({ message, actions });
      return Promise.resolve(answer);
    });
  });

  suiteTeardown(async () => {
    watching?.dispose();
    await setServers(saved as Record<string, unknown> | undefined);
    await waitFor(() => !s.manager.list().some((e) => e.name.startsWith('exits-')), 'the servers of this suite removed');
  });

  test('one notice names the server and quotes its stderr as plain text without the secret; Restart starts it again, and the next give-up is not announced again', async () => {
    answer = 'restart';
    await setServers({ 'exits-a': exitsAtStart });
    await waitFor(() => shown.length === 1, 'the give-up notice', 30_000);
    const notice = shown[0];
    assert.ok(notice);
    assert.match(notice.message, /“exits-a” keeps failing and was not restarted again: .*closed/i);
    assert.match(notice.message, /Its last error output: fatal: FIXTURE_REQUIRED is not set, see \[the fix\]\u200b\(command:/);
    assert.doesNotMatch(notice.message, /\]\(/, 'no link can form: VS Code would run the command on a click');
    assert.ok(!notice.message.includes(SECRET), 'the secret from the server’s env is redacted, as in its log');
    assert.match(notice.message, /\(token \[redacted\]\)/);
    assert.deepEqual(notice.actions, ['showLog', 'restart']);

    // The answer was Restart: the server is launched again, as many times as the policy allows, and gives up again.
    await waitFor(
      () =>
        s.hooks.logLines.some((l) => l.channel === 'MCP Elicitation: exits-a' && /gave up again; the notice is not repeated/.test(l.text)),
      'the second give-up, logged and not announced',
      30_000,
    );
    assert.ok(gaveUp('exits-a'), JSON.stringify(s.manager.get('exits-a')?.state));
    assert.equal(launches('exits-a'), 2 * ROUND, 'two rounds of launches: the first, then the one Restart began');
    assert.equal(shown.length, 1, 'no second notification for the same server within the quiet period');
  });

  test('another server that gives up meanwhile gets its own notice', async () => {
    answer = undefined;
    await setServers({ 'exits-a': exitsAtStart, 'exits-b': exitsAtStart });
    await waitFor(() => shown.length === 2, 'the notice of exits-b', 30_000);
    assert.match(shown[1]?.message ?? '', /“exits-b” keeps failing/);
    assert.ok(gaveUp('exits-b'));
  });
});
