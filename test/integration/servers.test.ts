import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning } from './helpers';

suite('Servers: connections over stdio and Streamable HTTP', () => {
  let s: TestServices;

  suiteSetup(async () => {
    s = await services();
    await waitForRunning(s, 'fixture');
    await waitForRunning(s, 'fixture-http');
  });

  test('declares form and url elicitation and lists tools, including one registered after initialize', async () => {
    const conn = s.manager.get('fixture');
    assert.ok(conn);
    await waitFor(() => conn.tools.some((t) => t.name === 'askName'), 'askName tool (list_changed after initialize)');
    const names = conn.tools.map((t) => t.name);
    for (const n of ['echo', 'elicit', 'elicitMany', 'complete', 'urlRequired', 'crash']) assert.ok(names.includes(n), `tool ${n} listed`);
    assert.equal(conn.state.kind, 'running');
    assert.equal(conn.state.kind === 'running' && conn.state.transport, 'stdio');
    const http = s.manager.get('fixture-http');
    assert.equal(http?.state.kind === 'running' && http.state.transport, 'http');
  });

  test('a tool call returns the server result (stdio and http)', async () => {
    for (const server of ['fixture', 'fixture-http']) {
      const result = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', server, 'echo', {
        text: `hello ${server}`,
      });
      assert.equal(result.content[0]?.text, `hello ${server}`);
    }
  });

  test('stop, start and restart change the state and the process', async () => {
    const conn = s.manager.get('fixture');
    assert.ok(conn);
    const pid1 = conn.pid;
    assert.ok(pid1, 'stdio server has a pid');
    await vscode.commands.executeCommand('mcpElicitation.stopServer', 'fixture');
    assert.equal(conn.state.kind, 'stopped');
    assert.throws(() => process.kill(pid1, 0), 'stopped server process is gone');
    await vscode.commands.executeCommand('mcpElicitation.startServer', 'fixture');
    await waitForRunning(s, 'fixture');
    const pid2 = conn.pid;
    assert.ok(pid2 && pid2 !== pid1);
    await vscode.commands.executeCommand('mcpElicitation.restartServer', 'fixture');
    await waitForRunning(s, 'fixture');
    assert.notEqual(conn.pid, pid2);
  });

  test('the Servers view lists both servers and their tools', () => {
    const names = s.manager.list().map((e) => e.name);
    assert.deepEqual(names.filter((n) => n.startsWith('fixture')).sort(), ['fixture', 'fixture-http']);
  });
});
