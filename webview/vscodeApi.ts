/**
 * The one handle on the webview host API. `acquireVsCodeApi` may be called only once per page,
 * so every module goes through this file. State survives hide/show and moves between editor
 * groups (the page itself is reloaded because the panel does not retain its context).
 */
import type { AnswerValue } from '../src/shared/fieldModel';
import type { FromWebview } from '../src/shared/webviewMessages';

export type Values = Record<string, AnswerValue | undefined>;

/** What the page persists with `setState`; tied to one request so a stale form never leaks into another. */
export interface PersistedState {
  readonly requestId: string;
  readonly values: Values;
  /** Field keys the user has edited, so errors keep showing for them after a reload. */
  readonly touched: readonly string[];
}

interface VsCodeApi {
  postMessage(msg: FromWebview): void;
  getState(): unknown;
  setState(state: PersistedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post(msg: FromWebview): void {
  api.postMessage(msg);
}

export function saveState(state: PersistedState): void {
  api.setState(state);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The persisted state for `requestId`, or undefined when there is none or it belongs to another request. */
export function loadState(requestId: string): PersistedState | undefined {
  const s = api.getState();
  if (!isRecord(s) || s['requestId'] !== requestId || !isRecord(s['values'])) return undefined;
  const values: Values = {};
  for (const [k, v] of Object.entries(s['values'])) {
    const ok =
      typeof v === 'string' ||
      typeof v === 'number' ||
      typeof v === 'boolean' ||
      (Array.isArray(v) && v.every((x) => typeof x === 'string'));
    // defineProperty, not assignment: a field may legitimately be called "__proto__".
    if (ok) Object.defineProperty(values, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const touched = Array.isArray(s['touched']) ? s['touched'].filter((t): t is string => typeof t === 'string') : [];
  return { requestId, values, touched };
}
