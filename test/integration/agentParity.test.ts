// Issue 24 items 5 and 7: the agent sees the same server whether VS Code runs it or it is routed
// through our gateway. One SDK fixture that adapts its tools to what its client declares (as
// server-everything does) runs twice: from `.vscode/mcp.json`, started by VS Code's own client, and
// from our setting, routed to the agent through the gateway. The test compares what the agent gets
// (the tool names in `vscode.lm.tools`, serverInfo and capabilities) and what each copy of the
// server got from its client (capabilities, roots, log level), and writes the comparison as the
// README's table (see `parityTable.ts`).
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TestServices } from '../host/testServices';
import { gatewayServerId, resultText } from './agent';
import { services, waitFor } from './helpers';
import { parityTable, type SideView } from './parityTable';
import { bothCopies, gatewayTransport, seenBy, toolNamesBeside } from './parityView';
import { recordedLines, recordFile } from './fixtureRecord';

const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'adaptiveServer.mjs');
const RECORD_DIR = process.env['MCP_TEST_RECORD_DIR'] ?? '';
/** Same length, so that VS Code shortens both names alike. */
const VSCODE = 'adapt-vsc';
const OURS = 'adapt-our';
const VSCODE_ID = `mcp.config.ws0.${VSCODE}`;
const def = (name: string): Record<string, unknown> => ({
  command: 'node',
  args: [FIXTURE, name],
  env: { FIXTURE_RECORD: recordFile(name) },
});

const records = (name: string): Record<string, unknown>[] => recordedLines(recordFile(name));

const alnum = (v: string): string => v.replace(/[^a-z0-9]/gi, '').toLowerCase();

/**
 * A copy's `echo` in vscode.lm.tools. VS Code names MCP tools after the server's serverInfo title
 * (`mcp_<title, cut short>_<tool>`), and the fixture takes the copy's name as its title.
 */
const echoOf = (name: string): vscode.LanguageModelToolInformation | undefined =>
  vscode.lm.tools.find((t) => t.name.endsWith('_echo') && alnum(t.name).includes(alnum(name)));

/** The agent's tools of one copy: the names that share its `echo` tool's prefix, prefix cut. */
const toolsOf = (name: string): string[] => toolNamesBeside(echoOf(name));

const toolOf = (name: string, tool: string): vscode.LanguageModelToolInformation | undefined => {
  const echo = echoOf(name);
  return echo ? vscode.lm.tools.find((t) => t.name === `${echo.name.slice(0, -'echo'.length)}${tool}`) : undefined;
};

async function invokeJson(name: string, tool: string): Promise<Record<string, unknown>> {
  const info = toolOf(name, tool);
  assert.ok(info, `${name}'s ${tool} is listed for the agent`);
  return JSON.parse(resultText(await vscode.lm.invokeTool(info.name, { input: {}, toolInvocationToken: undefined }))) as Record<
    string,
    unknown
  >;
}

/** Starts a copy as chat would (by VS Code's server id) until its tools are listed. */
async function startCopy(name: string, id: string): Promise<void> {
  const t0 = Date.now();
  while (!echoOf(name)) {
    if (Date.now() - t0 > 60_000) {
      throw new Error(
        `${name} never reached vscode.lm.tools: ${vscode.lm.tools
          .map((t) => t.name)
          .filter((n) => n.startsWith('mcp_'))
          .join(', ')}`,
      );
    }
    await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true });
    if (!echoOf(name)) await new Promise((r) => setTimeout(r, 250));
  }
}

/** The capabilities the copy's server recorded at its last `initialize`. */
function declaredTo(name: string): Record<string, unknown> {
  const init = [...records(name)].reverse().find((r) => r['kind'] === 'initialized') as
    { capabilities?: Record<string, unknown> } | undefined;
  assert.ok(init?.capabilities, `${name} recorded its initialize`);
  return init.capabilities;
}

const lastLevel = (name: string): string | undefined =>
  ([...records(name)].reverse().find((r) => r['kind'] === 'setLevel') as { level?: string } | undefined)?.level;

/** What an MCP client declaring `capabilities` is told at initialize by a server over `transport`. */
const seenByAgent = (
  capabilities: Record<string, unknown>,
  transport: Transport,
): Promise<{ serverInfo: Record<string, unknown>; serverCapabilities: Record<string, unknown> }> =>
  seenBy('agent-parity-probe', capabilities, transport, (client) => ({
    serverInfo: { ...(client.getServerVersion() ?? {}) },
    serverCapabilities: { ...(client.getServerCapabilities() ?? {}) },
  }));

suite('Agent parity: the same server run by VS Code and routed through us (issue 24 items 5, 7)', () => {
  let s: TestServices;
  let copies: ReturnType<typeof bothCopies> | undefined;

  suiteSetup(async function () {
    this.timeout(180_000);
    s = await services();
    copies = bothCopies(s, { vscode: [VSCODE, def(VSCODE)], ours: [OURS, def(OURS)] });
    await copies.start();
    await startCopy(OURS, gatewayServerId(OURS));
    await startCopy(VSCODE, VSCODE_ID);
  });

  suiteTeardown(async function () {
    this.timeout(60_000);
    await copies?.restore();
    await waitFor(() => !echoOf(VSCODE) && !echoOf(OURS), 'both copies left vscode.lm.tools', 30_000);
  });

  test('vscode.lm.tools holds the same tool names for the server run by VS Code and routed through us, its MCP App included', async function () {
    this.timeout(120_000);
    const vsCaps = declaredTo(VSCODE);
    // The client extensions VS Code declared to the gateway reached the server (MCP Apps).
    await waitFor(
      () => JSON.stringify(declaredTo(OURS)['extensions']) === JSON.stringify(vsCaps['extensions']),
      `our client to offer what VS Code declares: ${JSON.stringify(vsCaps['extensions'])}`,
      30_000,
    ).catch(() => undefined);
    assert.deepEqual(declaredTo(OURS)['extensions'], vsCaps['extensions'], 'client extensions offered upstream');
    // A tool the server keeps for a capability our client does not declare yet is the only
    // difference allowed; none once we declare all VS Code does.
    const gated: Record<string, string> = { tasks: 'trigger-elicitation-request-async' };
    const expectedGap = Object.entries(gated)
      .filter(([cap]) => vsCaps[cap] !== undefined && declaredTo(OURS)[cap] === undefined)
      .map(([, tool]) => tool);
    const ours = (): string[] => toolsOf(OURS);
    const theirs = (): string[] => toolsOf(VSCODE).filter((t) => !expectedGap.includes(t));
    // Each copy registers its adaptive tools after initialize and announces them with
    // tools/list_changed: wait for both lists to settle on the same names.
    await waitFor(() => ours().length > 2 && JSON.stringify(ours()) === JSON.stringify(theirs()), 'the same tool names', 30_000).catch(
      () => undefined,
    );
    assert.deepEqual(ours(), theirs(), `VS Code's copy: ${toolsOf(VSCODE).join(', ')}; gap allowed: ${expectedGap.join(', ') || 'none'}`);
    if (vsCaps['extensions']) assert.ok(ours().includes('show-app'), "the server's MCP App tool reaches the agent through us");
  });

  test("what each copy gets (capabilities, roots, sampling, log level) and what the agent sees of it (serverInfo, capabilities, tools): the README's table", async function () {
    this.timeout(120_000);
    const vsCaps = declaredTo(VSCODE);
    const endpoint = s.gateway.definitions().find((d) => d.name === OURS);
    assert.ok(endpoint, 'ours is offered');
    // What an agent declaring what VS Code declares is told: directly by the server, and by our gateway.
    const direct = await seenByAgent(vsCaps, new StdioClientTransport({ command: 'node', args: [FIXTURE, OURS], stderr: 'ignore' }));
    const routed = await seenByAgent(vsCaps, gatewayTransport(s, endpoint));
    assert.deepEqual(routed.serverInfo, direct.serverInfo, 'serverInfo (icons, websiteUrl, description) passed on');
    assert.deepEqual(routed.serverCapabilities['extensions'], direct.serverCapabilities['extensions'], 'capabilities.extensions passed on');
    assert.deepEqual(routed.serverCapabilities['experimental'], direct.serverCapabilities['experimental'], 'experimental passed on');

    const vsView = await invokeJson(VSCODE, 'client-view');
    const ourView = await invokeJson(OURS, 'client-view');
    assert.deepEqual(ourView['roots'], vsView['roots'], 'the same roots');
    await waitFor(() => lastLevel(VSCODE) !== undefined && lastLevel(OURS) !== undefined, 'both clients set a log level');

    // The workspace folder's name is made per run: the table names it by what it is.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.toString();
    const named = (roots: unknown): unknown =>
      Array.isArray(roots) ? roots.map((r: unknown) => (r === folder ? 'the workspace folder' : r)) : roots;
    const vsSide: SideView = {
      clientCapabilities: vsCaps,
      roots: named(vsView['roots']),
      logLevel: lastLevel(VSCODE),
      serverInfo: { ...direct.serverInfo, name: VSCODE },
      serverCapabilities: direct.serverCapabilities,
      tools: toolsOf(VSCODE),
    };
    const ourSide: SideView = {
      clientCapabilities: declaredTo(OURS),
      roots: named(ourView['roots']),
      logLevel: lastLevel(OURS),
      serverInfo: routed.serverInfo,
      serverCapabilities: routed.serverCapabilities,
      tools: toolsOf(OURS),
    };
    const table = parityTable(vsSide, ourSide);
    writeFileSync(path.join(RECORD_DIR, 'parity.md'), `${table}\n`);
    const out = process.env['MCP_PARITY_TABLE'];
    if (out) writeFileSync(out, `${table}\n`);
    console.log(`agent parity, measured:\n${table}`);
  });
});
