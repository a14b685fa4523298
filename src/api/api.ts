import * as vscode from 'vscode';
import type { McpElicitationHostApi, ElicitParams, ElicitResult, ServerInfo, PendingElicitation } from '../../api/mcpElicitationHost';
import type { ElicitationBroker } from '../elicitation/broker';
import { askerFor } from '../elicitation/asker';
import type { ServerManager } from '../servers/serverManager';
import { describeState } from '../servers/serverState';
import { Disposable } from '../util/disposable';
import { Emitter, type Event } from '../util/emitter';
import { EXTENSION_NAME_PREFIX } from '../config/parse/definitions';
import { callingExtension, callStackFrames, type InstalledExtension } from './caller';

/** Builds the versioned public API over the broker and server manager. */
export class PublicApi extends Disposable implements McpElicitationHostApi {
  readonly version = 1 as const;
  private readonly _onDidChangePending = this._register(new Emitter<void>());
  readonly onDidChangePending = this._onDidChangePending.event;
  readonly onDidChangeServers: Event<void>;
  private seq = 0;

  constructor(
    private readonly broker: ElicitationBroker,
    private readonly manager: ServerManager,
  ) {
    super();
    this.onDidChangeServers = manager.onDidChange;
    this._register(broker.queue.onDidChange(() => this._onDidChangePending.fire()));
  }

  elicit(params: ElicitParams, options: { source?: string; signal?: AbortSignal }): Promise<ElicitResult> {
    // Read synchronously, before the first await: later the caller's frames are gone.
    const caller = callingExtension(
      callStackFrames(),
      [__filename],
      vscode.extensions.all.map((e) => ({ id: e.id, folder: e.extensionUri.fsPath })),
    );
    if (!caller) {
      return Promise.reject(
        new Error("elicit: the calling extension could not be told from the call stack; call elicit directly from your extension's code"),
      );
    }
    return this.elicitAs(caller, params, options);
  }

  private async elicitAs(
    caller: InstalledExtension,
    params: ElicitParams,
    options: { source?: string; signal?: AbortSignal },
  ): Promise<ElicitResult> {
    const label =
      typeof options.source === 'string' && options.source.trim() !== ''
        ? options.source
        : (vscode.extensions.getExtension(caller.id)?.packageJSON as { displayName?: unknown } | undefined)?.displayName;
    // The extension's id is its name, policy key and rate-limit bucket; `source` is only a label
    // beside it, so naming a configured server there borrows nothing of that server's.
    const result = await this.broker.handle(
      askerFor(
        `${EXTENSION_NAME_PREFIX}${caller.id}`,
        typeof label === 'string' && label.trim() !== '' ? { name: label, version: '' } : undefined,
      ),
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
    return this.broker.queue
      .list()
      .map((e) => ({ id: e.id, server: e.asker.name, mode: e.mode, message: e.message, state: e.state, createdAt: e.createdAt }));
  }
}
