/**
 * The workspace-trust gate: a server defined by the workspace (its mcp.json or workspace
 * settings) runs code the workspace chose, so it starts only in a trusted workspace. So does a
 * server of the user's whose launch reads the workspace (`${workspaceFolder}`, a relative
 * `envFile` or `cwd`; src/config/trustGate.ts adds commands and an envFile of the workspace): an
 * untrusted repository's `.env` could otherwise set `NODE_OPTIONS` or `GIT_CONFIG_*` and run code
 * when that server starts. Other servers the user defined in user settings always may.
 * No `vscode` import.
 */
import type { ServerDefinition } from './definitions';
import { substitutableFields, substituteVariables, type SubstitutionContext } from './substitute';

export interface TrustGated {
  readonly workspaceDefined: boolean;
  /** A user's server whose launch depends on the workspace (see {@link dependsOnWorkspace}). */
  readonly usesWorkspace?: boolean;
}

export function mayStart(server: TrustGated, workspaceTrusted: boolean): boolean {
  return workspaceTrusted || (!server.workspaceDefined && server.usesWorkspace !== true);
}

/** Whether a definition's source is the workspace's rather than the user's. */
export function isWorkspaceDefined(
  source:
    | { readonly kind: 'workspaceFile' }
    | { readonly kind: 'userFile' }
    | { readonly kind: 'setting'; readonly scope: 'user' | 'workspace' | 'workspaceFolder' },
): boolean {
  if (source.kind === 'setting') return source.scope !== 'user';
  return source.kind === 'workspaceFile';
}

// `${config:…}` counts too: a workspace's settings.json would choose its value.
const WORKSPACE_VARIABLE = /\$\{(?:workspaceFolder[^}]*|workspaceRoot[^}]*|cwd|config:[^}]*)\}/;

/**
 * Whether launching `def` reads something the open workspace controls: a `${workspaceFolder…}`,
 * `${workspaceRoot…}`, `${cwd}` or `${config:…}` variable in any launch field, or an `envFile` or `cwd` that is not absolute (both resolve
 * against the workspace). Paths are judged after substituting the other variables; an
 * `${input:…}` counts as relative, since its value is not known yet.
 */
export function dependsOnWorkspace(
  def: ServerDefinition,
  ctx: Omit<SubstitutionContext, 'inputs' | 'workspaceFolder'>,
  isAbsolute: (p: string) => boolean,
): boolean {
  if (substitutableFields(def).some(([, v]) => WORKSPACE_VARIABLE.test(v))) return true;
  if (def.type !== 'stdio') return false;
  const relative = (p: string | undefined): boolean => {
    if (p === undefined) return false;
    const r = substituteVariables(p.replace(/\$\{input:[^}]*\}/g, 'input'), { ...ctx, inputs: {} });
    return !r.ok || !isAbsolute(r.value);
  };
  return relative(def.envFile) || relative(def.cwd);
}

/** Whether `file` lies inside `folder` (both absolute, normalised by the caller's path module). */
export function isInside(file: string, folder: string, sep: string, caseInsensitive: boolean): boolean {
  const norm = (p: string): string => (caseInsensitive ? p.toLowerCase() : p).replace(/[\\/]+$/, '');
  const f = norm(file);
  const d = norm(folder);
  return f === d || f.startsWith(d + sep);
}
