/**
 * Every file VS Code reads server definitions from, read the way VS Code reads it, in VS Code's
 * precedence: for each folder its `.vscode/mcp.json` then its root `.mcp.json`; then the
 * `.code-workspace` file's `settings.mcp`; then the profile's `mcp.json`; then Copilot Global
 * (`$COPILOT_HOME/mcp-config.json`, default `~/.copilot`). A missing file is no error; a broken one
 * is reported with its path, line and key, and never hides the servers of the other files.
 */
import * as vscode from 'vscode';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseMcpJson } from './parse/mcpJson';
import { parsePortableMcpJson } from './parse/portableJson';
import type { ConfigError, InputDefinition, ServerDefinition, ServerSource } from './parse/definitions';
import { addFileInputs, type InputsByFile } from './parse/fileInputs';

/** A configuration file larger than this is refused unread: a real one is a few kilobytes, and parsing runs in the extension host. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export interface ServerFiles {
  readonly servers: ServerDefinition[];
  /** Each file's own `inputs`, by its path: a server resolves only from its file's (parse/fileInputs.ts). */
  readonly inputs: InputsByFile;
  readonly errors: ConfigError[];
}

interface FileSpec {
  readonly uri: vscode.Uri;
  readonly source: ServerSource;
  readonly portable: boolean;
}

/**
 * The user's `mcp.json`: in the `User` folder two levels above our global storage. In a local window
 * the profile's; in a remote window (code-server too) the remote user's, which VS Code reads as well
 * (gateway/routes.ts, vscodeServerId, says under which id).
 */
export function userMcpJson(globalStorageUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(globalStorageUri, '..', '..', 'mcp.json');
}

export function copilotGlobalConfig(env: NodeJS.ProcessEnv = process.env): vscode.Uri {
  return vscode.Uri.file(path.join(env['COPILOT_HOME'] || path.join(os.homedir(), '.copilot'), 'mcp-config.json'));
}

function fileSpecs(globalStorageUri: vscode.Uri | undefined): FileSpec[] {
  const specs: FileSpec[] = [];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    // A virtual folder (package.json's virtualWorkspaces says why): its servers would start on
    // this machine with no local folder to run in, and Route could not write its file back.
    if (folder.uri.scheme !== 'file') continue;
    const mcpJson = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
    specs.push({ uri: mcpJson, source: { kind: 'workspaceFile', file: mcpJson.fsPath, folder: folder.uri.fsPath }, portable: false });
    const dotMcp = vscode.Uri.joinPath(folder.uri, '.mcp.json');
    specs.push({
      uri: dotMcp,
      source: { kind: 'workspaceFile', file: dotMcp.fsPath, folder: folder.uri.fsPath, format: 'portable' },
      portable: true,
    });
  }
  if (globalStorageUri) {
    const profile = userMcpJson(globalStorageUri);
    specs.push({ uri: profile, source: { kind: 'userFile', file: profile.fsPath, origin: 'profile' }, portable: false });
  }
  const copilot = copilotGlobalConfig();
  specs.push({ uri: copilot, source: { kind: 'userFile', file: copilot.fsPath, origin: 'copilot' }, portable: true });
  return specs;
}

async function readBounded(uri: vscode.Uri): Promise<{ text: string } | { missing: true } | { error: string }> {
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    return { missing: true };
  }
  if (stat.type & vscode.FileType.Directory) return { error: 'is a folder, not a file' };
  if (stat.size > MAX_CONFIG_BYTES) {
    return {
      error: `is ${(stat.size / 1024 / 1024).toFixed(1)} MB; configuration files over ${MAX_CONFIG_BYTES / 1024 / 1024} MB are not read`,
    };
  }
  try {
    return { text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) };
  } catch (e) {
    return { error: `cannot be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Reads every file; `globalStorageUri` locates the profile's mcp.json (absent in unit contexts). */
export async function readServerFiles(globalStorageUri: vscode.Uri | undefined): Promise<ServerFiles> {
  const inputs = new Map<string, Map<string, InputDefinition>>();
  const out: ServerFiles = { servers: [], inputs, errors: [] };
  const specs = fileSpecs(globalStorageUri);
  // The .code-workspace file sits between the folders' files and the user's, as in VS Code.
  const userIndex = specs.findIndex((s) => s.source.kind === 'userFile');
  const reads = await Promise.all(specs.map((s) => readBounded(s.uri)));
  const add = (file: string, r: { servers: ServerDefinition[]; inputs?: InputDefinition[]; errors: ConfigError[] }): void => {
    out.servers.push(...r.servers);
    out.errors.push(...r.errors);
    addFileInputs(inputs, file, r.inputs ?? []);
  };
  specs.forEach((spec, i) => {
    if (i === userIndex) {
      const ws = readWorkspaceFileSettings();
      if (ws) add(ws.file, ws);
    }
    const r = reads[i];
    if (!r || 'missing' in r) return;
    if ('error' in r) {
      out.errors.push({ file: spec.uri.fsPath, message: `This file ${r.error}` });
      return;
    }
    add(spec.uri.fsPath, spec.portable ? parsePortableMcpJson(r.text, spec.source) : parseMcpJson(r.text, spec.source));
  });
  return out;
}

/** `settings.mcp` of the open `.code-workspace` file: the mcp.json shape inside the workspace's settings. */
function readWorkspaceFileSettings():
  { file: string; servers: ServerDefinition[]; inputs: InputDefinition[]; errors: ConfigError[] } | undefined {
  const workspaceFile = vscode.workspace.workspaceFile;
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!workspaceFile || workspaceFile.scheme !== 'file' || !folder) return undefined;
  const value = vscode.workspace.getConfiguration().inspect('mcp')?.workspaceValue;
  if (value === undefined) return undefined;
  const parsed = parseMcpJson(JSON.stringify(value), {
    kind: 'workspaceFile',
    file: workspaceFile.fsPath,
    folder: folder.uri.fsPath,
    format: 'workspaceSettings',
  });
  // Positions would point into our re-serialised copy, not the user's file: name the file and key only.
  return { ...parsed, file: workspaceFile.fsPath, errors: parsed.errors.map(({ line: _l, column: _c, ...e }) => e) };
}

/** Watches every file above (and the `mcp` setting), calling `changed` on any change. */
export function watchServerFiles(globalStorageUri: vscode.Uri | undefined, changed: () => void): vscode.Disposable[] {
  const disposables: vscode.Disposable[] = [];
  const watch = (pattern: vscode.GlobPattern): void => {
    const w = vscode.workspace.createFileSystemWatcher(pattern);
    disposables.push(w, w.onDidChange(changed), w.onDidCreate(changed), w.onDidDelete(changed));
  };
  watch('**/.vscode/mcp.json');
  watch('**/.mcp.json');
  for (const uri of [...(globalStorageUri ? [userMcpJson(globalStorageUri)] : []), copilotGlobalConfig()]) {
    watch(new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), path.basename(uri.fsPath)));
  }
  disposables.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('mcp')) changed();
    }),
  );
  return disposables;
}
