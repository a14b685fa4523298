import type { ElicitationBroker } from '../elicitation/broker';
import type { Localize } from '../shared/localize';
import type { Connection, RelayedMessage } from '../servers/connection';
import { callToolWithElicitation, callWithInputRounds, UrlElicitationDeclinedError, type ToolCall } from '../servers/toolRunner';
import type { GatewayUpstream, RelayOptions } from './upstream';

/**
 * A connection as the agent gateway sees it: lookups go through as they are, and the three calls
 * that may ask the user take the same path as Run Tool's, so every elicitation they raise (pushed
 * by a 2025 server, `input_required` from a 2026-07-28 one, or a -32042 url step) is answered by
 * our broker and never reaches VS Code.
 */
export class BrokeredUpstream implements GatewayUpstream {
  constructor(
    private readonly conn: Connection,
    private readonly broker: ElicitationBroker,
    private readonly log: (m: string) => void,
    /** The language of a failed round's error, which the agent shows the user. */
    private readonly l10n: Localize,
  ) {}

  get name(): string {
    return this.conn.name;
  }
  get isRunning(): boolean {
    return this.conn.isRunning;
  }
  get state(): Connection['state'] {
    return this.conn.state;
  }
  get serverCapabilities(): Connection['serverCapabilities'] {
    return this.conn.serverCapabilities;
  }
  get serverInfo(): Connection['serverInfo'] {
    return this.conn.serverInfo;
  }
  get instructions(): string | undefined {
    return this.conn.instructions;
  }
  onDidChange(listener: () => void): { dispose(): void } {
    return this.conn.onDidChange(listener);
  }
  onDidNotify(listener: (n: RelayedMessage) => void): { dispose(): void } {
    return this.conn.onDidNotify(listener);
  }
  start(): Promise<void> {
    return this.conn.start();
  }

  async relay(request: RelayedMessage, options: RelayOptions): Promise<Record<string, unknown>> {
    const params = request.params ?? {};
    const o = { signal: options.signal, onprogress: options.onprogress, log: this.log, l10n: this.l10n };
    switch (request.method) {
      case 'tools/call':
        try {
          return await callToolWithElicitation(this.conn, this.broker, params as unknown as ToolCall, o);
        } catch (err) {
          // Passed on as an error, its -32042 would make VS Code ask for the same URL itself. The
          // user already said no here: the agent reads why in the tool's result.
          if (err instanceof UrlElicitationDeclinedError) return { content: [{ type: 'text', text: err.message }], isError: true };
          throw err;
        }
      case 'prompts/get':
      case 'resources/read':
        return (await callWithInputRounds(this.conn, this.broker, request.method, params, callLabel(request), o)) as Record<
          string,
          unknown
        >;
      default:
        return this.conn.relay(request, options);
    }
  }
}

/** What the user knows a prompt or resource call by, in round titles and errors. */
function callLabel(request: RelayedMessage): string {
  const p = request.params;
  const label = request.method === 'resources/read' ? p?.['uri'] : p?.['name'];
  return typeof label === 'string' ? label : request.method;
}
