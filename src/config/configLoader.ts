import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import { Disposable } from '../util/disposable';
import { Emitter } from '../util/emitter';
import type { Logger } from '../util/log';
import { SECTION } from './settings';
import { destination } from './parse/serverFingerprint';
import { InputResolver } from './inputResolver';
import { parseEnvFile } from './parse/envFile';
import { parseInputsSetting, parseServersSetting } from './parse/mcpJson';
import { mergeDefinitions } from './parse/mergeDefinitions';
import { formatConfigError } from './parse/report';
import { describeIgnoredKeys, sourceFile, type ConfigError, type InputDefinition, type ServerDefinition } from './parse/definitions';
import { asVariableText, collectCommandIds, collectInputIds, substituteDefinition } from './parse/substitute';
import { isWorkspaceDefined } from './parse/trust';
import { userTrustWait, type TrustWait } from './trustGate';
import { displayText, MAX_MESSAGE_CHARS } from '../shared/displayText';
import * as safe from '../util/safeText';
import { envSecrets } from '../util/redact';
import { readServerFiles, watchServerFiles } from './serverFiles';
import { inputsFor } from './parse/fileInputs';
import { vscodeReads } from './parse/vscodeReads';

/** A server definition ready to launch: variables substituted, envFile merged. */
export interface ResolvedServer {
  readonly def: ServerDefinition;
  /** Defined by the workspace (its mcp.json or workspace settings): gated by workspace trust. */
  readonly workspaceDefined: boolean;
  /**
   * The user's server, but its launch reads the workspace (`${workspaceFolder}`, a relative
   * `envFile` or `cwd`): gated by workspace trust like a workspace server.
   */
  readonly usesWorkspace: boolean;
  /** Why `usesWorkspace`: what the user is told when the server waits for trust. */
  readonly trustWait?: TrustWait;
  /** Where the user edits it ("Open Definition"). */
  readonly definitionUri: vscode.Uri | undefined;
}

export interface LoadedConfig {
  readonly servers: readonly ResolvedServer[];
  /** Servers that could not be resolved, by name, with their error (shown in the view). */
  readonly broken: ReadonlyMap<string, ConfigError>;
  readonly errors: readonly ConfigError[];
  /** Servers of `.vscode/mcp.json` that VS Code runs itself: listed, never started here. */
  readonly vscodeOwned: readonly ServerDefinition[];
}

/** The open workspace's folders on disk. */
function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/**
 * Reads server definitions from every file VS Code reads (serverFiles.ts) and the
 * `mcpElicitation.servers` setting, substitutes variables, and fires `onDidChange` when any source changes.
 */
export class ConfigLoader extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<void>());
  readonly onDidChange = this._onDidChange.event;
  readonly inputs: InputResolver;
  private readonly shownErrors = new Set<string>();
  private readonly globalStorageUri: vscode.Uri;
  private watching = false;

  constructor(
    context: vscode.ExtensionContext,
    private readonly log: Logger,
    /** Who runs the servers of `.vscode/mcp.json` (see src/gateway/ownership.ts). */
    private readonly mcpJsonOwner: () => 'vscode' | 'us' = () => 'us',
    /** Servers the user routed through us (gateway/routes.ts): ours to run, wherever they are defined. */
    private readonly routed: (def: ServerDefinition) => boolean = () => false,
  ) {
    super();
    this.inputs = new InputResolver(context.workspaceState, context.secrets, log);
    this.globalStorageUri = context.globalStorageUri;
  }

  /**
   * Starts watching what the configuration is read from. Not done while activating: the four file
   * watchers are requests to the window, about 2 ms of activation (docs/performance.md).
   * `Services.start()` calls this a turn after activation, before the first `load()`, so no
   * change after the first read goes unseen. Once only.
   */
  watch(): void {
    if (this.watching) return;
    this.watching = true;
    const fire = (): void => this._onDidChange.fire();
    for (const d of watchServerFiles(this.globalStorageUri, fire)) this._register(d);
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(fire));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.servers`) || e.affectsConfiguration(`${SECTION}.inputs`)) fire();
      }),
    );
  }

  async load(): Promise<LoadedConfig> {
    const files = await readServerFiles(this.globalStorageUri);
    const errors: ConfigError[] = [...files.errors];
    const fileDefs: ServerDefinition[] = files.servers;
    const inspected = vscode.workspace.getConfiguration(SECTION).inspect('servers');
    const settingDefs: ServerDefinition[] = [];
    for (const [scope, value] of [
      ['user', inspected?.globalValue],
      ['workspace', inspected?.workspaceValue],
      ['workspaceFolder', inspected?.workspaceFolderValue],
    ] as const) {
      if (value === undefined) continue;
      const parsed = parseServersSetting(value, scope);
      settingDefs.push(...parsed.servers);
      errors.push(...parsed.errors);
    }
    // The user's servers see the user's inputs only; the workspace's see the value in force.
    const inputsSetting = vscode.workspace.getConfiguration(SECTION).inspect('inputs');
    const fromUser = parseInputsSetting(inputsSetting?.globalValue);
    const fromSetting = parseInputsSetting(vscode.workspace.getConfiguration(SECTION).get('inputs'));
    errors.push(...fromSetting.errors);
    const userInputs = new Map(fromUser.inputs.map((i) => [i.id, i]));
    const settingInputs = new Map(fromSetting.inputs.map((i) => [i.id, i]));
    const inputsOf = (def: ServerDefinition): ReadonlyMap<string, InputDefinition> =>
      inputsFor(def.source, files.inputs, { user: userInputs, inForce: settingInputs });
    const merged = mergeDefinitions(fileDefs, settingDefs);
    for (const c of merged.clashes) this.log.warn(c);
    // Resolving a server VS Code runs would ask for its inputs a second time: leave it unresolved.
    const vscodeOwned =
      this.mcpJsonOwner() === 'vscode' ? merged.servers.filter((d) => vscodeReads(d.source, vscode.version) && !this.routed(d)) : [];

    const servers: ResolvedServer[] = [];
    const broken = new Map<string, ConfigError>();
    for (const def of merged.servers) {
      if (vscodeOwned.includes(def)) continue;
      const r = await this.resolve(def, inputsOf(def));
      if ('error' in r) {
        errors.push(r.error);
        broken.set(def.name, r.error);
      } else {
        servers.push(r.server);
      }
    }
    for (const e of errors) {
      if (e.server && !broken.has(e.server) && !servers.some((s) => s.def.name === e.server)) broken.set(e.server, e);
    }
    this.report(errors);
    return { servers, broken, errors, vscodeOwned };
  }

  private async resolve(
    def: ServerDefinition,
    inputs: ReadonlyMap<string, InputDefinition>,
  ): Promise<{ server: ResolvedServer } | { error: ConfigError }> {
    const file = sourceFile(def.source);
    const at = file ? { file } : {};
    const definitionUri = file ? vscode.Uri.file(file) : undefined;
    const folder = def.source.kind === 'workspaceFile' ? def.source.folder : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const base = { userHome: os.homedir(), env: process.env, pathSeparator: path.sep };
    const workspaceDefined = isWorkspaceDefined(def.source);
    const trustWait = workspaceDefined
      ? undefined
      : await userTrustWait(def, inputs, {
          substitution: base,
          folders: workspaceFolderPaths(),
          caseInsensitive: process.platform === 'win32' || process.platform === 'darwin',
        });
    const usesWorkspace = trustWait !== undefined;
    if ((workspaceDefined || usesWorkspace) && !vscode.workspace.isTrusted) {
      // Inert until the workspace is trusted: no input is asked, no command runs and no envFile is
      // read for a server that may not start. Trust reloads the configuration and resolves it then.
      if (trustWait) this.log.info(`[${def.name}] starts once you trust this workspace (${trustWait})`);
      return { server: { def, workspaceDefined, usesWorkspace, ...(trustWait ? { trustWait } : {}), definitionUri } };
    }
    const values: Record<string, string> = {};
    for (const id of collectInputIds(def)) {
      const input = inputs.get(id);
      if (!input) return { error: { ...at, server: def.name, message: `\${input:${id}} is not declared in "inputs"` } };
      let v: string | undefined;
      try {
        // The destination as written, before any value is substituted into it.
        v = await this.inputs.resolve(input, { server: def.name, source: def.source, destination: destination(def) });
      } catch (e) {
        return {
          error: {
            ...at,
            server: def.name,
            key: `input:${id}`,
            message: `the command ${input.command ?? ''} failed: ${e instanceof Error ? e.message : String(e)}`,
          },
        };
      }
      if (v === undefined) {
        return {
          error: {
            ...at,
            server: def.name,
            key: `input:${id}`,
            message:
              input.type === 'command' ? `the command ${input.command ?? ''} returned no value` : 'no value was given for this input',
          },
        };
      }
      values[id] = v;
    }
    // `${command:id}`: run each once, before substituting (VS Code resolves them the same way).
    const commands: Record<string, string> = {};
    for (const id of collectCommandIds(def)) {
      try {
        const r = await vscode.commands.executeCommand<unknown>(id);
        if (r === undefined || r === null) {
          return { error: { ...at, server: def.name, key: `command:${id}`, message: `the command ${id} returned no value` } };
        }
        commands[id] = asVariableText(r) ?? '';
      } catch (e) {
        return {
          error: {
            ...at,
            server: def.name,
            key: `command:${id}`,
            message: `the command ${id} failed: ${e instanceof Error ? e.message : String(e)}`,
          },
        };
      }
    }
    const folderUri = folder ? vscode.Uri.file(folder) : undefined;
    const sub = substituteDefinition(def, {
      folders: Object.fromEntries((vscode.workspace.workspaceFolders ?? []).map((f) => [f.name, f.uri.fsPath])),
      cwd: process.cwd(),
      config: (key) => vscode.workspace.getConfiguration(undefined, folderUri).get(key),
      commands,
      ...(folder ? { workspaceFolder: folder } : {}),
      ...base,
      inputs: values,
    });
    if (!sub.ok) return { error: sub.error };
    let resolved = sub.def;
    if (resolved.type === 'stdio' && resolved.envFile) {
      const envPath = path.isAbsolute(resolved.envFile) || !folder ? resolved.envFile : path.join(folder, resolved.envFile);
      let fromFile: Record<string, string>;
      try {
        fromFile = parseEnvFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(envPath))));
      } catch (e) {
        return {
          error: {
            ...at,
            server: def.name,
            key: 'envFile',
            message: `cannot read ${envPath}: ${e instanceof Error ? e.message : String(e)}`,
          },
        };
      }
      // Kept apart from `env`: the file applies first, and a PATH in it replaces while one in `env` appends (launch.ts).
      resolved = { ...resolved, envFileValues: fromFile };
    }
    // A user-level server belongs to no folder: like VS Code, it starts in the home directory.
    const launchFolder =
      def.source.kind === 'userFile' || (def.source.kind === 'setting' && def.source.scope === 'user') ? undefined : folder;
    if (resolved.type === 'stdio' && launchFolder) resolved = { ...resolved, launchFolder };
    this.warnIgnoredKeys(def);
    for (const v of resolved.type === 'stdio' ? envSecrets(resolved.env) : Object.values(resolved.headers)) this.log.addSecret(v);
    return { server: { def: resolved, workspaceDefined, usesWorkspace, ...(trustWait ? { trustWait } : {}), definitionUri } };
  }

  /**
   * Keys we do not act on (`dev.debug`, sandbox settings, typos) are named, never dropped silently:
   * in the log on every load, and once per server and key set as a warning. Key names come from a
   * file the workspace may have written, so only plain ones are shown.
   */
  private warnIgnoredKeys(def: ServerDefinition): void {
    const list = describeIgnoredKeys(def.ignoredKeys);
    if (!list) return;
    this.log.warn(`[${def.name}] not supported by MCP Elicitation Host, ignored: ${list}`);
    const once = `ignored:${def.name}:${list}`;
    if (this.shownErrors.has(once)) return;
    this.shownErrors.add(once);
    void safe.showWarningMessage(
      safe.l10n.t(
        'MCP server {0} runs here without these settings, which only VS Code supports: {1}',
        displayText(JSON.stringify(def.name.slice(0, 60))),
        displayText(list),
      ),
    );
  }

  /** Shows each distinct error once, with a button that opens the file (or the settings). */
  private report(errors: readonly ConfigError[]): void {
    for (const e of errors) {
      const text = formatConfigError(e);
      this.log.error(`configuration: ${text}`);
      if (this.shownErrors.has(text)) continue;
      this.shownErrors.add(text);
      const open = e.file ? vscode.l10n.t('Open File') : vscode.l10n.t('Open Settings');
      void safe
        .showErrorMessage(safe.l10n.t('MCP server configuration: {0}', displayText(text, MAX_MESSAGE_CHARS)), open)
        .then(async (choice) => {
          if (choice !== open) return;
          if (e.file) {
            const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(e.file));
            const line = Math.max(0, (e.line ?? 1) - 1);
            await vscode.window.showTextDocument(doc, { selection: new vscode.Range(line, 0, line, 0) });
          } else {
            await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.servers`);
          }
        });
    }
  }
}
