import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { userMcpJson } from '../../src/config/serverFiles';
import { services, waitFor, waitForRunning } from './helpers';

// Every file VS Code reads servers from is read here too (issue 23): a folder's root .mcp.json,
// the profile's mcp.json and Copilot Global. With VS Code's chat on, the files VS Code reads are
// its own to run (listed, never started here); with `ours` we run them. A broken file is a clear
// error naming it, and the other servers keep working.

const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
const resolvedOf = (s: TestServices, name: string) => s.manager.list().find((e) => e.name === name)?.resolved;
const entry = (name: string): Record<string, unknown> => ({ command: 'node', args: [FIXTURE, name] });

suite('Server sources: .mcp.json, the profile mcp.json and Copilot Global', () => {
  let s: TestServices;
  const saved = { mode: undefined as unknown, copilotHome: process.env['COPILOT_HOME'] };
  let folder = '';
  let profileFile = '';
  let copilotHome = '';

  suiteSetup(async () => {
    s = await services();
    folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    profileFile = userMcpJson(s.context.globalStorageUri).fsPath;
    copilotHome = mkdtempSync(path.join(os.tmpdir(), 'copilot-home-'));
    process.env['COPILOT_HOME'] = copilotHome;
    saved.mode = config().inspect('workspaceMcpJson')?.workspaceValue;
  });
  suiteTeardown(async () => {
    rmSync(path.join(folder, '.mcp.json'), { force: true });
    rmSync(profileFile, { force: true });
    rmSync(copilotHome, { recursive: true, force: true });
    if (saved.copilotHome === undefined) delete process.env['COPILOT_HOME'];
    else process.env['COPILOT_HOME'] = saved.copilotHome;
    await config().update('workspaceMcpJson', saved.mode, vscode.ConfigurationTarget.Workspace);
    await s.manager.reload();
    await waitFor(
      () => !s.manager.get('dot-mcp') && !s.manager.get('profile-mcp') && !s.manager.get('copilot-mcp'),
      'the extra servers gone',
    );
    await waitForRunning(s, 'fixture');
  });

  test('with `ours`, servers of .mcp.json, the profile mcp.json and Copilot Global run here, each attributed to its file', async () => {
    await config().update('workspaceMcpJson', 'ours', vscode.ConfigurationTarget.Workspace);
    writeFileSync(path.join(folder, '.mcp.json'), JSON.stringify({ mcpServers: { 'dot-mcp': entry('dot-mcp') } }));
    mkdirSync(path.dirname(profileFile), { recursive: true });
    writeFileSync(profileFile, JSON.stringify({ servers: { 'profile-mcp': entry('profile-mcp') } }));
    writeFileSync(path.join(copilotHome, 'mcp-config.json'), JSON.stringify({ mcpServers: { 'copilot-mcp': entry('copilot-mcp') } }));
    await s.manager.reload();
    for (const name of ['dot-mcp', 'profile-mcp', 'copilot-mcp']) await waitForRunning(s, name);
    assert.equal(resolvedOf(s, 'dot-mcp')?.definitionUri?.fsPath, path.join(folder, '.mcp.json'));
    assert.equal(resolvedOf(s, 'profile-mcp')?.definitionUri?.fsPath, profileFile);
    assert.equal(resolvedOf(s, 'copilot-mcp')?.workspaceDefined, false, "a user file is the user's, not gated by workspace trust");
    assert.equal(resolvedOf(s, 'dot-mcp')?.workspaceDefined, true, ".mcp.json is the workspace's");
    const echoed = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', 'dot-mcp', 'echo', {
      text: 'from .mcp.json',
    });
    assert.equal(echoed.content[0]?.text, 'from .mcp.json');
  });

  test("with chat on (`auto`), VS Code reads .mcp.json and the profile mcp.json itself: listed as VS Code's, not started here; Copilot Global (VS Code 1.139 does not read it) stays ours", async () => {
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    await waitFor(
      () => !s.manager.get('dot-mcp') && s.manager.vscodeOwned().some((d) => d.name === 'dot-mcp'),
      '.mcp.json handed to VS Code',
    );
    assert.ok(
      s.manager.vscodeOwned().some((d) => d.name === 'profile-mcp'),
      "the profile mcp.json is VS Code's",
    );
    assert.equal(s.manager.get('profile-mcp'), undefined);
    if (vscode.version.startsWith('1.139.')) {
      await waitForRunning(s, 'copilot-mcp');
      await waitFor(() => s.gateway.has('copilot-mcp'), 'Copilot Global offered to the agent through the gateway');
    }
  });

  test('a .mcp.json that is not JSON, or whose mcpServers is a string, is a clear error naming the file; the other servers keep running', async () => {
    await config().update('workspaceMcpJson', 'ours', vscode.ConfigurationTarget.Workspace);
    await waitForRunning(s, 'dot-mcp');
    for (const broken of ['{ "mcpServers": ', '{ "mcpServers": "npx srv" }', '[1, 2]']) {
      writeFileSync(path.join(folder, '.mcp.json'), broken);
      await s.manager.reload();
      await waitFor(() => !s.manager.get('dot-mcp'), `the broken .mcp.json's server gone (${broken})`);
      const { errors } = await s.loader.load();
      const mine = errors.filter((e) => e.file === path.join(folder, '.mcp.json'));
      assert.equal(mine.length, 1, `one error naming the file: ${JSON.stringify(errors)}`);
      assert.match(mine[0]?.message ?? '', /Invalid JSON|mcpServers/);
      assert.equal(s.manager.get('fixture')?.state.kind, 'running', 'mcp.json servers unaffected');
      assert.equal(s.manager.get('profile-mcp')?.state.kind, 'running', 'other files unaffected');
    }
  });
});
