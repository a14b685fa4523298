/**
 * The configuration model: server definitions, inputs and configuration errors, as read from
 * every file VS Code reads and the `mcpElicitation.servers` setting. Types (and one accessor) only,
 * so every parser and consumer can share them without depending on each other.
 */

/** Where a definition came from; decides precedence on name clashes and how errors are shown. */
export type ServerSource =
  /**
   * A file of the workspace VS Code reads: a folder's `.vscode/mcp.json` (`format` absent), its
   * root `.mcp.json` (`portable`: `mcpServers`, no inputs), or a `.code-workspace` file's
   * `settings.mcp` (`workspaceSettings`; `folder` is then the first folder).
   */
  | { readonly kind: 'workspaceFile'; readonly file: string; readonly folder: string; readonly format?: 'portable' | 'workspaceSettings' }
  /** A file of the user's VS Code reads: the profile's `mcp.json`, or Copilot Global's `mcp-config.json` (`portable`). */
  | { readonly kind: 'userFile'; readonly file: string; readonly origin: 'profile' | 'copilot' }
  | { readonly kind: 'setting'; readonly scope: 'user' | 'workspace' | 'workspaceFolder' };

/** The file a definition was read from, for error messages and "Open Definition"; undefined for settings. */
export function sourceFile(source: ServerSource): string | undefined {
  return source.kind === 'setting' ? undefined : source.file;
}

/**
 * Which MCP revision to speak: `auto` probes with `server/discover` and falls back to the 2025
 * `initialize` handshake; a date pins that revision (for servers that misbehave when probed).
 */
export type ProtocolVersionChoice = 'auto' | '2025-11-25' | '2026-07-28';
export const PROTOCOL_VERSION_CHOICES: readonly ProtocolVersionChoice[] = ['auto', '2025-11-25', '2026-07-28'];

export interface ServerDefinitionBase {
  /** The key under `servers`; unique after {@link mergeDefinitions}. */
  readonly name: string;
  /**
   * The key as written in its source, when {@link mergeDefinitions} had to list the server under
   * another name (a workspace server named like one of the user's).
   */
  readonly writtenAs?: string;
  readonly source: ServerSource;
  /** Absent means `auto`. */
  readonly protocolVersion?: ProtocolVersionChoice;
  /** `dev.watch`: globs (relative to the definition's folder) whose changes restart the server. */
  readonly devWatch?: readonly string[];
  /**
   * Keys of the entry this extension does not act on (`dev.debug`, sandbox settings, typos), named
   * in a warning so nothing is dropped silently.
   */
  readonly ignoredKeys?: readonly string[];
}

/**
 * Extensions that elicit through the public API are named `extension:<publisher.name>`: their
 * policy key and rate-limit bucket. No configured server may take such a name, so no server can
 * borrow an extension's identity, nor an extension a server's.
 */
export const EXTENSION_NAME_PREFIX = 'extension:';

/** A server launched as a child process speaking MCP over stdin/stdout. */
export interface StdioServerDefinition extends ServerDefinitionBase {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /**
   * Variables for the child on top of the host's environment and the envFile (see
   * servers/launch.ts): `null` removes one, a `PATH` is appended. Numbers were made strings by the parser.
   */
  readonly env: Readonly<Record<string, string | null>>;
  readonly envFile?: string;
  readonly cwd?: string;
  /** Set by the loader: the entries read from `envFile`, kept apart from `env` because they apply before it. */
  readonly envFileValues?: Readonly<Record<string, string>>;
  /** Set by the loader: the folder a relative `cwd` (or none) starts from; absent for a user-level server. */
  readonly launchFolder?: string;
}

/** A server reached over Streamable HTTP (`http`) or the legacy SSE transport (`sse`). */
export interface RemoteServerDefinition extends ServerDefinitionBase {
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** A client registered with the server's authorization server in advance (its secret is in SecretStorage). */
  readonly clientId?: string;
  /**
   * An https URL the user hosts with a client ID metadata document: the client's id where the
   * authorization server takes such documents (`client_id_metadata_document_supported`).
   */
  readonly clientMetadataUrl?: string;
}

/** One configured MCP server, before variable substitution. */
export type ServerDefinition = StdioServerDefinition | RemoteServerDefinition;

/**
 * An entry of `inputs`: a value obtained from the user (or a command) and referenced as
 * `${input:id}`. `promptString` (the default) asks with an InputBox; `pickString` offers
 * `options`; `command` runs a VS Code command with `args` and uses what it returns.
 */
export interface InputDefinition {
  readonly id: string;
  /** Absent means `promptString`. */
  readonly type?: 'promptString' | 'pickString' | 'command';
  readonly description: string;
  /** Mask the value while typing; such values belong in SecretStorage only (promptString). */
  readonly password: boolean;
  readonly default?: string;
  /** pickString: the choices, each a value and the label shown for it. */
  readonly options?: readonly { readonly label: string; readonly value: string }[];
  /** command: the command id and its arguments, passed as written. */
  readonly command?: string;
  readonly args?: unknown;
}

/** A problem in configuration, precise enough to show as `file:line` with the server and key. */
export interface ConfigError {
  readonly file?: string;
  readonly server?: string;
  /** Path inside the server entry (or the document), e.g. `command`, `args[1]`, `env.TOKEN`. */
  readonly key?: string;
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/**
 * The keys of a definition we do not act on, as one list for a message (`dev.debug, sandbox`).
 * The names come from a file the workspace may have written, so only plain ones are shown, the
 * rest counted. Undefined when there are none.
 */
export function describeIgnoredKeys(keys: readonly string[] | undefined): string | undefined {
  if (!keys?.length) return undefined;
  const plain = keys.filter((k) => /^[\w.$-]{1,40}$/.test(k));
  const others = keys.length - plain.length;
  return [...plain, ...(others > 0 ? [`${others} other`] : [])].join(', ');
}
