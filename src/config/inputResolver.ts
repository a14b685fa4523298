import * as vscode from 'vscode';
import type { InputDefinition, ServerSource } from './parse/definitions';
import { inputStorageKey } from './parse/inputKey';
import { displayText } from '../elicitation/safety/displayText';
import type { Logger } from '../util/log';
import * as safe from '../util/safeText';

const KNOWN_KEY = 'mcpElicitation.inputs.known';

/** The server definition an input is resolved for. */
export interface InputUse {
  readonly server: string;
  readonly source: ServerSource;
}

/**
 * Values for `${input:id}`: asked once with an InputBox and remembered per workspace (per folder
 * for a folder's mcp.json) and per server definition (see parse/inputKey.ts). Password inputs
 * live in SecretStorage only; everything else in workspace state. Neither ever reaches settings
 * or the log (password values are registered with the logger's redactor).
 */
export class InputResolver {
  private readonly inflight = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly secrets: vscode.SecretStorage,
    private readonly log: Logger,
  ) {}

  /** The SecretStorage (password) or workspace state key of `input` for `use`. */
  storageKey(input: InputDefinition, use: InputUse): string {
    const workspace = vscode.workspace.workspaceFile?.toString() ?? (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()).join('\n');
    return inputStorageKey(input.id, { workspace, server: use.server, source: use.source });
  }

  /** The value, asking the user if it is not remembered; undefined if the user dismissed the box. */
  resolve(input: InputDefinition, use: InputUse): Promise<string | undefined> {
    const k = this.storageKey(input, use);
    let p = this.inflight.get(k);
    if (!p) {
      p = this.resolveOnce(input, use.server, k).finally(() => this.inflight.delete(k));
      this.inflight.set(k, p);
    }
    return p;
  }

  private async resolveOnce(input: InputDefinition, serverName: string, k: string): Promise<string | undefined> {
    const stored = input.password ? await this.secrets.get(k) : this.state.get<string>(k);
    if (stored !== undefined) {
      if (input.password) this.log.addSecret(stored);
      return stored;
    }
    const value = await safe.showInputBox({
      title: safe.l10n.t('Input for MCP server “{0}”', displayText(serverName)),
      // The description comes from a config file, maybe the workspace's own.
      prompt: displayText(input.description || input.id, 1000),
      password: input.password,
      ignoreFocusOut: true,
      ...(input.default !== undefined ? { value: input.default } : {}),
    });
    if (value === undefined) return undefined;
    if (input.password) {
      this.log.addSecret(value);
      await this.secrets.store(k, value);
    } else {
      await this.state.update(k, value);
    }
    const known = new Set(this.state.get<string[]>(KNOWN_KEY, []));
    known.add(k);
    await this.state.update(KNOWN_KEY, [...known]);
    return value;
  }

  /** Forgets every remembered input of this workspace (and only of this one). */
  async clear(): Promise<number> {
    const known = this.state.get<string[]>(KNOWN_KEY, []);
    for (const k of known) {
      await this.state.update(k, undefined);
      await this.secrets.delete(k);
    }
    await this.state.update(KNOWN_KEY, []);
    return known.length;
  }
}
