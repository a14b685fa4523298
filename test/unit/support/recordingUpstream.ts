/**
 * For the gateway endpoint's tests (gatewayEndpoint, gatewayDirectCall, gatewayRefusals): an
 * upstream that answers like a server with one slow tool and keeps what it was sent, and the
 * endpoint they open.
 */
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
