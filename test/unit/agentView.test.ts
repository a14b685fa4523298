/**
 * The gateway shows the agent the same server VS Code would: the upstream's serverInfo (icons,
 * website, description), its `experimental` and `extensions`, and the client extensions the agent
 * declares (MCP Apps) offered upstream, with `ui://` resources and `_meta.ui` on tools passed
 * through unchanged. Pure mapping first, then on the wire: a real MCP client talks to the endpoint,
 * and a Session declares the extensions to a real SDK server.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { keyHeaders } from '../../src/gateway/admission';
import type { GatewayEndpoint } from '../../src/gateway/endpoint';
import { relayedCapabilities, relayedServerInfo, type GatewayUpstream, type RelayOptions } from '../../src/gateway/upstream';
import { AgentExtensions, knownAgentExtensions, relayableExtensions, sameExtensions } from '../../src/servers/capabilities/agentExtensions';
import type { RelayedMessage } from '../../src/servers/connection';
import { CLIENT_CAPABILITIES } from '../../src/servers/capabilities/clientCapabilities';
import { Session } from '../../src/servers/session';
import { FakeLaunches, MemoryLog, RecordingSampler, RecordingSink, stdioDef } from './support/fakeLaunches';
import { openTestEndpoint } from './support/recordingUpstream';

const UI = 'io.modelcontextprotocol/ui';
const APPS = { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } };
const ICON = { src: 'data:image/svg+xml;base64,PHN2Zy8+', mimeType: 'image/svg+xml', sizes: ['any'] };
const INFO = {
  name: 'everything',
  title: 'Everything',
  version: '2.0.0',
  description: 'A server with everything',
  websiteUrl: 'https://example.com/everything',
  icons: [ICON],
};

void describe('agent view: pure mapping', () => {
  void it('serverInfo is passed on whole: title, description, website and icons', () => {
    assert.deepEqual(relayedServerInfo(INFO, 'routed', '0.1.0'), INFO);
    assert.deepEqual(relayedServerInfo(undefined, 'routed', '0.1.0'), { name: 'routed', version: '0.1.0' }, 'not known yet: ours');
    assert.deepEqual(relayedServerInfo({ name: 'bare', version: '1' }, 'routed', '0.1.0'), { name: 'bare', version: '1' }, 'no empty keys');
  });

  void it('capabilities: experimental and extensions are passed on, the tasks extension and elicitation are not', () => {
    const caps = relayedCapabilities({
      tools: {},
      experimental: { 'example.com/probe': { version: 1 } },
      extensions: { 'example.com/ext': { level: 2 }, 'io.modelcontextprotocol/tasks': {} },
    });
    assert.deepEqual(caps, {
      tools: { listChanged: true },
      experimental: { 'example.com/probe': { version: 1 } },
      extensions: { 'example.com/ext': { level: 2 } },
    });
    assert.deepEqual(relayedCapabilities({ tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } }), {
      tools: { listChanged: true },
    });
  });

  void it('of what the agent declares, only extensions we relay faithfully are offered upstream', () => {
    assert.deepEqual(relayableExtensions({ roots: {}, extensions: { ...APPS, 'io.modelcontextprotocol/tasks': {}, 'x/y': {} } }), APPS);
    assert.equal(relayableExtensions({ roots: {} }), undefined);
    assert.equal(relayableExtensions({ extensions: { [UI]: 'not an object' } }), undefined);
    assert.equal(relayableExtensions(undefined), undefined);
    assert.equal(relayableExtensions([APPS]), undefined);
  });

  void it('two declarations compare by content, not key order; none and empty are the same', () => {
    assert.ok(sameExtensions({ a: { x: 1, y: [1, 2] }, b: {} }, { b: {}, a: { y: [1, 2], x: 1 } }));
    assert.ok(!sameExtensions({ a: { y: [2, 1] } }, { a: { y: [1, 2] } }));
    assert.ok(sameExtensions(undefined, {}));
    assert.ok(!sameExtensions(undefined, APPS));
  });

  void it('VS Code 1.109 and later are known to declare MCP Apps; earlier ones are not', () => {
    assert.deepEqual(knownAgentExtensions('1.139.1'), APPS);
    assert.deepEqual(knownAgentExtensions('1.109.0'), APPS);
    assert.deepEqual(knownAgentExtensions('2.0.0'), APPS);
    assert.equal(knownAgentExtensions('1.108.2'), undefined);
  });

  void it('remembers what the agent declared: the known default, grown by what agents add, per VS Code version', () => {
    let stored: unknown;
    const store = { get: () => stored, set: (v: unknown) => ((stored = v), Promise.resolve()) };
    const ext = new AgentExtensions(store, '1.139.1', APPS);
    assert.deepEqual(ext.current, APPS, 'never told: the known default');
    assert.equal(ext.learn({ extensions: { ...APPS } }), false, 'the same again changes nothing');
    assert.equal(ext.learn({ roots: {} }), false, 'a client that declares less takes nothing away (no restarts back and forth)');
    assert.deepEqual(ext.current, APPS);
    const wider = { [UI]: { mimeTypes: ['text/html;profile=mcp-app', 'text/html;profile=mcp-app-v2'] } };
    assert.equal(ext.learn({ extensions: wider }), true, 'new settings for the extension');
    assert.deepEqual(ext.current, wider);
    assert.deepEqual(stored, { vscodeVersion: '1.139.1', extensions: wider }, 'kept with the version that declared it');
    assert.deepEqual(new AgentExtensions(store, '1.139.1', APPS).current, wider, 'the next activation remembers');
    assert.deepEqual(new AgentExtensions(store, '1.140.0', APPS).current, APPS, 'a new VS Code starts from what it is known to declare');
    assert.equal(new AgentExtensions(store, '1.140.0', undefined).current, undefined);
  });
});

/** An upstream that declares everything a gateway must pass on, with an MCP App. */
class AppUpstream implements GatewayUpstream {
  readonly name = 'everything';
  readonly isRunning = true;
  readonly state = { kind: 'running' };
  readonly serverCapabilities = {
    tools: { listChanged: true },
    resources: {},
    experimental: { 'example.com/probe': { version: 1 } },
    extensions: { 'example.com/ext': { level: 2 } },
  };
  readonly serverInfo = INFO;
  readonly instructions = undefined;
  readonly tools = [
    {
      name: 'show-app',
      inputSchema: { type: 'object' },
      _meta: { ui: { resourceUri: 'ui://everything/app.html', visibility: ['model', 'app'] } },
    },
  ];
  readonly contents = [
    {
      uri: 'ui://everything/app.html',
      mimeType: 'text/html;profile=mcp-app',
      text: '<!doctype html><p>app</p>',
      _meta: { ui: { csp: { connectDomains: ['https://api.example.com'] }, prefersBorder: true } },
    },
  ];
  onDidChange(): { dispose(): void } {
    return { dispose: () => undefined };
  }
  onDidNotify(): { dispose(): void } {
    return { dispose: () => undefined };
  }
  start(): Promise<void> {
    return Promise.resolve();
  }
  relay(request: RelayedMessage, _options: RelayOptions): Promise<Record<string, unknown>> {
    if (request.method === 'tools/list') return Promise.resolve({ tools: this.tools });
    if (request.method === 'resources/read') return Promise.resolve({ contents: this.contents });
    return Promise.reject(Object.assign(new Error(`no ${request.method}`), { code: -32601 }));
  }
}

void describe('agent view: on the wire', () => {
  const upstream = new AppUpstream();
  const connecting: unknown[] = [];
  let endpoint: GatewayEndpoint;
  before(async () => {
    endpoint = await openTestEndpoint({
      name: 'everything',
      secret: 'k',
      upstream: () => upstream,
      agentConnecting: (caps) => {
        connecting.push(caps);
        return Promise.resolve();
      },
    });
  });
  after(async () => {
    await endpoint.close();
  });

  void it("a VS Code-like client sees the upstream's serverInfo and capabilities; its own declaration reaches the gateway first", async () => {
    const client = new Client(
      { name: 'Visual Studio Code', version: '1.139.1' },
      { capabilities: { roots: { listChanged: true }, extensions: APPS } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers: keyHeaders('k') } }));
    try {
      assert.deepEqual(client.getServerVersion(), INFO);
      const caps = client.getServerCapabilities();
      assert.deepEqual(caps?.experimental, { 'example.com/probe': { version: 1 } });
      assert.deepEqual(caps?.extensions, { 'example.com/ext': { level: 2 } });
      assert.deepEqual(connecting.at(-1), { roots: { listChanged: true }, extensions: APPS }, 'the initialize declaration, as sent');

      // MCP Apps: the tool's _meta.ui and the ui:// resource (its _meta.ui too) arrive unchanged.
      assert.deepEqual((await client.listTools()).tools, upstream.tools);
      const read = await client.readResource({ uri: 'ui://everything/app.html' });
      assert.deepEqual(read.contents, upstream.contents);
    } finally {
      await client.close();
    }
  });

  void it('a session launched with extensions declares them next to our own capabilities; without, exactly ours', async () => {
    for (const extensions of [APPS, undefined]) {
      const launches = new FakeLaunches();
      const session = new Session(launches.create(stdioDef('one'), { stderr: () => undefined, warn: () => undefined }), {
        name: 'one',
        clientInfo: { name: 'test-host', version: '0.0.0' },
        sink: new RecordingSink(),
        sampler: new RecordingSampler(),
        log: new MemoryLog(),
        protocolVersion: undefined,
        extensions,
      });
      await session.connect(5_000);
      const declared = launches.last.server?.server.getClientCapabilities();
      assert.deepEqual(declared, extensions ? { ...CLIENT_CAPABILITIES, extensions } : CLIENT_CAPABILITIES);
      assert.deepEqual(session.offeredExtensions, extensions);
      await session.dispose();
    }
  });
});
