/**
 * The configuration model: server definitions, inputs and configuration errors, as read from
 * `mcp.json` and the `mcpElicitation.servers` setting. Types only, so every parser and consumer
 * can share them without depending on each other.
 */

/** Where a definition came from; decides precedence on name clashes and how errors are shown. */
export type ServerSource =
  | { readonly kind: 'workspaceFile'; readonly file: string; readonly folder: string }
  | { readonly kind: 'setting'; readonly scope: 'user' | 'workspace' | 'workspaceFolder' };

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
  /** Extra variables for the child; the caller decides what of its own environment to pass. */
  readonly env: Readonly<Record<string, string>>;
  readonly envFile?: string;
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP (`http`) or the legacy SSE transport (`sse`). */
export interface RemoteServerDefinition extends ServerDefinitionBase {
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** One configured MCP server, before variable substitution. */
export type ServerDefinition = StdioServerDefinition | RemoteServerDefinition;

/** A `promptString` entry of `inputs`: a value asked of the user and referenced as `${input:id}`. */
export interface InputDefinition {
  readonly id: string;
  readonly description: string;
  /** Mask the value while typing; such values belong in SecretStorage only. */
  readonly password: boolean;
  readonly default?: string;
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

