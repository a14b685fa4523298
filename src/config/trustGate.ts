/**
 * Why a server the user defined waits for workspace trust, if it does. A user's server is theirs
 * and starts in any workspace, unless starting it lets the open workspace choose what runs:
 *
 * - its launch reads the workspace (`${workspaceFolder}`, `${config:…}`, a relative `envFile` or
 *   `cwd`; see `dependsOnWorkspace`);
 * - it runs a VS Code command to get a value (`${command:…}`, or an input of type `command`): an
 *   extension's command answers from the workspace it sees (an interpreter path, a setting), and
 *   it runs before anything could be checked;
 * - its `envFile` lies in the workspace, links resolved: a repository's `.env` decides far more
 *   than a list of "code-loading" names could ever cover (`GIT_CONFIG_*`, registries, proxies,
 *   CA files, `HOME`, runtime hooks), so it is not filtered but waits, whole, for trust.
 *
 * No `vscode` import: the folders come from the caller.
 */
import { realpath } from 'node:fs/promises';
import * as path from 'node:path';
import type { InputDefinition, ServerDefinition } from './parse/definitions';
import { collectCommandIds, collectInputIds, substituteVariables, type SubstitutionContext } from './parse/substitute';
import { dependsOnWorkspace, isInside } from './parse/trust';

/** Why a user's server waits for trust; undefined when it need not. */
export type TrustWait = 'workspaceFiles' | 'command' | 'envFile';

export interface TrustGateContext {
  readonly substitution: Omit<SubstitutionContext, 'inputs' | 'workspaceFolder'>;
  /** The open workspace's folders on disk (`file:` folders only). */
  readonly folders: readonly string[];
  readonly caseInsensitive: boolean;
}

export async function userTrustWait(
  def: ServerDefinition,
  inputs: ReadonlyMap<string, InputDefinition>,
  ctx: TrustGateContext,
): Promise<TrustWait | undefined> {
  if (dependsOnWorkspace(def, ctx.substitution, (p) => path.isAbsolute(p))) return 'workspaceFiles';
  if (runsCommand(def, inputs)) return 'command';
  if (def.type === 'stdio' && def.envFile !== undefined) {
    // Absolute here: a relative one (or one led by an input) made dependsOnWorkspace say so.
    const r = substituteVariables(def.envFile, { ...ctx.substitution, inputs: {} });
    if (r.ok && (await insideFolders(r.value, ctx.folders, ctx.caseInsensitive))) return 'envFile';
  }
  return undefined;
}

/** Whether resolving `def` runs a VS Code command: a `${command:…}` variable or a command input. */
export function runsCommand(def: ServerDefinition, inputs: ReadonlyMap<string, InputDefinition>): boolean {
  return collectCommandIds(def).length > 0 || collectInputIds(def).some((id) => inputs.get(id)?.type === 'command');
}

/**
 * Whether `file` lies in one of `folders`, compared as written and with every link resolved on
 * both sides: a link outside the workspace that leads into it, or a folder opened through a link,
 * must not make a workspace file look like someone else's.
 */
export async function insideFolders(file: string, folders: readonly string[], caseInsensitive: boolean): Promise<boolean> {
  if (folders.length === 0) return false;
  const files = new Set([path.resolve(file), await real(file)]);
  for (const folder of folders) {
    const dirs = new Set([path.resolve(folder), await real(folder)]);
    for (const f of files) for (const d of dirs) if (isInside(f, d, path.sep, caseInsensitive)) return true;
  }
  return false;
}

/**
 * `p` with its links resolved. A file that does not exist (yet) is resolved through its nearest
 * existing ancestor, so a link in its folder still counts.
 */
async function real(p: string): Promise<string> {
  const abs = path.resolve(p);
  try {
    return await realpath(abs);
  } catch {
    const parent = path.dirname(abs);
    return parent === abs ? abs : path.join(await real(parent), path.basename(abs));
  }
}
