// A question may stay open as long as the user needs: in the real host, against real fixture
// servers, a form stays on screen while 20 minutes of simulated time pass (every leg timeout of
// the call is behind them), is then answered, and the tool's result arrives with the answer.
// The leg timers of the test build run on TestHooks.legClock, which only this suite advances.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { CALL_TIMEOUT_MS } from '../../src/servers/sessionRequests';
import { acceptQuickInput, elicitVia, nextPrompt, services, waitFor, waitForRunning } from './helpers';

const TWENTY_MINUTES = 20 * 60_000;
const MODERN = 'long-modern';
const fixture = (name: string): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', name);
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

/** Lets 20 minutes pass on the leg timers while the form is on screen, then types `value` and presses Enter. */
async function answerLate(s: TestServices, value: string): Promise<void> {
  const p = await nextPrompt(s);
  assert.equal(p.kind, 'inputBox');
  s.hooks.legClock.advance(TWENTY_MINUTES);
  assert.equal(s.broker.queue.size, 1, 'the form is still open after 20 minutes');
  (p.widget as vscode.InputBox).value = value;
  await acceptQuickInput();
}

suite('A question may stay open: no leg of its call times out meanwhile (simulated time)', () => {
  let s: TestServices;
  let savedServers: unknown;
  let savedRate: unknown;

  suiteSetup(async function () {
    this.timeout(60_000);
    s = await services();
    savedServers = config().inspect('servers')?.workspaceValue;
    savedRate = config().inspect('rateLimit')?.workspaceValue;
    await config().update('rateLimit', { requests: 0, perSeconds: 0 }, vscode.ConfigurationTarget.Workspace);
    await config().update(
      'servers',
      {
        ...(savedServers as Record<string, unknown> | undefined),
        [MODERN]: { command: 'node', args: [fixture('mrtrStdioServer.mjs'), MODERN, 'modern'] },
      },
      vscode.ConfigurationTarget.Workspace,
    );
    await waitForRunning(s, MODERN);
    await waitForRunning(s, 'fixture');
  });
  suiteTeardown(async () => {
    await config().update('servers', savedServers, vscode.ConfigurationTarget.Workspace);
    await config().update('rateLimit', savedRate, vscode.ConfigurationTarget.Workspace);
  });
  teardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => s.broker.queue.size === 0, 'queue drained');
  });

  test('2025: a form pushed during a tool call, answered after 20 minutes: the tool result carries the answer', async () => {
    const call = elicitVia('fixture', {
      message: 'Your name, whenever you are ready?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    await answerLate(s, 'Ada');
    assert.deepEqual((await call).response, { action: 'accept', content: { name: 'Ada' } });
  });

  test('2026-07-28: an input_required round answered after 20 minutes: the retried call returns the answer', async () => {
    const call = vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', MODERN, 'form', {
      tag: 'long',
    });
    await answerLate(s, 'Grace');
    const result = JSON.parse((await call).content[0]?.text ?? 'null') as { action: string; content: unknown };
    assert.deepEqual({ action: result.action, content: result.content }, { action: 'accept', content: { name: 'Grace' } });
  });

  test('a call with no question open still times out when its time has passed', async () => {
    const before = s.hooks.legClock.waiting;
    const call = Promise.resolve(vscode.commands.executeCommand('mcpElicitation.runTool', 'fixture', 'slow', { ms: 3_600_000 }));
    const failed = assert.rejects(call, /timed out/i);
    await waitFor(() => s.hooks.legClock.waiting > before, "the call's timer armed");
    s.hooks.legClock.advance(CALL_TIMEOUT_MS);
    await failed;
  });
});
