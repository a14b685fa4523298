import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { userMcpJson } from '../../src/config/serverFiles';
import { elicitVia, nextPrompt, services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

// Issue 22, item 5, and per-file inputs (src/config/parse/fileInputs.ts). The workspace files are
// read before the profile's mcp.json, as VS Code reads them; a `.vscode/mcp.json` server named like
// a server of the user's profile must still neither hide it nor take over its name, and with it its
// policy, inputs and attribution. The workspace's is listed as "twin (workspace)". Both files
// declare an input of the same id: each server gets its own file's value.

const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const NAME = 'twin';
const RENAMED = 'twin (workspace)';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
const resolvedOf = (s: TestServices, name: string) => s.manager.list().find((e) => e.name === name)?.resolved;

/** One server of the fixture, its token from the file's own `${input:tok}`. */
function file(description: string, value: string, fixtureName: string): { inputs: unknown[]; servers: Record<string, unknown> } {
  return {
    inputs: [{ type: 'promptString', id: 'tok', description, default: value }],
    servers: { [NAME]: { command: 'node', args: [FIXTURE, fixtureName], env: { FIXTURE_TOKEN: '${input:tok}' } } },
  };
}

async function tool(server: string, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const r = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', server, name, args);
  return r.content[0]?.text ?? '';
}

suite('A workspace server named like one of the user’s takes over nothing of it', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  let profileFile = '';
  let savedPolicy: unknown;

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    profileFile = userMcpJson(s.context.globalStorageUri).fsPath;
    savedPolicy = config().inspect('serverPolicy')?.globalValue;
  });

  suiteTeardown(async () => {
    mcpJson.restore();
    rmSync(profileFile, { force: true });
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    s.broker.queue.cancelAll();
    await config().update('serverPolicy', savedPolicy, vscode.ConfigurationTarget.Global);
    await s.manager.reload();
    await waitFor(() => !s.manager.get(NAME) && !s.manager.get(RENAMED), 'both twins removed');
    await vscode.commands.executeCommand('mcpElicitation.clearInputs');
    await waitForRunning(s, 'fixture');
  });

  test('the profile’s server keeps the name, its policy and its input; the .vscode/mcp.json one is listed as "twin (workspace)" with its own', async function () {
    this.timeout(90_000);
    // The user blocks their own server by name.
    await config().update('serverPolicy', { [NAME]: 'block' }, vscode.ConfigurationTarget.Global);
    await waitFor(() => s.gatekeeper.policyFor(NAME) === 'block', 'the user’s block in force');
    mkdirSync(path.dirname(profileFile), { recursive: true });
    writeFileSync(profileFile, JSON.stringify(file('Token of your own twin', 'from-profile', 'twin-user')));
    const json = JSON.parse(mcpJson.original) as { inputs?: unknown[]; servers: Record<string, unknown> };
    const repo = file('Token of the repository twin', 'from-workspace', 'twin-repo');
    writeFileSync(
      mcpJson.path,
      JSON.stringify({ ...json, inputs: [...(json.inputs ?? []), ...repo.inputs], servers: { ...json.servers, ...repo.servers } }),
    );
    // A reload waits for the inputs it asks: not awaited before the boxes are answered.
    const reloaded = s.manager.reload();
    // Each input is asked in VS Code's own InputBox, pre-filled with its file's default: accept
    // whatever box is open until both run (bounded, at most 20 s).
    const running = (): boolean => [NAME, RENAMED].every((n) => s.manager.get(n)?.state.kind === 'running');
    for (let i = 0; i < 200 && !running(); i++) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await new Promise((r) => setTimeout(r, 100));
    }
    await reloaded;
    await waitForRunning(s, NAME);
    await waitForRunning(s, RENAMED);

    // Both listed; the name is the profile's, the renamed one still edits the workspace's file.
    assert.equal(resolvedOf(s, NAME)?.definitionUri?.fsPath, profileFile);
    assert.equal(resolvedOf(s, NAME)?.workspaceDefined, false);
    assert.equal(resolvedOf(s, RENAMED)?.definitionUri?.fsPath, mcpJson.path);
    assert.equal(resolvedOf(s, RENAMED)?.workspaceDefined, true);
    assert.equal(resolvedOf(s, RENAMED)?.def.writtenAs, NAME);
    assert.equal(await tool(NAME, 'pid'), String(s.manager.get(NAME)?.pid));
    assert.notEqual(s.manager.get(NAME)?.pid, s.manager.get(RENAMED)?.pid, 'two processes');

    // Per-file inputs: the same id, one value for each file's server.
    assert.equal(await tool(NAME, 'env', { name: 'FIXTURE_TOKEN' }), 'from-profile');
    assert.equal(await tool(RENAMED, 'env', { name: 'FIXTURE_TOKEN' }), 'from-workspace');

    // Policy: the user's block applies to their server, not to the workspace's of the same name.
    assert.equal(s.gatekeeper.policyFor(NAME), 'block');
    assert.notEqual(s.gatekeeper.policyFor(RENAMED), 'block');
    const form = { message: 'Twin?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };
    assert.deepEqual((await elicitVia(NAME, form)).response, { action: 'decline' }, "the user's blocked server is declined");
    // Attribution: the workspace's question is shown, and queued, under its own listed name.
    const shown = nextPrompt(s);
    const asked = elicitVia(RENAMED, { ...form, message: 'Twin from the repository?' });
    const prompt = await shown;
    const entry = s.broker.queue.list().find((e) => e.id === prompt.id);
    assert.equal(entry?.asker.name, RENAMED);
    assert.match(prompt.widget?.title ?? '', /twin \(workspace\)/);
    s.broker.queue.settle(prompt.id, 'cancel');
    assert.deepEqual((await asked).response, { action: 'cancel' });
  });
});
