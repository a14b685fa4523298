import * as vscode from 'vscode';
import type { InputDefinition, ServerSource } from './parse/definitions';
import { inputStorageKey } from './parse/inputKey';
import { displayText } from '../shared/displayText';
import type { Logger } from '../util/log';
import * as safe from '../util/safeText';
import { asVariableText } from './parse/substitute';

const KNOWN_KEY = 'mcpElicitation.inputs.known';

/** The server definition an input is resolved for. */
export interface InputUse {
  readonly server: string;
  readonly source: ServerSource;
  /** Where the server is (parse/inputKey.ts): a definition that moved is asked again. */
  readonly destination: string;
}

/**
 * Values for `${input:id}`: asked once with an InputBox and remembered per workspace (per folder
 * for a folder's mcp.json) and per server definition and destination (see parse/inputKey.ts). Password inputs
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
    const workspace =
      vscode.workspace.workspaceFile?.toString() ?? (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()).join('\n');
    return inputStorageKey(input.id, { workspace, server: use.server, source: use.source, destination: use.destination });
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
    // A command input is asked of its command each time, as VS Code does: nothing to remember.
    if (input.type === 'command') return runCommandInput(input);
    const stored = input.password ? await this.secrets.get(k) : this.state.get<string>(k);
    if (stored !== undefined) {
      if (input.password) this.log.addSecret(stored);
      return stored;
    }
    // The description comes from a config file, maybe the workspace's own.
    const value =
      input.type === 'pickString'
        ? await pickInput(input, serverName)
        : await safe.showInputBox({
            title: safe.l10n.t('Input for MCP server “{0}”', displayText(serverName)),
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

/** A `pickString` input: its options in a QuickPick, the default first and selected. */
async function pickInput(input: InputDefinition, serverName: string): Promise<string | undefined> {
  const options = input.options ?? [];
  const ordered = [...options].sort((a, b) => Number(b.value === input.default) - Number(a.value === input.default));
  // Labels, description and the server's name come from a config file, maybe the workspace's own.
  const picked = await vscode.window.showQuickPick(
    ordered.map((o) => ({
      label: displayText(o.label, 200),
      ...(o.label === o.value ? {} : { description: displayText(o.value, 200) }),
      value: o.value,
    })),
    {
      title: safe.l10n.t('Input for MCP server “{0}”', displayText(serverName)),
      placeHolder: displayText(input.description || input.id, 1000),
      ignoreFocusOut: true,
    },
  );
  return picked?.value;
}

/**
 * A `command` input: runs the command with its `args` and takes its result as text. A command
 * that throws or returns nothing leaves the input unanswered, with the reason in the error.
 */
async function runCommandInput(input: InputDefinition): Promise<string | undefined> {
  if (!input.command) return undefined;
  const result = await vscode.commands.executeCommand<unknown>(input.command, ...(input.args === undefined ? [] : [input.args]));
  return asVariableText(result);
}
