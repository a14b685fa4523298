import * as vscode from 'vscode';
import { redactSecrets } from './redact';

/** Told every line a Logger writes, after redaction, with the name of its channel (tests observe this). */
export type LogObserver = (channel: string, level: 'trace' | 'debug' | 'info' | 'warn' | 'error', text: string) => void;

/**
 * One logger over a LogOutputChannel, so users pick the level ("Developer: Set Log Level").
 * Every line passes through `redactSecrets`: header values and password inputs registered with
 * `addSecret` never reach the channel. The extension's own log and every server's log share one
 * set of known secrets, since a server's stderr can echo a value another part registered.
 */
export class Logger implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;

  constructor(
    readonly name: string,
    private readonly options: { readonly secrets?: Set<string>; readonly observe?: LogObserver } = {},
  ) {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
    this.secrets = options.secrets ?? new Set<string>();
  }
  private readonly secrets: Set<string>;

  /** A logger for another channel that redacts the same secrets and reports to the same observer. */
  sibling(name: string): Logger {
    return new Logger(name, { secrets: this.secrets, ...(this.options.observe ? { observe: this.options.observe } : {}) });
  }

  /** Remembers a value that must never be written to the log (an input marked password, a header value). */
  addSecret(value: string): void {
    if (value.length >= 4) this.secrets.add(value);
  }

  /** `text` with what this log never writes taken out: for a notice that quotes a server's stderr. */
  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  trace(msg: string): void {
    if (this.channel.logLevel <= vscode.LogLevel.Trace) this.channel.trace(this.clean('trace', msg));
  }
  debug(msg: string): void {
    this.channel.debug(this.clean('debug', msg));
  }
  info(msg: string): void {
    this.channel.info(this.clean('info', msg));
  }
  warn(msg: string): void {
    this.channel.warn(this.clean('warn', msg));
  }
  error(msg: string, err?: unknown): void {
    const detail = err === undefined ? '' : `: ${err instanceof Error ? err.message : JSON.stringify(err)}`;
    this.channel.error(this.clean('error', msg + detail));
  }

  /** The level the user set for this log; servers' log levels follow it (servers/capabilities/logging.ts). */
  get logLevel(): vscode.LogLevel {
    return this.channel.logLevel;
  }
  get onDidChangeLogLevel(): vscode.Event<vscode.LogLevel> {
    return this.channel.onDidChangeLogLevel;
  }

  get isTracing(): boolean {
    return this.channel.logLevel <= vscode.LogLevel.Trace;
  }

  show(): void {
    this.channel.show(true);
  }

  private clean(level: Parameters<LogObserver>[1], msg: string): string {
    const text = redactSecrets(msg, this.secrets);
    this.options.observe?.(this.name, level, text);
    return text;
  }

  dispose(): void {
    this.channel.dispose();
  }
}
