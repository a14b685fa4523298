// Issue 24, "How it will be checked", with a server the team does not have and did not write:
// Microsoft's Azure MCP Server (`@azure/mcp`, .NET, built on the official C# MCP SDK), as a user
// installs it from npm. It runs twice, once from `.vscode/mcp.json` by VS Code's own client and
// once from our setting, routed to the agent through the gateway: the agent must see the same
// server. Then the agent asks it for a Key Vault secret: the server asks the person first
// (a form-mode `elicitation/create` with a titled `oneOf`), and that question must come here,
// say who asks, and carry the answer back as the server reads it.
//
// All of it over stdio, and again over Streamable HTTP, where the server is ASP.NET Core (Kestrel)
// writing the C# SDK's wire: VS Code's HTTP client against ours.
//
// The server looks for an Azure host (169.254.169.254) and DNS as it starts, and goes on to the
// vault once a secret read is approved. Nothing of that may leave this machine, so every copy runs
// in a network namespace of its own (`unshare -rn`), where each attempt fails at once. Over HTTP,
// test/fixtures/netnsHttpServer.mjs relays its port to this machine's loopback, bytes unchanged.
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { TestServices } from '../host/testServices';
import type { FormAnswer, FormPrompt } from '../../src/elicitation/presenter';
import { gatewayServerId } from './agent';
import { answering, services, setPolicy, startHttpFixture } from './helpers';
import { bothCopies, callSole, cancelOnceAsked, gatewayTransport, seenBy, startCopiesInTurn } from './parityView';

const ROOT = process.env['MCP_TEST_REPO_ROOT'] ?? '';
const AZMCP = path.join(ROOT, 'node_modules', '@azure', 'mcp-linux-x64', 'dist', 'azmcp');
const RELAY = path.join(ROOT, 'test', 'fixtures', 'netnsHttpServer.mjs');
const ENV = { AZURE_MCP_COLLECT_TELEMETRY: 'false' };
const ARGS = ['-rn', '--', AZMCP, 'server', 'start'];
/** Over HTTP: no sign-in in front of the server (it is on loopback, behind the relay), on the relay's port. */
const HTTP_ARGS = [
  'ASPNETCORE_URLS=http://127.0.0.1:{port}',
  '--',
  AZMCP,
  'server',
  'start',
  '--transport',
  'http',
  '--dangerously-disable-http-incoming-auth',
];
/** Every Azure namespace tool takes `intent`; `keyvault` routes to the secret read. */
const KNOWN = 'keyvault';

const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');

/** What the agent asks for: one secret, with no retries, so an approved read fails fast. */
const SECRET_READ = {
  intent: 'read the database password',
  command: 'keyvault_secret_get',
  parameters: {
    vault: 'elicitation-test-vault',
    secret: 'db-password',
    subscription: '00000000-0000-0000-0000-000000000000',
    'retry-max-retries': 0,
  },
};

for (const wire of ['stdio', 'http'] as const) {
  const VSCODE = wire === 'stdio' ? 'az-vsc' : 'ah-vsc';
  const OURS = wire === 'stdio' ? 'az-our' : 'ah-our';
  const VSCODE_ID = `mcp.config.ws0.${VSCODE}`;
  const children: ChildProcess[] = [];
  /** Over HTTP, one server (and relay) per copy, and a third that the agent's view is compared with. */
  const urls = new Map<string, string>();
  const definition = (name: string): Record<string, unknown> =>
    wire === 'stdio' ? { command: 'unshare', args: ARGS, env: ENV } : { type: 'http', url: urls.get(name) };
  const direct = (): Transport =>
    wire === 'stdio'
      ? new StdioClientTransport({ command: 'unshare', args: ARGS, env: ENV, stderr: 'ignore' })
      : new StreamableHTTPClientTransport(new URL(urls.get('direct') ?? ''));

  suite(`Azure MCP Server (.NET, the C# SDK) over ${wire}, run by VS Code and routed through us (issue 24)`, () => {
    let s: TestServices;
    let copies: ReturnType<typeof bothCopies> | undefined;
    let savedPolicy: unknown;
    let theirNames: string[] = [];
    let ourNames: string[] = [];

    suiteSetup(async function () {
      // The server ships for this platform only as `@azure/mcp-linux-x64`, and `unshare` is Linux's.
      if (process.platform !== 'linux' || process.arch !== 'x64') this.skip();
      assert.ok(existsSync(AZMCP), `${AZMCP} is installed by npm install (devDependency @azure/mcp)`);
      this.timeout(180_000);
      s = await services();
      savedPolicy = config().inspect('serverPolicy')?.workspaceValue;
      if (wire === 'http') {
        // It serves MCP at the root; the relay prints the port as the other HTTP fixtures do.
        for (const key of [VSCODE, OURS, 'direct']) {
          urls.set(key, new URL('/', await startHttpFixture(RELAY, HTTP_ARGS, children, ENV)).href);
        }
      }
      copies = bothCopies(s, { vscode: [VSCODE, definition(VSCODE)], ours: [OURS, definition(OURS)] });
      ({ theirs: theirNames, ours: ourNames } = await startCopiesInTurn(copies, { theirs: VSCODE_ID, ours: gatewayServerId(OURS) }, KNOWN));
    });

    suiteTeardown(async function () {
      this.timeout(60_000);
      await config().update('serverPolicy', savedPolicy, vscode.ConfigurationTarget.Workspace);
      await copies?.restore();
      for (const child of children) child.kill();
    });

    test('the agent gets the same tools, by the same names, from VS Code’s copy and from ours', () => {
      assert.ok(theirNames.length > 20, `VS Code lists Azure's tools (${theirNames.join(', ')})`);
      assert.deepEqual(ourNames, theirNames);
    });

    test('through the gateway an agent is told the serverInfo, instructions, capabilities and tools the server tells it directly', async function () {
      this.timeout(60_000);
      const endpoint = s.gateway.definitions().find((d) => d.name === OURS);
      assert.ok(endpoint, 'ours is offered');
      const seen = (transport: Transport) =>
        seenBy('azure-parity-probe', { elicitation: {} }, transport, async (client) => ({
          serverInfo: client.getServerVersion(),
          capabilities: client.getServerCapabilities(),
          instructions: client.getInstructions(),
          tools: (await client.listTools()).tools,
        }));
      const told = await seen(direct());
      const routed = await seen(gatewayTransport(s, endpoint));
      assert.equal((told.serverInfo as { name?: string }).name, 'Azure MCP Server');
      assert.deepEqual(routed.serverInfo, told.serverInfo);
      assert.match(told.instructions ?? '', /Azure MCP server usage rules/);
      assert.equal(routed.instructions, told.instructions);
      // The gateway adds `listChanged`: it tells the agent when a restart of the server changes its tools.
      const capabilities = told.capabilities as Record<string, object>;
      assert.deepEqual(routed.capabilities, { ...capabilities, tools: { ...capabilities['tools'], listChanged: true } });
      assert.deepEqual(routed.tools, told.tools);
    });

    /** The agent reads the secret through our copy, and `answer` answers the server's question. */
    async function readSecret(answer: FormAnswer): Promise<{ prompts: FormPrompt[]; result: string }> {
      await setPolicy(s, { [OURS]: 'allow' });
      const { prompts, done } = answering(s, () => answer);
      try {
        return { prompts, result: await callSole(KNOWN, SECRET_READ) };
      } finally {
        done.dispose();
      }
    }

    test('the server’s question before a secret read comes here, says who asks, and offers its two choices by their titles', async function () {
      this.timeout(60_000);
      const { prompts, result } = await readSecret({ action: 'decline' });
      assert.equal(prompts.length, 1);
      const [prompt] = prompts;
      assert.ok(prompt);
      assert.equal(prompt.asker.name, OURS);
      assert.match(prompt.message, /keyvault_secret_get' may expose secrets/);
      assert.deepEqual(
        prompt.form.fields.map((f) => ({
          key: f.key,
          kind: f.kind,
          required: f.required,
          options: f.kind === 'singleSelect' ? f.options : undefined,
        })),
        [
          {
            key: 'decision',
            kind: 'singleSelect',
            required: true,
            options: [
              { value: 'accept', label: 'Approve' },
              { value: 'reject', label: 'Reject' },
            ],
          },
        ],
      );
      // Declined here, the server reads nothing and tells the agent why.
      assert.equal(result, 'Operation cancelled by user (decline).');
    });

    test('cancelled here, the server reads nothing; approved, it goes on to the vault', async function () {
      this.timeout(90_000);
      assert.equal((await readSecret({ action: 'cancel' })).result, 'Operation cancelled by user (cancel).');
      // Approved: the server tries the vault, which cannot be reached from its namespace.
      const approved = await readSecret({ action: 'accept', content: { decision: 'accept' } });
      assert.equal(approved.prompts.length, 1);
      assert.match(approved.result, /elicitation-test-vault\.vault\.azure\.net/);
      assert.doesNotMatch(approved.result, /cancelled by user/);
    });

    test('the agent cancelling its call closes the question the call raised', async function () {
      this.timeout(60_000);
      await setPolicy(s, { [OURS]: 'allow' });
      await cancelOnceAsked(s, KNOWN, SECRET_READ, (shown) =>
        assert.match(shown.widget?.title ?? '', new RegExp(`MCP server “${OURS}” asks`), 'the question is on screen, naming the server'),
      );
      const last = s.broker.queue.history.list().at(-1);
      assert.deepEqual([last?.asker.name, last?.action], [OURS, 'cancel']);
    });
  });
}
