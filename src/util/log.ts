import * as vscode from 'vscode';
import { redactSecrets } from './redact';

/**
 * The one logger, over a LogOutputChannel so users pick the level ("Developer: Set Log Level").
 * Every line passes through `redactSecrets`: header values and password inputs registered with
 * `addSecret` never reach the channel.
 */
export class Logger implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly secrets = new Set<string>();

  constructor(name: string) {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Remembers a value that must never be written to the log (an input marked password, a header value). */
  addSecret(value: string): void {
    if (value.length >= 4) this.secrets.add(value);
  }

  trace(msg: string): void {
    if (this.channel.logLevel <= vscode.LogLevel.Trace) this.channel.trace(this.clean(msg));
  }
  debug(msg: string): void {
    this.channel.debug(this.clean(msg));
  }
  info(msg: string): void {
    this.channel.info(this.clean(msg));
  }
  warn(msg: string): void {
    this.channel.warn(this.clean(msg));
  }
  error(msg: string, err?: unknown): void {
    const detail = err === undefined ? '' : `: ${err instanceof Error ? err.message : JSON.stringify(err)}`;
    this.channel.error(this.clean(msg + detail));
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

  private clean(msg: string): string {
    return redactSecrets(msg, this.secrets);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
