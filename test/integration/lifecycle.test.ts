import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning } from './helpers';

function mcpJsonPath(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'test workspace open');
  return path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

suite('Lifecycle: crashes, configuration changes and transports', () => {
  let s: TestServices;
  let originalMcpJson: string;

  suiteSetup(async () => {
    s = await services();
    await waitForRunning(s, 'fixture');
    await waitForRunning(s, 'fixture-http');
    originalMcpJson = readFileSync(mcpJsonPath(), 'utf8');
  });

  suiteTeardown(async () => {
    writeFileSync(mcpJsonPath(), originalMcpJson);
    await vscode.workspace.getConfiguration('mcpElicitation').update('servers', undefined, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.manager.list().some((e) => e.name.startsWith('extra-') || e.name === 'broken'), 'extra servers removed');
    await waitForRunning(s, 'fixture');
  });

  test('a crashed server is restarted automatically with a new process', async () => {
    const conn = s.manager.get('fixture');
    assert.ok(conn?.pid);
    const pid = conn.pid;
    await vscode.commands.executeCommand('mcpElicitation.runTool', 'fixture', 'crash', { delayMs: 50 });
    await waitFor(() => conn.state.kind === 'error' || conn.pid !== pid, 'crash noticed');
    await waitForRunning(s, 'fixture');
    assert.notEqual(conn.pid, pid);
    assert.equal(isAlive(pid), false, 'the crashed process is gone');
  });

  test('a server that keeps failing is given up after 5 tries while others keep running', async () => {
    await vscode.workspace
      .getConfiguration('mcpElicitation')
      .update('servers', { 'extra-crasher': { command: 'node', args: ['-e', 'process.exit(7)'] } }, vscode.ConfigurationTarget.Workspace);
    await waitFor(
      () => {
        const st = s.manager.get('extra-crasher')?.state;
        return st?.kind === 'error' && st.gaveUp;
      },
      'give-up after retries',
      30_000,
    );
    assert.equal(s.manager.get('fixture')?.state.kind, 'running');
    assert.equal(s.manager.get('fixture-http')?.state.kind, 'running');
  });

  test('a bad definition is reported with file, server and key while the other servers keep running', async () => {
    const json = JSON.parse(originalMcpJson) as { servers: Record<string, unknown> };
    json.servers['broken'] = { type: 'stdio', args: ['x'] };
    const fixturePid = s.manager.get('fixture')?.pid;
    writeFileSync(mcpJsonPath(), JSON.stringify(json, null, 2));
    await waitFor(() => s.manager.list().some((e) => e.name === 'broken' && e.configError), 'broken server listed with its error');
    const entry = s.manager.list().find((e) => e.name === 'broken');
    assert.match(entry?.configError?.message ?? '', /command/);
    assert.equal(entry?.configError?.file, mcpJsonPath());
    assert.equal(s.manager.get('fixture')?.pid, fixturePid, 'untouched server not restarted');
    assert.equal(s.manager.get('fixture')?.state.kind, 'running');
  });

  test('editing one server restarts only that server', async () => {
    const json = JSON.parse(originalMcpJson) as { servers: Record<string, { env?: Record<string, string> }> };
    const fixture = s.manager.get('fixture');
    const http = s.manager.get('fixture-http');
    const pid = fixture?.pid;
    const target = json.servers['fixture'];
    assert.ok(target);
    target.env = { ...target.env, EXTRA: '1' };
    writeFileSync(mcpJsonPath(), JSON.stringify(json, null, 2));
    await waitFor(() => s.manager.get('fixture') !== fixture, 'fixture replaced');
    await waitForRunning(s, 'fixture');
    assert.notEqual(s.manager.get('fixture')?.pid, pid);
    assert.equal(s.manager.get('fixture-http'), http, 'the http server connection was kept');
  });

  test('legacy SSE, both declared and as the fallback of a Streamable HTTP 4xx', async () => {
    const sse = process.env['MCP_TEST_SSE_URL'];
    assert.ok(sse);
    await vscode.workspace
      .getConfiguration('mcpElicitation')
      .update(
        'servers',
        { 'extra-sse': { type: 'sse', url: sse }, 'extra-fallback': { type: 'http', url: sse } },
        vscode.ConfigurationTarget.Workspace,
      );
    await waitForRunning(s, 'extra-sse');
    await waitForRunning(s, 'extra-fallback');
    for (const name of ['extra-sse', 'extra-fallback']) {
      const st = s.manager.get(name)?.state;
      assert.equal(st?.kind === 'running' && st.transport, 'sse', `${name} runs over SSE: ${JSON.stringify(st)}`);
      const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', name, 'echo', {
        text: name,
      });
      assert.equal(r.content[0]?.text, name);
    }
  });
});
