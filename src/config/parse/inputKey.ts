/**
 * Where a remembered `${input:…}` value is kept. Per workspace (or, for a `.vscode/mcp.json`, per
 * folder) and per server definition: SecretStorage is shared by every window of the extension, so
 * a key of the input id alone would hand one workspace's password to another workspace that
 * declares the same id, and clearing it in one would clear it in all. And per destination (the
 * definition's URL, or its command and arguments, as written; issue 41): a password given for a
 * server is not handed to the same-named server a commit points at another URL or command.
 * Keys of the older forms (`mcpElicitation.input.<id>`, `mcpElicitation.input.v2.<hash>`, which
 * recorded no destination) are never read again; Clear Inputs still removes them.
 */
import { createHash } from 'node:crypto';
import type { ServerSource } from './definitions';

export const INPUT_KEY_PREFIX = 'mcpElicitation.input.v3.';

export interface InputOwner {
  /** The workspace the window has open (its `.code-workspace` file or its folders); '' for none. */
  readonly workspace: string;
  /** The server whose launch uses the input. */
  readonly server: string;
  /** Where that server is: `destination()` of its definition before substitution (serverFingerprint.ts). */
  readonly destination: string;
  readonly source: ServerSource;
}

/** The storage key of input `id` for `owner`. Hashed: paths and names stay out of the key list. */
export function inputStorageKey(id: string, owner: InputOwner): string {
  // A folder's mcp.json belongs to that folder; a setting's server to the whole workspace.
  // A user's own file or setting is used by every workspace, and each keeps its own value.
  const src = owner.source;
  const where =
    src.kind === 'workspaceFile'
      ? ['folder', src.folder, src.file]
      : src.kind === 'userFile'
        ? ['userFile', owner.workspace, src.file]
        : ['setting', owner.workspace, src.scope];
  const digest = createHash('sha256')
    .update(JSON.stringify([...where, owner.server, owner.destination, id]))
    .digest('hex');
  return `${INPUT_KEY_PREFIX}${digest}`;
}
