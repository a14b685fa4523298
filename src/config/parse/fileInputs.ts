/**
 * Which `inputs` a server's `${input:…}` may use. Each configuration file keeps its own: a server
 * of a file resolves only from the `inputs` declared in that same file, as VS Code resolves each
 * file's servers with that file's inputs. Pooled by id, a workspace's `.vscode/mcp.json` could
 * declare the id a server of the user's profile `mcp.json` uses and choose how it is asked (its
 * description, a `command` to run, a default), or be asked in its place.
 */
import { sourceFile, type InputDefinition, type ServerSource } from './definitions';

/** File path → input id → definition. */
export type InputsByFile = ReadonlyMap<string, ReadonlyMap<string, InputDefinition>>;

/** Adds the `inputs` of one file; within a file the first declaration of an id wins. */
export function addFileInputs(into: Map<string, Map<string, InputDefinition>>, file: string, inputs: readonly InputDefinition[]): void {
  const own = into.get(file) ?? new Map<string, InputDefinition>();
  for (const i of inputs) if (!own.has(i.id)) own.set(i.id, i);
  into.set(file, own);
}

const NONE: ReadonlyMap<string, InputDefinition> = new Map();

/**
 * The inputs a server from `source` resolves against: its own file's for a file's server; for a
 * server of the `mcpElicitation.servers` setting, the `mcpElicitation.inputs` the same scope may
 * see (the user's alone for a user-level server).
 */
export function inputsFor(
  source: ServerSource,
  byFile: InputsByFile,
  setting: { readonly user: ReadonlyMap<string, InputDefinition>; readonly inForce: ReadonlyMap<string, InputDefinition> },
): ReadonlyMap<string, InputDefinition> {
  if (source.kind === 'setting') return source.scope === 'user' ? setting.user : setting.inForce;
  return byFile.get(sourceFile(source) ?? '') ?? NONE;
}
