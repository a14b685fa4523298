/**
 * Combines the definitions of every source into one list with unique names, and says what each
 * clash did (ignored, or renamed `name (workspace)`).
 */
import { isWorkspaceDefined } from './trust';
import type { ServerDefinition, ServerSource } from './definitions';

const SCOPE_RANK: Readonly<Record<'workspaceFolder' | 'workspace' | 'user', number>> = { workspaceFolder: 0, workspace: 1, user: 2 };

/** Human wording for a source, used in clash messages. */
export function describeSource(source: ServerSource): string {
  return source.kind === 'setting' ? `${source.scope} settings` : source.file;
}

/**
 * The name a workspace server gets when the user's own server has its name: `name (workspace)`,
 * then `name (workspace 2)`… `taken` compares names as {@link sameLabel} does.
 */
function workspaceName(name: string, taken: (n: string) => boolean): string {
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? `${name} (workspace)` : `${name} (workspace ${i})`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * The key two names clash under when one is the user's and one the workspace's: VS Code compares
 * server labels case-insensitively, and `GitHub` beside the user's `github` would read as theirs.
 */
function sameLabel(name: string): string {
  return name.toLowerCase();
}

/**
 * Combines every definition into one list with unique names. The user's own servers (the
 * `mcpElicitation.servers` user setting, the profile's `mcp.json`, Copilot Global, in that order;
 * among them the first of a name wins) keep their names: a workspace server of the same name
 * (compared case-insensitively, as VS Code compares labels) neither hides one nor takes over its
 * policy, inputs or attribution, all keyed by name; it is listed as `name (workspace)` instead.
 * VS Code would list both under their collections' labels and run the folder's first; here the
 * user's keeps the bare name and the workspace's carries its source in its name. Among the
 * workspace's definitions, files win over settings, the earlier folder wins among files, and the
 * more specific scope among settings (folder, then workspace), as VS Code does; the loser is left
 * out. Every clash is described in `clashes` so the caller can log it.
 */
export function mergeDefinitions(
  fileDefs: readonly ServerDefinition[],
  settingDefs: readonly ServerDefinition[],
): { servers: ServerDefinition[]; clashes: string[] } {
  const rank = (d: ServerDefinition) => (d.source.kind === 'setting' ? SCOPE_RANK[d.source.scope] : -1);
  const mine = (d: ServerDefinition): boolean => !isWorkspaceDefined(d.source);
  const user = [...settingDefs.filter(mine), ...fileDefs.filter(mine)];
  // Array.prototype.sort is stable, so definitions of equal rank keep their given order.
  const workspace = [...fileDefs.filter((d) => !mine(d)), ...settingDefs.filter((d) => !mine(d)).sort((a, b) => rank(a) - rank(b))];
  const winners = new Map<string, ServerDefinition>();
  /** The user's servers by {@link sameLabel}. */
  const users = new Map<string, ServerDefinition>();
  const clashes: string[] = [];
  const ignored = (def: ServerDefinition, why: string): void => {
    clashes.push(`Server "${def.name}" from ${describeSource(def.source)} is ignored: ${why}`);
  };
  for (const def of user) {
    const winner = winners.get(def.name);
    if (winner) ignored(def, `${describeSource(winner.source)} defines the same name`);
    else {
      winners.set(def.name, def);
      if (!users.has(sameLabel(def.name))) users.set(sameLabel(def.name), def);
    }
  }
  const renamed: { def: ServerDefinition; theirs: ServerDefinition }[] = [];
  for (const def of workspace) {
    const theirs = users.get(sameLabel(def.name));
    if (theirs) {
      // Renamed once every name written as such is placed; the first workspace definition of a name wins.
      if (!renamed.some((r) => r.def.name === def.name)) renamed.push({ def, theirs });
      else ignored(def, 'another workspace definition of this name comes first');
      continue;
    }
    const winner = winners.get(def.name);
    if (winner) ignored(def, `${describeSource(winner.source)} defines the same name`);
    else winners.set(def.name, def);
  }
  const taken = (n: string): boolean => [...winners.keys()].some((k) => sameLabel(k) === sameLabel(n));
  for (const { def, theirs } of renamed) {
    const name = workspaceName(def.name, taken);
    clashes.push(
      `Server "${def.name}" from ${describeSource(def.source)} is listed as "${name}": ${describeSource(theirs.source)}, yours, defines a server of the same name`,
    );
    winners.set(name, { ...def, name, writtenAs: def.name });
  }
  return { servers: [...winners.values()], clashes };
}
