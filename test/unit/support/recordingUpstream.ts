/**
 * For the gateway endpoint's tests (gatewayEndpoint, gatewayDirectCall, gatewayRefusals): an
 * upstream that answers like a server with one slow tool and keeps what it was sent, and the
 * endpoint they open.
 */
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { GatewayEndpoint, type EndpointDeps } from '../../../src/gateway/endpoint';
import type { GatewayUpstream, RelayOptions } from '../../../src/gateway/upstream';
import type { RelayedMessage } from '../../../src/servers/connection';

export class RecordingUpstream implements GatewayUpstream {
  readonly name = 'up';
  isRunning = true;
  readonly state = { kind: 'running' };
  readonly serverCapabilities = { tools: { listChanged: true } };
  readonly serverInfo = { name: 'upstream-server', version: '9.9.9' };
  readonly instructions = 'Use the slow tool slowly.';
  readonly calls: { request: RelayedMessage; aborted: boolean }[] = [];
  private notify: ((n: RelayedMessage) => void) | undefined;

  onDidChange(): { dispose(): void } {
    return { dispose: () => undefined };
  }
  onDidNotify(listener: (n: RelayedMessage) => void): { dispose(): void } {
    this.notify = listener;
    return { dispose: () => (this.notify = undefined) };
  }
  start(): Promise<void> {
    return Promise.resolve();
  }
  fire(n: RelayedMessage): void {
    this.notify?.(n);
  }

  async relay(request: RelayedMessage, options: RelayOptions): Promise<Record<string, unknown>> {
    const entry = { request, aborted: false };
    this.calls.push(entry);
    if (request.method === 'tools/list') return { tools: [{ name: 'slow', inputSchema: { type: 'object' } }] };
    if (request.method !== 'tools/call') throw Object.assign(new Error(`upstream has no ${request.method}`), { code: -32601 });
    const args = (request.params?.['arguments'] ?? {}) as { fail?: boolean; failCode?: number; holdMs?: number };
    if (args.fail) throw Object.assign(new Error('the upstream tool broke'), { code: args.failCode ?? -32603, data: { why: 'test' } });
    options.onprogress?.({ progress: 1, total: 2, message: 'halfway' });
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, args.holdMs ?? 0);
      options.signal.addEventListener('abort', () => {
        entry.aborted = true;
        clearTimeout(t);
        resolve();
      });
    });
    return { content: [{ type: 'text', text: `done (${JSON.stringify(request.params?.['arguments'] ?? {})})` }] };
  }
}

/**
 * What a client of either door is told in its one open session: the upstream's name, capabilities
 * (no elicitation) and instructions, and its tool.
 */
export async function assertSeesUpstream(client: Client, endpoint: GatewayEndpoint): Promise<void> {
  assert.deepEqual(client.getServerVersion(), { name: 'upstream-server', version: '9.9.9' });
  assert.deepEqual(client.getServerCapabilities()?.tools, { listChanged: true });
  assert.equal(client.getInstructions(), 'Use the slow tool slowly.');
  assert.equal(endpoint.sessionCount, 1);
  assert.deepEqual(
    (await client.listTools()).tools.map((t) => t.name),
    ['slow'],
  );
}

/** A call relayed with its arguments, and the upstream's progress under the caller's own token. */
export async function assertRelaysCall(client: Client, upstream: RecordingUpstream): Promise<void> {
  const progress: unknown[] = [];
  const result = await client.callTool({ name: 'slow', arguments: { holdMs: 20 } }, undefined, { onprogress: (p) => progress.push(p) });
  assert.deepEqual(result.content, [{ type: 'text', text: 'done ({"holdMs":20})' }]);
  assert.deepEqual(progress, [{ progress: 1, total: 2, message: 'halfway' }]);
  const sent = upstream.calls.at(-1)?.request;
  assert.equal(sent?.method, 'tools/call');
  assert.equal(
    (sent?.params?.['_meta'] as { progressToken?: unknown } | undefined)?.progressToken,
    undefined,
    "the caller's token stays on this side",
  );
}

/** An endpoint for server `up` with no upstream, a quiet log and a 1 s start timeout, unless `deps` say otherwise. */
export function openTestEndpoint(deps: Partial<EndpointDeps> & Pick<EndpointDeps, 'secret'>): Promise<GatewayEndpoint> {
  return GatewayEndpoint.open({
    name: 'up',
    upstream: () => undefined,
    self: { name: 'mcp-elicitation-host', version: '0.0.0' },
    log: { info: () => undefined, warn: () => undefined },
    startTimeoutMs: 1000,
    onDidChangeSessions: () => undefined,
    ...deps,
  });
}
