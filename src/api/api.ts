import * as vscode from 'vscode';
import type { McpElicitationHostApi, ElicitParams, ElicitResult, ServerInfo, PendingElicitation } from '../../api/mcpElicitationHost';
import type { ElicitationBroker } from '../elicitation/broker';
import type { ServerManager } from '../servers/serverManager';
import { describeState } from '../servers/serverState';
import { Disposable } from '../util/disposable';

/** Builds the versioned public API over the broker and server manager. */
export class PublicApi extends Disposable implements McpElicitationHostApi {
  readonly version = 1 as const;
  private readonly _onDidChangePending = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangePending = this._onDidChangePending.event;
  readonly onDidChangeServers: vscode.Event<void>;
  private seq = 0;

  constructor(
    private readonly broker: ElicitationBroker,
    private readonly manager: ServerManager,
  ) {
    super();
    this.onDidChangeServers = manager.onDidChange;
    this._register(broker.queue.onDidChange(() => this._onDidChangePending.fire()));
  }

  async elicit(params: ElicitParams, options: { source: string; signal?: AbortSignal }): Promise<ElicitResult> {
    if (typeof options.source !== 'string' || options.source.trim() === '') throw new Error('elicit: options.source (the attribution shown to the user) is required');
    const result = await this.broker.handle(
      { name: options.source, serverInfo: undefined },
      params,
      { signal: options.signal ?? new AbortController().signal, requestId: `api:${++this.seq}` },
    );
    return result as ElicitResult;
  }

  servers(): readonly ServerInfo[] {
    return this.manager.list().map((e) => ({
      name: e.name,
      state: e.connection?.state.kind ?? 'error',
      detail: e.configError ? e.configError.message : e.connection ? describeState(e.connection.state) : '',
      tools: e.connection?.tools.map((t) => t.name) ?? [],
    }));
  }

  pending(): readonly PendingElicitation[] {
    return this.broker.queue.list().map((e) => ({ id: e.id, server: e.server, mode: e.mode, message: e.message, state: e.state, createdAt: e.createdAt }));
  }
}
