/**
 * Server logging, as VS Code's own client does it: the server's log level follows the level the
 * user set for our log ("Developer: Set Log Level"), and what the server logs is written to the
 * server's log at the level it was sent with.
 * - 2025-11-25: `logging/setLevel` after connect and whenever the level changes, to a server that
 *   declares `logging`.
 * - 2026-07-28: no `logging/setLevel`; every request carries the level in
 *   `_meta["io.modelcontextprotocol/logLevel"]` (hostClient.ts adds it), and a server logs only for
 *   requests that carry it.
 * Pure: the host level comes from a {@link LogLevelSource} (the Logger over a LogOutputChannel).
 */
import type { LoggingLevel } from '@modelcontextprotocol/client';
import type { Event, EventDisposable } from '../../util/emitter';

/** `vscode.LogLevel` by value (Off 0, Trace 1, Debug 2, Info 3, Warning 4, Error 5), without importing vscode. */
export type HostLogLevel = 0 | 1 | 2 | 3 | 4 | 5;

/** The level the user chose for our log, and when it changes. */
export interface LogLevelSource {
  readonly logLevel: HostLogLevel;
  readonly onDidChangeLogLevel: Event<HostLogLevel>;
}

/**
 * The MCP level for a host level. MCP has no "off" and no "trace": off asks for emergencies only
 * (2025; in 2026-07-28 the `_meta` key is left out, so nothing is sent), trace is debug.
 */
export function mcpLevel(level: HostLogLevel): LoggingLevel {
  switch (level) {
    case 0:
      return 'emergency';
    case 1:
    case 2:
      return 'debug';
    case 3:
      return 'info';
    case 4:
      return 'warning';
    case 5:
      return 'error';
  }
}

/** The level a 2026-07-28 request carries in `_meta`, or undefined (no key) when our log is off. */
export function metaLevel(source: LogLevelSource | undefined): LoggingLevel | undefined {
  if (!source || source.logLevel === 0) return undefined;
  return mcpLevel(source.logLevel);
}

/** Where a server's `notifications/message` is written: the server's log (the session's SessionLog). */
export interface ServerLogWriter {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Writes one `notifications/message` at its own level, with its logger name when it has one. */
export function writeServerMessage(
  log: ServerLogWriter,
  params: { level: LoggingLevel; logger?: string | undefined; data: unknown },
  prefix = '',
): void {
  const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
  const line = `${prefix}[server log${params.logger ? ` ${params.logger}` : ''}] ${data}`;
  switch (params.level) {
    case 'debug':
      return log.debug(line);
    case 'info':
    case 'notice':
      return log.info(line);
    case 'warning':
      return log.warn(line);
    default:
      return log.error(`${params.level}: ${line}`);
  }
}

/** What one session needs to keep a 2025 server's level in step. */
export interface LevelWiring {
  readonly source: LogLevelSource;
  /** True when the session runs 2025-11-25 and the server declared `logging`. */
  wantsSetLevel(): boolean;
  /** Sends `logging/setLevel`. */
  setLevel(level: LoggingLevel): Promise<unknown>;
  readonly warn: (message: string) => void;
}

/**
 * One session's `logging/setLevel`: sent once connected ({@link start}) and on each change of our
 * level. Dispose with the session, so a change after the launch ended sends nothing.
 */
export class SessionLogLevel implements EventDisposable {
  private sub: EventDisposable | undefined;

  constructor(private readonly w: LevelWiring) {}

  /** After connect: the server learns our level now, and again whenever it changes. */
  start(): void {
    if (!this.w.wantsSetLevel() || this.sub) return;
    this.send(this.w.source.logLevel);
    this.sub = this.w.source.onDidChangeLogLevel((level) => this.send(level));
  }

  private send(level: HostLogLevel): void {
    this.w
      .setLevel(mcpLevel(level))
      .catch((e: unknown) => this.w.warn(`logging/setLevel failed: ${e instanceof Error ? e.message : String(e)}`));
  }

  dispose(): void {
    this.sub?.dispose();
    this.sub = { dispose: () => undefined };
  }
}
