import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';
import { SECTION } from './settings';
import { InputResolver } from './inputResolver';
import { parseEnvFile } from './parse/envFile';
import { formatConfigError, mergeDefinitions, parseInputsSetting, parseMcpJson, parseServersSetting } from './parse/mcpJson';
import type { ConfigError, InputDefinition, ServerDefinition } from './parse/definitions';
import { collectInputIds, substituteDefinition } from './parse/substitute';
import { dependsOnWorkspace, isInside, isWorkspaceDefined, withoutCodeLoadingEnv } from './parse/trust';

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

const MCP_JSON = '.vscode/mcp.json';

/** Whether `file` lies in one of the open workspace folders. */
function insideWorkspace(file: string): boolean {
  const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';
  return (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === 'file' && isInside(path.resolve(file), f.uri.fsPath, path.sep, caseInsensitive));
}

/**
 * Reads server definitions from every folder's `.vscode/mcp.json` and the `mcpElicitation.servers`
 * setting, substitutes variables, and fires `onDidChange` when any source changes.
 */
export class ConfigLoader extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this._onDidChange.event;
  readonly inputs: InputResolver;
  private readonly shownErrors = new Set<string>();

  constructor(
    context: vscode.ExtensionContext,
    private readonly log: Logger,
    /** Who runs the servers of `.vscode/mcp.json` (see src/gateway/ownership.ts). */
    private readonly mcpJsonOwner: () => 'vscode' | 'us' = () => 'us',
  ) {
    super();
    this.inputs = new InputResolver(context.workspaceState, context.secrets, log);
    const watcher = this._register(vscode.workspace.createFileSystemWatcher(`**/${MCP_JSON}`));
    const fire = (): void => this._onDidChange.fire();
    this._register(watcher.onDidChange(fire));
    this._register(watcher.onDidCreate(fire));
    this._register(watcher.onDidDelete(fire));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(fire));
    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.servers`) || e.affectsConfiguration(`${SECTION}.inputs`)) fire();
      }),
    );
  }

  async load(): Promise<LoadedConfig> {
    const errors: ConfigError[] = [];
    const fileDefs: ServerDefinition[] = [];
    // Inputs by the file that declares them: a server resolves only its own file's inputs, so one
    // folder's declaration cannot change how another's (or the user's) input is asked or kept.
    const fileInputs = new Map<string, Map<string, InputDefinition>>();
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const uri = vscode.Uri.joinPath(folder.uri, MCP_JSON);
      let text: string;
      try {
        text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      } catch {
        continue; // no mcp.json in this folder
      }
      const parsed = parseMcpJson(text, { kind: 'workspaceFile', file: uri.fsPath, folder: folder.uri.fsPath });
      fileDefs.push(...parsed.servers);
      errors.push(...parsed.errors);
      fileInputs.set(uri.fsPath, new Map(parsed.inputs.map((i) => [i.id, i])));
    }
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
      def.source.kind === 'workspaceFile' ? (fileInputs.get(def.source.file) ?? new Map()) : isWorkspaceDefined(def.source) ? settingInputs : userInputs;
    const merged = mergeDefinitions(fileDefs, settingDefs);
    for (const c of merged.clashes) this.log.warn(c);
    // Resolving a server VS Code runs would ask for its inputs a second time: leave it unresolved.
    const vscodeOwned = this.mcpJsonOwner() === 'vscode' ? merged.servers.filter((d) => d.source.kind === 'workspaceFile') : [];

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

  private async resolve(def: ServerDefinition, inputs: ReadonlyMap<string, InputDefinition>): Promise<{ server: ResolvedServer } | { error: ConfigError }> {
    const file = def.source.kind === 'workspaceFile' ? def.source.file : undefined;
    const at = file ? { file } : {};
    const definitionUri = file ? vscode.Uri.file(file) : undefined;
    const folder = def.source.kind === 'workspaceFile' ? def.source.folder : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const base = { userHome: os.homedir(), env: process.env, pathSeparator: path.sep };
    const workspaceDefined = isWorkspaceDefined(def.source);
    const usesWorkspace = !workspaceDefined && dependsOnWorkspace(def, base, (p) => path.isAbsolute(p));
    if ((workspaceDefined || usesWorkspace) && !vscode.workspace.isTrusted) {
      // Inert until the workspace is trusted: no input is asked and no envFile is read for a server
      // that may not start. Trust reloads the configuration and resolves it then.
      return { server: { def, workspaceDefined, usesWorkspace, definitionUri } };
    }
    const values: Record<string, string> = {};
    for (const id of collectInputIds(def)) {
      const input = inputs.get(id);
      if (!input) return { error: { ...at, server: def.name, message: `\${input:${id}} is not declared in "inputs"` } };
      const v = await this.inputs.resolve(input, def.name);
      if (v === undefined) return { error: { ...at, server: def.name, key: `input:${id}`, message: 'no value was given for this input' } };
      values[id] = v;
    }
    const sub = substituteDefinition(def, { ...(folder ? { workspaceFolder: folder } : {}), ...base, inputs: values });
    if (!sub.ok) return { error: sub.error };
    let resolved = sub.def;
    if (resolved.type === 'stdio' && resolved.envFile) {
      const envPath = path.isAbsolute(resolved.envFile) || !folder ? resolved.envFile : path.join(folder, resolved.envFile);
      let fromFile: Record<string, string>;
      try {
        fromFile = parseEnvFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(envPath))));
      } catch (e) {
        return { error: { ...at, server: def.name, key: 'envFile', message: `cannot read ${envPath}: ${e instanceof Error ? e.message : String(e)}` } };
      }
      if (!vscode.workspace.isTrusted && insideWorkspace(envPath)) {
        // A user's server reading a file of an untrusted repository by its absolute path: the
        // repository must not choose what the process loads.
        const kept = withoutCodeLoadingEnv(fromFile);
        if (kept.dropped.length) this.log.warn(`[${def.name}] envFile ${envPath} is inside this untrusted workspace: ignored ${kept.dropped.join(', ')} from it`);
        fromFile = kept.env;
      }
      resolved = { ...resolved, env: { ...fromFile, ...resolved.env } };
    }
    if (resolved.type !== 'stdio') for (const v of Object.values(resolved.headers)) this.log.addSecret(v);
    return { server: { def: resolved, workspaceDefined, usesWorkspace, definitionUri } };
  }

  /** Shows each distinct error once, with a button that opens the file (or the settings). */
  private report(errors: readonly ConfigError[]): void {
    for (const e of errors) {
      const text = formatConfigError(e);
      this.log.error(`configuration: ${text}`);
      if (this.shownErrors.has(text)) continue;
      this.shownErrors.add(text);
      const open = e.file ? vscode.l10n.t('Open File') : vscode.l10n.t('Open Settings');
      void vscode.window.showErrorMessage(vscode.l10n.t('MCP server configuration: {0}', text), open).then(async (choice) => {
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
