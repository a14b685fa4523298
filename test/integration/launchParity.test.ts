import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { resultText } from './agent';
import { parseToolText, services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

// Routing loses nothing, part 1: the same stdio server, started once by VS Code from mcp.json and
// once by us from our setting, must see the same process: working directory, PATH (with `env.PATH`
// appended, not replacing it), a variable that only the host's environment has, and a `null` that
// removes one. Before servers/launch.ts ours saw six variables and the host's cwd. Checked with
// our SDK fixture and with the Python server written from the spec (issue 23, "independent
// servers"), which reads its process with Python's own calls.

const FIXTURES = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures');
// Set by the harness in the extension host's environment only: it reaches a server only if the whole environment does.
const HOST_ONLY_VARIABLE = 'MCP_TEST_REPO_ROOT';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

interface LaunchReport {
  readonly cwd: string;
  readonly path: string | null;
  readonly value: string | null;
  readonly unset: boolean;
}

/** One server, started by VS Code from `.vscode/mcp.json` (as `vscodeName`) and by us from our setting (as `ourName`). */
interface LaunchCase {
  readonly command: string;
  /** Its arguments, given the name it runs under (the Python server reports it as its serverInfo). */
  readonly args: (name: string) => string[];
  readonly vscodeName: string;
  readonly ourName: string;
  /** A part of the agent's name for VS Code's copy's `launch` tool that no other server's has. */
  readonly toolFragment: string;
}

/**
 * Starts VS Code's copy and calls its `launch` tool. VS Code names the tools after the server's
 * `serverInfo` and a shortened label (`mcp_fixture_parit_launch`); ours is not started for the
 * agent, so exactly one such tool may exist.
 */
async function invokeVscodeCopy(c: LaunchCase, variable: string): Promise<string> {
  const find = (): vscode.LanguageModelToolInformation[] =>
    vscode.lm.tools.filter((t) => t.name.endsWith('_launch') && t.name.includes(c.toolFragment));
  // The workbench learns of the new mcp.json entry a moment after the write: ask until it starts it.
  const t0 = Date.now();
  while (find().length === 0) {
    if (Date.now() - t0 > 30_000) throw new Error(`VS Code never listed ${c.vscodeName}'s launch tool`);
    await vscode.commands.executeCommand('workbench.mcp.startServer', `mcp.config.ws0.${c.vscodeName}`, { waitForLiveTools: true });
    if (find().length === 0) await new Promise((r) => setTimeout(r, 250));
  }
  const tools = find();
  assert.equal(tools.length, 1, `one launch tool: ${tools.map((t) => t.name).join(', ')}`);
  return resultText(await vscode.lm.invokeTool(tools[0]?.name ?? '', { input: { name: variable }, toolInvocationToken: undefined }));
}

suite('Launch parity: a stdio server started by us sees what it sees when VS Code starts it', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  const saved = { mode: undefined as unknown, servers: undefined as unknown };

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    saved.mode = config().inspect('workspaceMcpJson')?.workspaceValue;
    saved.servers = config().inspect('servers')?.workspaceValue;
  });
  suiteTeardown(async () => {
    // The rest of the suite drives the mcp.json fixtures through our connections again.
    await waitForRunning(s, 'fixture');
  });

  /**
   * Runs the same definition (relative cwd, `env.PATH`, `env` null) once from mcp.json by VS Code
   * and once from our setting, calls `launch` on each and checks that both saw the same process.
   * mcp.json and our settings are restored whatever fails.
   */
  async function compareLaunch(c: LaunchCase): Promise<void> {
    process.env['FIXTURE_UNSET_ME'] = 'present in the host';
    const definition = (name: string): object => ({
      command: c.command,
      args: c.args(name),
      cwd: '.vscode',
      env: { PATH: '/parity/extra/bin', FIXTURE_UNSET_ME: null },
    });
    try {
      // VS Code's copy: chat is on in this host, so with `auto` the mcp.json servers are VS Code's.
      await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
      const json = JSON.parse(mcpJson.original) as { servers: Record<string, unknown> };
      json.servers[c.vscodeName] = definition(c.vscodeName);
      writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
      // Ours: the same definition in our (workspace) setting.
      const ours = { ...(saved.servers as Record<string, unknown> | undefined), [c.ourName]: definition(c.ourName) };
      await config().update('servers', ours, vscode.ConfigurationTarget.Workspace);
      await waitForRunning(s, c.ourName);

      const fromUs = parseToolText(
        await vscode.commands.executeCommand('mcpElicitation.runTool', c.ourName, 'launch', { name: HOST_ONLY_VARIABLE }),
      ) as unknown as LaunchReport;
      const fromVscode = JSON.parse(await invokeVscodeCopy(c, HOST_ONLY_VARIABLE)) as LaunchReport;

      const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
      assert.equal(fromVscode.cwd, path.join(folder, '.vscode'), 'VS Code joins a relative cwd to the folder (the reference)');
      assert.deepEqual(fromUs, fromVscode, 'the same process either way');
      assert.equal(fromUs.value, process.env[HOST_ONLY_VARIABLE], 'a variable only the host has reaches the server');
      assert.ok(
        fromUs.path?.endsWith(`${path.delimiter}/parity/extra/bin`) && fromUs.path.length > '/parity/extra/bin'.length + 1,
        `PATH extended, not replaced: ${fromUs.path}`,
      );
      assert.equal(fromUs.unset, false, 'env null removed the variable');
    } finally {
      mcpJson.restore();
      await config().update('servers', saved.servers, vscode.ConfigurationTarget.Workspace);
      await config().update('workspaceMcpJson', saved.mode, vscode.ConfigurationTarget.Workspace);
      await waitFor(() => !s.manager.get(c.ourName), `${c.ourName} gone`);
    }
  }

  test('SDK server: same cwd (relative cwd joined to the folder), same host variable, same PATH with env.PATH appended, null unsets', () =>
    compareLaunch({
      command: 'node',
      args: () => [path.join(FIXTURES, 'stdioServer.mjs'), 'parity'],
      vscodeName: 'parity-vscode',
      ourName: 'ours-launch',
      toolFragment: 'parit',
    }));

  test('Python server written from the spec: the same comparison, read by Python (os.getcwd, os.environ)', () =>
    compareLaunch({
      command: 'python3',
      args: (name) => [path.join(FIXTURES, 'pyServer.py'), name],
      vscodeName: 'pyvsc-launch',
      ourName: 'pyour-launch',
      toolFragment: 'pyvsc',
    }));
});
