import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { keyHeaders } from '../../src/gateway/admission';
import { GatewayDefinitionProvider } from '../../src/gateway/definitionProvider';
import { KEY_ENV, SOCKET_ENV } from '../../src/gateway/relayEnv';
import { agentTool, invoke, startAsAgent } from './agent';
import { nextPrompt, services, waitFor, waitForRunning, type WireRecord } from './helpers';

// These tests play VS Code's agent: they start the server our provider offers through VS Code's
// own MCP client (workbench.mcp.startServer), find its tools in vscode.lm.tools and call them
// with vscode.lm.invokeTool, exactly as chat in agent mode does, minus the language model.

const GW = 'gw';
const MODERN = 'gw-modern';
const RECORD_DIR = process.env['MCP_TEST_RECORD_DIR'] ?? '';
const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

/** A server that speaks only MCP 2026-07-28 (SDK v2, legacy handshake rejected): VS Code's own client cannot use it. */
function modernDef(name: string): Record<string, unknown> {
  return {
    command: 'node',
    args: [path.join(path.dirname(FIXTURE), 'mrtrStdioServer.mjs'), name, 'modern'],
    env: { FIXTURE_RECORD: path.join(RECORD_DIR, `${name}.jsonl`) },
  };
}

function fixtureDef(name: string): Record<string, unknown> {
  return { command: 'node', args: [FIXTURE, name], env: { FIXTURE_RECORD: path.join(RECORD_DIR, `${name}.jsonl`) } };
}

function records(name: string): Record<string, unknown>[] {
  const file = path.join(RECORD_DIR, `${name}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The command lines of the relay processes VS Code runs for the gateway's stdio definitions (Linux). */
function relayProcesses(): string[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').replace(/\0/g, ' ');
      } catch {
        return '';
      }
    })
    .filter((c) => c.includes('stdioRelay.js'));
}

/** A raw HTTP POST to an endpoint, with the headers given (Host included, which fetch cannot set). */
function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '0' } },
};

suite("Agent gateway: VS Code's agent calls our servers, their questions come to us", () => {
  let s: TestServices;
  let savedServers: unknown;

  suiteSetup(async () => {
    s = await services();
    savedServers = config().inspect('servers')?.workspaceValue;
    await config().update(
      'servers',
      { ...(savedServers as object | undefined), [GW]: fixtureDef(GW), [MODERN]: modernDef(MODERN) },
      vscode.ConfigurationTarget.Workspace,
    );
    await waitForRunning(s, GW);
    await waitForRunning(s, MODERN);
    await waitFor(() => s.gateway.has(GW) && s.gateway.has(MODERN), 'gateway endpoints for gw and gw-modern');
    await startAsAgent(GW);
    await startAsAgent(MODERN);
  });
  suiteTeardown(async () => {
    s.broker.queue.cancelAll();
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await config().update('servers', savedServers, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.gateway.has(GW) && !s.gateway.has(MODERN), 'gateway closed');
  });

  test('a call from the agent runs in the one process we manage (pid), which started once', async () => {
    assert.equal(await invoke(GW, 'echo', { text: 'via the agent' }), 'via the agent');
    const pid = await invoke(GW, 'pid', {});
    assert.equal(Number(pid), s.manager.get(GW)?.pid, 'the agent reached the process our connection runs');
    const viaRunTool = await vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', GW, 'pid', {});
    assert.equal(viaRunTool.content[0]?.text, pid, 'Run Tool and the agent share it');
    assert.equal(records(GW).filter((r) => r['kind'] === 'initialized').length, 1, 'the server started once');
    const init = records(GW).find((r) => r['kind'] === 'initialized') as { clientInfo?: { name?: string } } | undefined;
    assert.equal(init?.clientInfo?.name, 'mcp-elicitation-host', 'its only client is ours');
  });

  test('a tool that elicits gets our answer, and the tool result carries it', async () => {
    const call = invoke(GW, 'elicit', {
      params: {
        message: 'Your name, for the agent?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
      tag: 'gw-answer',
    });
    const p = await nextPrompt(s);
    assert.equal(p.kind, 'inputBox');
    const box = p.widget as vscode.InputBox;
    assert.match(box.title ?? '', /gw/, 'attributed to the server');
    box.value = 'Ada';
    await new Promise((r) => setTimeout(r, 0));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const wire = JSON.parse(await call) as WireRecord;
    assert.deepEqual(wire.response, { action: 'accept', content: { name: 'Ada' } });
  });

  test("a question from the agent's call stays open 20 simulated minutes; the agent still gets the answer", async () => {
    const call = invoke(GW, 'elicit', {
      params: {
        message: 'Take your time: your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
      tag: 'gw-late',
    });
    const p = await nextPrompt(s);
    assert.equal(p.kind, 'inputBox');
    // Past every timeout of the call's legs (the test build's leg timers run on this clock).
    s.hooks.legClock.advance(20 * 60_000);
    const box = p.widget as vscode.InputBox;
    box.value = 'Lin';
    await new Promise((r) => setTimeout(r, 0));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const wire = JSON.parse(await call) as WireRecord;
    assert.deepEqual(wire.response, { action: 'accept', content: { name: 'Lin' } });
  });

  test('a server that speaks only MCP 2026-07-28 works through the gateway: its input_required round is our prompt, the retry carries the answer', async () => {
    const state = s.manager.get(MODERN)?.state;
    assert.equal(state?.kind === 'running' ? state.protocolVersion : undefined, '2026-07-28', 'negotiated the new revision');
    const call = invoke(MODERN, 'form', { withState: true, tag: 'gw-modern' });
    const p = await nextPrompt(s);
    assert.equal(p.kind, 'inputBox');
    const box = p.widget as vscode.InputBox;
    assert.match(box.title ?? '', /gw-modern/, 'attributed to the server');
    box.value = 'Grace';
    await new Promise((r) => setTimeout(r, 0));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const result = JSON.parse(await call) as { action: string; content: unknown; requestState: unknown };
    assert.deepEqual(
      { action: result.action, content: result.content },
      { action: 'accept', content: { name: 'Grace' } },
      'the retry carried our answer',
    );
    assert.notEqual(result.requestState, null, 'and echoed the requestState');
    const legs = records(MODERN).filter((r) => r['kind'] === 'received' && r['method'] === 'tools/call' && r['tag'] === 'gw-modern');
    assert.equal(legs.length, 2, 'one call, one retry');
    assert.notEqual(legs[0]?.['id'], legs[1]?.['id'], 'the retry is a new request');
    // 2025-11-25 is asked first (servers/era/eraChoice.ts): one refused initialize, then nothing but 2026-07-28.
    assert.equal(records(MODERN).filter((r) => r['method'] === 'initialize').length, 1, 'one 2025 handshake, refused');
    assert.equal(state?.kind === 'running' ? state.era?.why : undefined, 'modernOnly');
  });

  test('a call the agent cancels mid-prompt closes our prompt and aborts the upstream call', async () => {
    const cts = new vscode.CancellationTokenSource();
    const call = invoke(
      GW,
      'elicit',
      {
        params: { message: 'Soon cancelled by the agent', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } },
        tag: 'gw-cancel',
      },
      cts.token,
    ).then(
      (text) => ({ text }),
      (err: unknown) => ({ err }),
    );
    await nextPrompt(s);
    assert.equal(s.broker.queue.size, 1);
    cts.cancel();
    await call;
    await waitFor(() => s.broker.queue.size === 0, 'our prompt closed');
    // Our side closes it as the call's (questionLinks.ts) unless the server's own withdrawal is
    // heard first; this fixture withdraws too, so either is right.
    assert.ok(['callCancel', 'serverCancel'].includes(s.broker.queue.history.list().at(-1)?.decidedBy ?? ''));
    // The server either withdrew its question first (it records `cancelled`) or got our one
    // `cancel` answer first: both travel right after the call's cancellation, and the SDK server
    // handles a response before a notification that came in the same read.
    await waitFor(
      () =>
        records(GW).some(
          (r) =>
            r['tag'] === 'gw-cancel' &&
            (r['kind'] === 'cancelled' || (r['kind'] === 'result' && (r['response'] as { action?: unknown })?.action === 'cancel')),
        ),
      'the upstream tool call saw the cancellation',
    );
  });

  test("a blocked server's tools still work; its elicitations are declined", async () => {
    const original = config().inspect('serverPolicy')?.workspaceValue;
    await config().update('serverPolicy', { [GW]: 'block' }, vscode.ConfigurationTarget.Workspace);
    try {
      let shown = false;
      const sub = s.hooks.onDidShowPrompt(() => (shown = true));
      const wire = JSON.parse(
        await invoke(GW, 'elicit', {
          params: { message: 'Blocked?', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } },
        }),
      ) as WireRecord;
      sub.dispose();
      assert.deepEqual(wire.response, { action: 'decline' });
      assert.equal(shown, false, 'nothing was shown');
      assert.equal(await invoke(GW, 'echo', { text: 'still works' }), 'still works');
    } finally {
      await config().update('serverPolicy', original, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('an upstream tools/list_changed reaches vscode.lm.tools', async () => {
    assert.equal(agentTool(GW, 'lateTool'), undefined);
    await invoke(GW, 'addTool', { name: 'lateTool' });
    await waitFor(() => agentTool(GW, 'lateTool') !== undefined, 'the new tool listed for the agent');
    assert.equal(await invoke(GW, 'lateTool', {}), 'lateTool here');
  });

  test("a 2026-07-28 upstream's list change (subscriptions/listen) reaches vscode.lm.tools too", async () => {
    assert.equal(agentTool(MODERN, 'lateModern'), undefined);
    await invoke(MODERN, 'addTool', { name: 'lateModern' });
    await waitFor(() => agentTool(MODERN, 'lateModern') !== undefined, 'the new tool listed for the agent');
    assert.equal(await invoke(MODERN, 'lateModern', {}), 'lateModern here');
  });

  test('an upstream that is down answers the agent with an error naming it, not a hang', async () => {
    await s.manager.get(GW)?.stop();
    try {
      const outcome = await invoke(GW, 'echo', { text: 'nobody home' }).then(
        (text) => text,
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      );
      assert.match(outcome, /not running/);
    } finally {
      await s.manager.get(GW)?.start();
      await waitForRunning(s, GW);
    }
  });

  test('requests without the key, with a foreign Origin or a foreign Host are refused', async () => {
    const def = s.gateway.definitions().find((d) => d.name === GW);
    assert.ok(def);
    const key = keyHeaders(s.gateway.secret);
    const port = new URL(def.url).port;
    assert.equal((await post(def.url, {}, INITIALIZE)).status, 403, 'no key');
    assert.equal((await post(def.url, keyHeaders('guess'), INITIALIZE)).status, 403, 'wrong key');
    assert.equal((await post(def.url, { ...key, origin: 'https://evil.example' }, INITIALIZE)).status, 403, 'foreign Origin');
    assert.equal((await post(def.url, { ...key, host: `evil.example:${port}` }, INITIALIZE)).status, 403, 'DNS rebinding: foreign Host');
    const ok = await post(def.url, key, INITIALIZE);
    assert.equal(ok.status, 200, `the same request with the key is answered: ${ok.text}`);
  });

  test('the listed definitions VS Code caches carry no key; the key is added only when VS Code resolves one to start it', async () => {
    const relay = '/ext/dist/stdioRelay.js';
    const provider = new GatewayDefinitionProvider(s.gateway, relay);
    const current = s.gateway.definitions().find((d) => d.name === GW);
    assert.ok(current?.socket, 'gw has a socket door');
    // The default: VS Code runs our relay with its own runtime, over stdio.
    const listed = provider.provideMcpServerDefinitions().find((d) => d.label === current.label);
    assert.ok(listed instanceof vscode.McpStdioServerDefinition, 'gw is listed as a stdio server');
    assert.equal(listed.command, process.execPath);
    assert.deepEqual(listed.args, [relay]);
    assert.ok(!JSON.stringify(listed).includes(s.gateway.secret), 'the key appears nowhere in what VS Code caches');
    assert.ok(!JSON.stringify(listed).includes(current.socket), 'nor the socket, which changes with each activation');
    const resolved = provider.resolveMcpServerDefinition(listed);
    assert.ok(resolved instanceof vscode.McpStdioServerDefinition, 'a listed server resolves');
    assert.equal(resolved.env[KEY_ENV], s.gateway.secret, 'the key is added for this start');
    assert.equal(resolved.env[SOCKET_ENV], current.socket);
    assert.equal(resolved.env['ELECTRON_RUN_AS_NODE'], '1');

    // The way back: HTTP, with the key added at the same moment, as a bearer token in the one
    // header VS Code masks in its Trace log (`Authorization`, spelled so).
    await config().update('gateway.transport', 'http', vscode.ConfigurationTarget.Workspace);
    try {
      const listedHttp = provider.provideMcpServerDefinitions().find((d) => d.label === current.label);
      assert.ok(listedHttp instanceof vscode.McpHttpServerDefinition, 'gw is listed as an HTTP server');
      assert.deepEqual(listedHttp.headers, {}, 'no key header in the listed definition');
      assert.ok(!JSON.stringify(listedHttp).includes(s.gateway.secret));
      const resolvedHttp = provider.resolveMcpServerDefinition(listedHttp);
      assert.ok(resolvedHttp instanceof vscode.McpHttpServerDefinition);
      assert.deepEqual(
        resolvedHttp.headers,
        { Authorization: `Bearer ${s.gateway.secret}` },
        'the key is added for this start, in Authorization alone',
      );
      assert.equal((await post(current.url, {}, INITIALIZE)).status, 403, 'the door wants it');
      assert.equal((await post(current.url, resolvedHttp.headers, INITIALIZE)).status, 200, 'and admits what the definition sends');
      assert.equal(
        (await post(current.url, { 'x-mcp-elicitation-gateway-key': s.gateway.secret }, INITIALIZE)).status,
        403,
        'the old header, which VS Code logged whole, no longer opens it',
      );
      assert.equal(resolvedHttp.uri.toString(), vscode.Uri.parse(current.url).toString());
      assert.equal(s.gateway.reach(GW).kind === 'offered' && (s.gateway.reach(GW) as { door: string }).door, current.url);
    } finally {
      await config().update('gateway.transport', undefined, vscode.ConfigurationTarget.Workspace);
    }
    const gone = new vscode.McpHttpServerDefinition('no such server', vscode.Uri.parse(current.url));
    assert.equal(provider.resolveMcpServerDefinition(gone), undefined, 'a server not offered is not started, nor given the key');
    const goneStdio = new vscode.McpStdioServerDefinition('no such server', process.execPath, [relay]);
    assert.equal(provider.resolveMcpServerDefinition(goneStdio), undefined);
  });

  test('the Servers view says the agent reaches the server; removing it closes its endpoint', async () => {
    const entry = s.manager.list().find((e) => e.name === GW);
    assert.ok(entry);
    const item = s.serversView.getTreeItem({ kind: 'server', entry });
    // First, so that a narrow sidebar, which cuts the end, still shows it.
    assert.match(String(item.description), /^agent connected · /);
    const socket = s.gateway.definitions().find((d) => d.name === GW)?.socket;
    assert.ok(socket);
    // VS Code's agent came in through the relay and the socket, not the HTTP door.
    const tooltip = (item.tooltip as vscode.MarkdownString).value.replace(/\\/g, '');
    // (The HTTP door's sessions count too: the refusal test above opened one with the key.)
    assert.match(tooltip, new RegExp(`through the gateway \\(${socket.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\); open sessions: [1-9]`));
    if (process.platform === 'linux') assert.ok(relayProcesses().length > 0, 'VS Code runs our relay');
    const fixtureEntry = s.manager.list().find((e) => e.name === 'fixture');
    assert.ok(fixtureEntry);
    assert.doesNotMatch(
      String(s.serversView.getTreeItem({ kind: 'server', entry: fixtureEntry }).description),
      /agent/,
      'an mcp.json server is not offered',
    );

    const url = s.gateway.definitions().find((d) => d.name === GW)?.url;
    assert.ok(url);
    await config().update('servers', savedServers, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !s.gateway.has(GW), 'endpoint closed');
    assert.equal(existsSync(socket), false, 'its socket is gone');
    const refused = await post(url, keyHeaders(s.gateway.secret), INITIALIZE).then(
      () => 'answered',
      (e: NodeJS.ErrnoException) => e.code,
    );
    assert.equal(refused, 'ECONNREFUSED');
    await waitFor(() => agentTool(GW, 'echo') === undefined, 'its tools left vscode.lm.tools');
  });
});
