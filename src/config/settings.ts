import * as vscode from 'vscode';

export const SECTION = 'mcpElicitation';

export type Presentation = 'auto' | 'quickInput' | 'webview';
export type SensitiveFieldsMode = 'warn' | 'decline';
export interface RateLimitSetting {
  readonly requests: number;
  readonly perSeconds: number;
}

/** Every setting the extension reads, typed, read in one place. See package.json for docs. */
export interface Settings {
  readonly servers: Readonly<Record<string, unknown>>;
  readonly autoStart: boolean;
  readonly presentation: Presentation;
  readonly sensitiveFields: SensitiveFieldsMode;
  readonly serverPolicy: Readonly<Record<string, unknown>>;
  /** Per server, the workspace folders (names or paths) it may see as roots; see servers/capabilities/roots.ts. */
  readonly serverRoots: Readonly<Record<string, unknown>>;
  readonly defaultPolicy: unknown;
  readonly rateLimit: RateLimitSetting;
  readonly allowHttpLoopback: boolean;
  readonly urlExpiryMinutes: number;
  readonly auditEnabled: boolean;
  readonly auditIncludeValues: boolean;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function record(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function nonNegative(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(SECTION);
  const rl = record(c.get('rateLimit'));
  return {
    servers: record(c.get('servers')),
    autoStart: c.get<boolean>('autoStart', true),
    presentation: oneOf(c.get('presentation'), ['auto', 'quickInput', 'webview'], 'auto'),
    sensitiveFields: oneOf(c.get('sensitiveFields'), ['warn', 'decline'], 'warn'),
    serverPolicy: record(c.get('serverPolicy')),
    serverRoots: record(c.get('serverRoots')),
    defaultPolicy: c.get('defaultPolicy'),
    rateLimit: { requests: nonNegative(rl['requests'], 10), perSeconds: nonNegative(rl['perSeconds'], 60) },
    allowHttpLoopback: c.get<boolean>('url.allowHttpLoopback', false),
    urlExpiryMinutes: nonNegative(c.get('url.pendingExpiryMinutes'), 30),
    auditEnabled: c.get<boolean>('audit.enabled', true),
    auditIncludeValues: c.get<boolean>('audit.includeValues', false),
  };
}

/**
 * `sampling.skipReview` as the user set it in their own (global) settings, read when a sample
 * arrives. A workspace or folder value is never read: skipping the sampling consent spends the
 * user's model, so a committed file must not decide it (the setting is also `application`-scoped).
 */
export function userSamplingSkipReview(): unknown {
  return vscode.workspace.getConfiguration(SECTION).inspect('sampling.skipReview')?.globalValue;
}

/** Fires `listener` with fresh settings whenever anything under our section changes. */
export function onDidChangeSettings(listener: (s: Settings, e: vscode.ConfigurationChangeEvent) => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener(readSettings(), e);
  });
}
