import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { userMcpJson } from '../../src/config/serverFiles';
import { services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';
import { agentPids, alive, connectOurCopy, initializedClients, ourVscodeId, routeRoundTrip, startInVscode } from './routeFlow';
import { recordFile } from './fixtureRecord';

// Route and Give Back for servers of the sources VS Code 1.139 reads besides `.vscode/mcp.json`
// (that one is gatewayModel.test.ts), with VS Code's chat on: VS Code's copy runs first and
// answers the agent; after Route and the user's "Enable" only ours does; after Give Back VS
// Code's again. No file changes by a byte. With `chat.mcp.collisionBehavior: suffix` VS Code keeps
// both copies, and Route says so instead of promising that VS Code's copy stops. Copilot Global is
// ours in 1.139 with nothing to route: VS Code reads it only as a discovered collection, ordered
// after extensions' servers, so its copy yields to ours by the collision rule alone.
// The user's mcp.json: code-server's window is remote, and the file next to our global storage is
// the remote user's (`<user-data-dir>/User/mcp.json`), which VS Code reads as collection
// `usrremote`, not the profile's `usrlocal` (src/gateway/routes.ts, vscodeServerId).

const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
const chatMcp = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('chat.mcp');

const entry = (name: string): Record<string, unknown> => ({
  command: 'node',
  args: [FIXTURE, name],
  env: { FIXTURE_RECORD: recordFile(name) },
});

suite('Route from every source VS Code reads: no file changes, VS Code’s copy stops, Give Back restores it', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  let folder = '';
  const saved = { mode: undefined as unknown, collision: undefined as unknown, discovery: undefined as unknown };

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    saved.mode = config().inspect('workspaceMcpJson')?.workspaceValue;
    saved.collision = chatMcp().inspect('collisionBehavior')?.globalValue;
    saved.discovery = chatMcp().inspect('discovery.enabled')?.globalValue;
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.manager.get('fixture'), 'mcp.json servers handed to VS Code');
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    for (const name of s.routes.all()) await s.routes.remove(name);
    mcpJson.restore();
    rmSync(path.join(folder, '.mcp.json'), { force: true });
    await chatMcp().update('collisionBehavior', saved.collision, vscode.ConfigurationTarget.Global);
    await chatMcp().update('discovery.enabled', saved.discovery, vscode.ConfigurationTarget.Global);
    await config().update('workspaceMcpJson', saved.mode, vscode.ConfigurationTarget.Workspace);
    await s.manager.reload();
    // The rest of the suite drives the mcp.json fixtures through our connections again.
    await waitForRunning(s, 'fixture');
    await waitForRunning(s, 'fixture-http');
  });

  test("a folder's .mcp.json: routed and given back, the file keeps every byte", async function () {
    this.timeout(240_000);
    const name = 'dotm-route';
    const file = path.join(folder, '.mcp.json');
    // The portable format other tools share, laid out by hand.
    const text = `{\n\t"mcpServers": {\n\t\t"${name}": ${JSON.stringify(entry(name))}\n\t}\n}\n`;
    writeFileSync(file, text);
    await s.manager.reload();
    await routeRoundTrip(s, { name, file, text, vscodeId: `workspace-dot-mcp.0.${name}` });
    rmSync(file);
    await waitFor(() => !s.manager.vscodeOwned().some((d) => d.name === name), `${name} gone`);
  });

  test("the user's mcp.json: VS Code runs it (in a remote window as the remote user's), we list it as VS Code's, Route and Give Back work, the file keeps every byte", async function () {
    this.timeout(240_000);
    const name = 'usr-route';
    const file = userMcpJson(s.context.globalStorageUri).fsPath;
    const before = existsSync(file) ? readFileSync(file) : undefined;
    const vscodeId = `mcp.config.${vscode.env.remoteName === undefined ? 'usrlocal' : 'usrremote'}.${name}`;
    // Laid out by hand, with a comment, as a user edits it.
    const text = `// my own servers\n{\n  "servers": {\n    "${name}": ${JSON.stringify(entry(name))}\n  }\n}\n`;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === name), `${name} listed as VS Code's`, 30_000);
      const def = s.manager.vscodeOwned().find((d) => d.name === name);
      assert.ok(def);
      const item = s.serversView.getTreeItem({ kind: 'vscodeServer', def });
      assert.equal(item.description, 'run by VS Code · User/mcp.json');
      assert.equal(item.contextValue, 'vscodeServer.routable', 'the view offers Route');
      // The file we read is the one VS Code's own command opens as the (remote) user's mcp.json.
      const own = vscode.env.remoteName === undefined ? 'workbench.mcp.openUserMcpJson' : 'workbench.mcp.openRemoteUserMcpJson';
      await vscode.commands.executeCommand(own);
      await waitFor(() => vscode.window.activeTextEditor?.document.uri.fsPath === file, `${own} opens ${file}`);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      // Route's "Enable" stops VS Code's copy by the id we compute: a wrong id leaves it running,
      // and routeRoundTrip then times out waiting for that process to end.
      await routeRoundTrip(s, { name, file, text, vscodeId });
    } finally {
      // Even after a failure: a server left in the user's mcp.json would be VS Code's in every later suite.
      for (const route of s.routes.all()) await s.routes.remove(route);
      await vscode.commands.executeCommand('workbench.mcp.stopServer', vscodeId).then(undefined, () => undefined);
      if (before) writeFileSync(file, before);
      else rmSync(file, { force: true });
      await s.manager.reload();
    }
    await waitFor(() => !s.manager.vscodeOwned().some((d) => d.name === name) && !s.manager.get(name), `${name} gone`);
  });

  test('collisionBehavior "suffix": VS Code keeps running its copy next to ours, and Route says so; Give Back leaves VS Code’s copy running', async function () {
    this.timeout(240_000);
    const name = 'sfx-route';
    await chatMcp().update('collisionBehavior', 'suffix', vscode.ConfigurationTarget.Global);
    const json = JSON.parse(mcpJson.original) as { servers: Record<string, unknown> };
    json.servers[name] = entry(name);
    const text = `${JSON.stringify(json, null, 2)}\n`;
    writeFileSync(mcpJson.path, text);
    await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === name), `${name} listed as VS Code's`, 30_000);
    const vscodeId = `mcp.config.ws0.${name}`;
    const theirs = await startInVscode(name, vscodeId, () => true, "VS Code's copy");

    const logged = s.hooks.logLines.length;
    assert.equal(await vscode.commands.executeCommand<boolean>('mcpElicitation.routeServer', name), true);
    await waitForRunning(s, name);
    assert.ok(
      s.hooks.logLines
        .slice(logged)
        .some((l) => l.level === 'warn' && /routed, but VS Code runs its own copy too: chat.mcp.collisionBehavior/.test(l.text)),
      'the user is told VS Code keeps its copy',
    );
    // What the warning says is what VS Code does: both copies run, and the agent has both pid tools.
    await connectOurCopy(s, name);
    await vscode.commands.executeCommand('workbench.mcp.startServer', ourVscodeId(name), { waitForLiveTools: true });
    const ours = s.manager.get(name)?.pid;
    assert.ok(ours);
    await waitFor(() => alive(theirs), "VS Code's copy still runs");
    let pids: number[] = [];
    const t0 = Date.now();
    while (Date.now() - t0 < 30_000) {
      pids = (await agentPids(name)).sort();
      if (pids.length === 2) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.deepEqual(pids, [theirs, ours].sort(), 'both copies answer the agent');
    assert.equal(readFileSync(mcpJson.path, 'utf8'), text, 'mcp.json unchanged');

    // Give Back: ours stops; VS Code's copy, never disabled, runs on and is the only one left.
    assert.equal(await vscode.commands.executeCommand<boolean>('mcpElicitation.giveBackServer', name), true);
    await waitFor(() => !s.manager.get(name) && !s.gateway.has(name), 'given back');
    assert.ok(alive(theirs));
    const t1 = Date.now();
    while (Date.now() - t1 < 30_000 && (await agentPids(name)).length !== 1) await new Promise((r) => setTimeout(r, 250));
    assert.deepEqual(await agentPids(name), [theirs], "only VS Code's copy is left for the agent");
    await vscode.commands.executeCommand('workbench.mcp.stopServer', vscodeId);
    await chatMcp().update('collisionBehavior', saved.collision, vscode.ConfigurationTarget.Global);
  });

  test("Copilot Global in 1.139: VS Code reads it only through chat.mcp.discovery.enabled, after extensions' servers, so it stays ours with no Route: its discovered copy yields to ours without a click, and the file keeps every byte", async function () {
    this.timeout(240_000);
    const home = process.env['COPILOT_HOME'];
    const authority = process.env['MCP_TEST_REMOTE_AUTHORITY'];
    if (!vscode.version.startsWith('1.139.') || !home || !authority) this.skip();
    const name = 'cpg-route';
    const file = path.join(home, 'mcp-config.json');
    const text = `${JSON.stringify({ mcpServers: { [name]: entry(name) } }, null, 4)}\n`;
    writeFileSync(file, text);
    const theirsId = `copilot.${authority}.${name}`;
    try {
      await chatMcp().update('discovery.enabled', { copilot: true }, vscode.ConfigurationTarget.Global);
      await s.manager.reload();
      await waitForRunning(s, name);
      assert.ok(!s.manager.vscodeOwned().some((d) => d.name === name), "not listed as VS Code's");
      await waitFor(() => s.gateway.has(name), 'offered to the agent through the gateway');
      assert.equal(
        await vscode.commands.executeCommand<boolean>('mcpElicitation.routeServer', name),
        false,
        'nothing to route: it runs here already',
      );
      await connectOurCopy(s, name);
      const ours = await startInVscode(name, ourVscodeId(name), (pid) => pid === s.manager.get(name)?.pid, 'our copy for the agent');

      // VS Code's own copy of the discovered file, started as the user could from VS Code's list.
      const before = initializedClients(recordFile(name)).length;
      const theirsStarted = (): boolean =>
        initializedClients(recordFile(name))
          .slice(before)
          .some((c) => c !== 'mcp-elicitation-host');
      // VS Code discovers the file on its own schedule: a Start before that finds no server, so ask again.
      for (let attempt = 0; attempt < 6 && !theirsStarted(); attempt++) {
        // autoTrustChanges: the user's own Start (VS Code's code lens passes it), so no trust dialog.
        void vscode.commands.executeCommand('workbench.mcp.startServer', theirsId, { autoTrustChanges: true });
        await waitFor(theirsStarted, 'VS Code read Copilot Global and started its own copy', 20_000).catch(() => undefined);
      }
      assert.ok(theirsStarted(), 'VS Code read Copilot Global and started its own copy');
      assert.deepEqual(await agentPids(name), [ours], "VS Code's discovered copy lists no tools: the agent reaches ours only");
      assert.equal(readFileSync(file, 'utf8'), text, 'mcp-config.json unchanged');
    } finally {
      // Even after a failure: a Copilot Global server left behind would be listed by every later suite.
      await vscode.commands.executeCommand('workbench.mcp.stopServer', theirsId).then(undefined, () => undefined);
      await chatMcp().update('discovery.enabled', saved.discovery, vscode.ConfigurationTarget.Global);
      rmSync(file, { force: true });
      await s.manager.reload();
    }
    await waitFor(() => !s.manager.get(name), `${name} gone`);
  });
});
