import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

suite('envFile: values from a .env file reach a stdio server', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  let envPath: string;

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    envPath = path.join(path.dirname(mcpJson.path), 'test.env');
  });
  suiteTeardown(async () => {
    mcpJson.restore();
    rmSync(envPath, { force: true });
    await waitFor(() => !s.manager.get('extra-envfile'), 'extra server removed');
  });

  test('quoted, commented and multi-line values arrive as written; env in mcp.json wins over the file', async () => {
    writeFileSync(
      envPath,
      ['# test env', 'QUOTED="v" # comment', 'MULTI="first', 'second"', 'export PLAIN=plain # c', 'OVERRIDDEN=from-file', ''].join('\n'),
    );
    const json = JSON.parse(mcpJson.original) as { servers: Record<string, { args?: string[]; command?: string }> };
    const fixture = json.servers['fixture'];
    assert.ok(fixture?.args);
    // Relative to the workspace folder, as in VS Code's own mcp.json.
    json.servers['extra-envfile'] = {
      command: fixture.command ?? 'node',
      args: [fixture.args[0] ?? '', 'extra-envfile'],
      envFile: '.vscode/test.env',
      env: { OVERRIDDEN: 'from-mcp-json' },
    } as never;
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    await waitForRunning(s, 'extra-envfile');
    const read = async (name: string): Promise<string | undefined> =>
      (await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', 'extra-envfile', 'env', { name }))
        .content[0]?.text;
    assert.equal(await read('QUOTED'), 'v');
    assert.equal(await read('MULTI'), 'first\nsecond');
    assert.equal(await read('PLAIN'), 'plain');
    assert.equal(await read('OVERRIDDEN'), 'from-mcp-json');
  });
});
