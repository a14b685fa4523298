import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

// Every input type and variable VS Code resolves for a server (issue 23): a pickString input, a
// command input, `${command:…}`, `${config:…}` and `${workspaceFolder:Name}`. A command that
// throws is a clear error for that server alone; the other servers keep running.

const PICK_COMMAND = 'mcpElicitationTest.pickPort';
const FAILING_COMMAND = 'mcpElicitationTest.fails';
type ToolText = { content: { text: string }[] };

suite('Variables and inputs: pickString, command, ${command:…}, ${config:…}, ${workspaceFolder:Name}', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  const registrations: vscode.Disposable[] = [];
  const commandArgs: unknown[] = [];

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    registrations.push(
      vscode.commands.registerCommand(PICK_COMMAND, (args: unknown) => {
        commandArgs.push(args);
        return 8123;
      }),
      vscode.commands.registerCommand(FAILING_COMMAND, () => {
        throw new Error('no port is free');
      }),
    );
  });
  suiteTeardown(async () => {
    mcpJson.restore();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await waitFor(() => !s.manager.get('vars') && !s.manager.get('vars-broken'), 'extra servers removed');
    await vscode.commands.executeCommand('mcpElicitation.clearInputs');
    for (const d of registrations) d.dispose();
  });

  test('each resolves as VS Code resolves it, and reaches the server', async () => {
    const json = JSON.parse(mcpJson.original) as {
      inputs: unknown[];
      servers: Record<string, { args?: string[]; command?: string; env?: Record<string, string> }>;
    };
    const fixture = json.servers['fixture'];
    assert.ok(fixture?.args?.[0]);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    json.inputs = [
      ...json.inputs,
      { type: 'pickString', id: 'region', description: 'Region', options: ['eu', { label: 'United States', value: 'us' }], default: 'us' },
      { type: 'command', id: 'port', command: PICK_COMMAND, args: { min: 8000 } },
    ];
    json.servers['vars'] = {
      command: 'node',
      args: [fixture.args[0], 'vars'],
      env: {
        V_REGION: '${input:region}',
        V_PORT: '${input:port}',
        V_DIRECT: '${command:' + PICK_COMMAND + '}',
        V_CONFIG: '${config:mcpElicitation.defaultPolicy}',
        V_FOLDER: '${workspaceFolder:' + folder.name + '}',
      },
    };
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    // The pickString's QuickPick is VS Code's own; its default comes first and is accepted like Enter.
    for (let i = 0; i < 100 && s.manager.get('vars')?.state.kind !== 'running'; i++) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 100));
    }
    await waitForRunning(s, 'vars');
    const env = async (name: string): Promise<string> =>
      (await vscode.commands.executeCommand<ToolText>('mcpElicitation.runTool', 'vars', 'env', { name })).content[0]?.text ?? '';
    assert.equal(await env('V_REGION'), 'us', 'pickString: the default option');
    assert.equal(await env('V_PORT'), '8123', "command input: the command's result, as text");
    assert.deepEqual(commandArgs[0], { min: 8000 }, 'the command got its args');
    assert.equal(await env('V_DIRECT'), '8123');
    assert.equal(await env('V_CONFIG'), String(vscode.workspace.getConfiguration('mcpElicitation').get('defaultPolicy')));
    assert.equal(path.resolve(await env('V_FOLDER')), path.resolve(folder.uri.fsPath));
  });

  test('a ${command:…} that throws is a clear error for that server only; the others keep running', async () => {
    const json = JSON.parse(mcpJson.original) as { servers: Record<string, { args?: string[] }> };
    const fixturePath = json.servers['fixture']?.args?.[0] ?? '';
    json.servers['vars-broken'] = {
      command: 'node',
      args: [fixturePath, 'vars-broken', '--port=${command:' + FAILING_COMMAND + '}'],
    } as never;
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    await waitFor(
      () => s.manager.list().some((e) => e.name === 'vars-broken' && e.configError !== undefined),
      'vars-broken reported broken',
    );
    const broken = s.manager.list().find((e) => e.name === 'vars-broken');
    assert.match(
      broken?.configError?.message ?? '',
      new RegExp(`the command ${FAILING_COMMAND.replace('.', '\\.')} failed: no port is free`),
    );
    assert.equal(broken?.configError?.key, `command:${FAILING_COMMAND}`);
    assert.equal(s.manager.get('fixture')?.state.kind, 'running');
  });
});
