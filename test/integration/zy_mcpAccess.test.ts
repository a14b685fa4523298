// `chat.mcp.access: "registry"` in the real host (VS Code 1.139.1): VS Code then runs no server
// written into `.vscode/mcp.json` or `.mcp.json` (only ones installed from its MCP registry), but
// it still runs extensions' servers, our gateway's. So the files' servers are ours (Run Tool, the
// API), said so in the Servers view, with nothing to route, and a routed one is not handed to the
// agent; the gateway's own server still reaches it. Back to "all", without a reload, the files'
// servers are VS Code's again and the offer to route comes.
//
// Why `zy_`: the files run in name order. This suite plays VS Code's agent and changes VS Code's
// chat settings; it runs after the Sampling suite, which needs a host with no language model but
// its own (see zy_runToolSources.test.ts), and before zz_deactivate.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { CONTEXT_KEYS } from '../../src/ui/commandContext';
import { OFFER_ANSWER_KEY } from '../../src/ui/routingOffer';
import { invoke, startAsAgent } from './agent';
import { recordFile } from './fixtureRecord';
import { services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';
import { initializedClients } from './routeFlow';

const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
/** In `.vscode/mcp.json`; VS Code's id for it is that file's collection's (folder 0) and the name. */
const FILE = 'mcpjson-reg';
const FILE_ID = `mcp.config.ws0.${FILE}`;
/** In the folder's `.mcp.json`, which VS Code reads through another discovery than `.vscode/mcp.json`. */
const DOT = 'dotmcp-reg';
const DOT_ID = `workspace-dot-mcp.0.${DOT}`;
/** In our setting: offered to the agent through the gateway. */
const GW = 'gwreg';
/** The name our client gives at initialize (package.json `name`); any other is VS Code's. */
const OUR_CLIENT = 'mcp-elicitation-host';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
const chatMcp = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('chat.mcp');
const entry = (name: string): Record<string, unknown> => ({
  command: 'node',
  args: [FIXTURE, name],
  env: { FIXTURE_RECORD: recordFile(name) },
});

/** How many times a client other than ours completed an initialize with `name`'s fixture. */
const startsByVscode = (name: string): number => initializedClients(recordFile(name)).filter((n) => n !== OUR_CLIENT).length;
const FILES = [
  [FILE, FILE_ID],
  [DOT, DOT_ID],
] as const;

suite('chat.mcp.access "registry": VS Code runs no server of its files, so they are ours; the gateway still reaches the agent', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  let dotMcp = '';
  const saved = { mode: undefined as unknown, servers: undefined as unknown, offer: undefined as unknown, answer: undefined as unknown };

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    saved.mode = config().inspect('workspaceMcpJson')?.workspaceValue;
    saved.servers = config().inspect('servers')?.workspaceValue;
    saved.offer = config().inspect('offerRouting')?.workspaceValue;
    saved.answer = s.context.workspaceState.get(OFFER_ANSWER_KEY);
    const json = JSON.parse(mcpJson.original) as { servers: Record<string, unknown> };
    json.servers[FILE] = entry(FILE);
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    dotMcp = path.join(path.dirname(path.dirname(mcpJson.path)), '.mcp.json');
    writeFileSync(dotMcp, JSON.stringify({ mcpServers: { [DOT]: entry(DOT) } }));
    await config().update('servers', { ...(saved.servers as object | undefined), [GW]: entry(GW) }, vscode.ConfigurationTarget.Workspace);
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    await waitFor(
      () => FILES.every(([n]) => s.manager.vscodeOwned().some((d) => d.name === n)) && s.gateway.has(GW),
      `${FILE} and ${DOT} VS Code's, ${GW} offered`,
      30_000,
    );
  });

  suiteTeardown(async () => {
    await chatMcp().update('access', undefined, vscode.ConfigurationTarget.Global);
    for (const route of s.routes.all()) await s.routes.remove(route);
    for (const [, id] of FILES) await vscode.commands.executeCommand('workbench.mcp.stopServer', id).then(undefined, () => undefined);
    mcpJson.restore();
    rmSync(dotMcp, { force: true });
    await config().update('servers', saved.servers, vscode.ConfigurationTarget.Workspace);
    await config().update('offerRouting', saved.offer, vscode.ConfigurationTarget.Workspace);
    await s.context.workspaceState.update(OFFER_ANSWER_KEY, saved.answer);
    await config().update('workspaceMcpJson', saved.mode, vscode.ConfigurationTarget.Workspace);
    await s.manager.reload();
    await waitFor(() => [FILE, DOT, GW].every((n) => !s.manager.get(n)), "the suite's servers gone");
    // The rest of the suite drives the mcp.json fixtures through our connections again.
    await waitForRunning(s, 'fixture');
  });

  test('"registry": the servers of .vscode/mcp.json and .mcp.json run here, not in VS Code, with no offer to route; the agent still calls the gateway’s server; "all" again gives it back to VS Code', async function () {
    this.timeout(240_000);
    const asked: string[][] = [];
    const intercepted = s.hooks.routingOffer.intercept('ask', () => (servers) => {
      asked.push(servers.map((d) => d.name));
      // Closed unanswered: nothing is kept, nothing routed.
      return Promise.resolve(undefined);
    });
    try {
      await chatMcp().update('access', 'registry', vscode.ConfigurationTarget.Global);

      // Ours now: running here, not listed as VS Code's, nothing to route.
      await waitFor(() => !s.manager.vscodeOwned().some((d) => d.name === FILE || d.name === DOT), `${FILE}, ${DOT} no longer VS Code's`);
      await waitForRunning(s, FILE);
      await waitForRunning(s, DOT);
      // The offer on and unanswered, as in a workspace that never saw it; off and on is the
      // user's way to have it again in this window.
      await s.context.workspaceState.update(OFFER_ANSWER_KEY, undefined);
      await config().update('offerRouting', false, vscode.ConfigurationTarget.Workspace);
      await config().update('offerRouting', true, vscode.ConfigurationTarget.Workspace);
      await waitFor(() => s.commandContext.get(CONTEXT_KEYS.canRoute) === false, 'Route hidden');
      assert.equal(s.commandContext.get(CONTEXT_KEYS.mcpJsonRunBy), 'extension');
      const entryOf = (name: string) => s.manager.list().find((e) => e.name === name);
      const fileEntry = entryOf(FILE);
      assert.ok(fileEntry);
      const fileRow = s.serversView.getTreeItem({ kind: 'server', entry: fileEntry });
      assert.doesNotMatch(String(fileRow.description), /run by VS Code/, 'not "run by VS Code"');
      assert.match(String(fileRow.description), /^not offered to the agent \(registry only\) · /, 'the row says the agent does not get it');
      const fileTip = (fileRow.tooltip as vscode.MarkdownString).value.replace(/\\/g, ''); // Markdown-escaped, as every row's text.
      assert.match(fileTip, /not offered\. chat\.mcp\.access is "registry", so VS Code runs only servers installed from its MCP registry/);
      assert.ok(fileTip.includes(`not those written in ${mcpJson.path}.`), `the tooltip names the file: ${fileTip}`);
      assert.equal(s.gateway.has(FILE), false, 'not offered through the gateway either');

      // What VS Code does: asked to start the files' servers as chat would, it has no such server.
      for (let i = 0; i < 3; i++) {
        for (const [, id] of FILES) await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true });
        await new Promise((r) => setTimeout(r, 500));
      }
      for (const [name] of FILES) {
        assert.equal(
          startsByVscode(name),
          0,
          `VS Code started ${name} under "registry": ${initializedClients(recordFile(name)).join(', ')}`,
        );
      }

      // The gateway's server: VS Code still starts it, and the agent's call reaches our process.
      await startAsAgent(GW);
      assert.equal(await invoke(GW, 'echo', { text: 'registry only' }), 'registry only');
      const gwEntry = entryOf(GW);
      assert.ok(gwEntry);
      assert.match(String(s.serversView.getTreeItem({ kind: 'server', entry: gwEntry }).description), /^agent connected · /);
      assert.equal(JSON.stringify(asked), '[]', 'no offer to route: VS Code runs none of the file’s servers');

      // Back to "all", no reload: VS Code's again, we stop ours, and the offer lists it.
      await chatMcp().update('access', 'all', vscode.ConfigurationTarget.Global);
      await waitFor(
        () => FILES.every(([n]) => s.manager.vscodeOwned().some((d) => d.name === n) && !s.manager.get(n)),
        `${FILE}, ${DOT} VS Code's again`,
      );
      await waitFor(() => s.commandContext.get(CONTEXT_KEYS.canRoute) === true, 'Route offered');
      await waitFor(() => asked.length === 1, 'the offer to route, once VS Code runs the file’s servers again', 30_000);
      assert.ok(asked[0]?.includes(FILE) && asked[0].includes(DOT), `the offer lists ${FILE} and ${DOT}: ${JSON.stringify(asked)}`);
      // The same start command now does start them in VS Code: the check above could fail.
      for (const [name, id] of FILES) {
        const t0 = Date.now();
        while (startsByVscode(name) === 0 && Date.now() - t0 < 60_000) {
          await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true });
          await new Promise((r) => setTimeout(r, 250));
        }
        assert.equal(startsByVscode(name), 1, `VS Code started ${name} under "all"`);
        await vscode.commands.executeCommand('workbench.mcp.stopServer', id);
      }
      assert.ok(s.gateway.has(GW), 'the gateway’s server is offered throughout');
    } finally {
      intercepted.dispose();
      await chatMcp().update('access', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('a server routed before "registry" is not handed to the agent while it holds; "all" again offers it again', async function () {
    this.timeout(120_000);
    try {
      await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === FILE), `${FILE} VS Code's`);
      assert.equal(await vscode.commands.executeCommand<boolean>('mcpElicitation.routeServer', FILE), true);
      await waitFor(() => s.gateway.has(FILE), 'routed: offered through the gateway');

      await chatMcp().update('access', 'registry', vscode.ConfigurationTarget.Global);
      await waitFor(() => !s.gateway.has(FILE), 'not offered under "registry"');
      await waitForRunning(s, FILE);
      assert.equal(s.gateway.reach(FILE).kind, 'registryOnly', 'the Servers view says why');
      assert.ok(s.gateway.has(GW), 'our setting’s server still is');

      await chatMcp().update('access', 'all', vscode.ConfigurationTarget.Global);
      await waitFor(() => s.gateway.has(FILE), 'offered again under "all"');
    } finally {
      await chatMcp().update('access', undefined, vscode.ConfigurationTarget.Global);
      for (const route of s.routes.all()) await s.routes.remove(route);
    }
  });
});
