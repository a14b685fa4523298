/**
 * The in-host side of the benchmark's control channel: the harness (bench/run.mjs) runs a
 * loopback HTTP server and owns the browser page; code in the extension host asks it to watch the
 * page for a prompt, to act on the page like a user, and hands it the results. The URL comes from
 * MCP_BENCH_CONTROL in the host's environment.
 */

export type PromptKind = 'inputBox' | 'quickPick' | 'webview';

/** What the page must show before a prompt counts as visible. */
export interface WatchSpec {
  /** Unique text in the request's message; the widget must contain it. */
  readonly token: string;
  readonly kind: PromptKind;
  /** quickPick: a row with this label must be rendered. */
  readonly option?: string;
  /** webview: at least this many `.field` elements in `main.form`. */
  readonly fields?: number;
}

function base(): string {
  const url = process.env['MCP_BENCH_CONTROL'];
  if (!url) throw new Error('MCP_BENCH_CONTROL is not set: run the benchmark with `npm run bench`');
  return url;
}

async function call<T>(path: string, body: unknown, timeoutMs = 60_000): Promise<T> {
  const res = await fetch(`${base()}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`control ${path} failed (${res.status}): ${text}`);
  return JSON.parse(text) as T;
}

/** Waits until the page is clean (no quick input, no webview), then starts watching for `spec`. */
export function arm(spec: WatchSpec): Promise<{ ok: true }> {
  return call('/arm', spec);
}

/** The page's clock (`performance.timeOrigin + performance.now()`) when the armed prompt became visible. */
export function seen(token: string, timeoutMs = 30_000): Promise<{ at: number }> {
  return call('/seen', { token, timeoutMs }, timeoutMs + 5_000);
}

/**
 * The harness waits for the demo's twelve-field form to appear, then performs `method` (one
 * click on Accept, or Ctrl+Enter) and reports how many keystrokes and clicks it used.
 */
export function acceptDefaults(method: 'click' | 'ctrlEnter'): Promise<{ actions: number; formShownAt: number; focusDelayMs?: number }> {
  return call('/accept-defaults', { method }, 60_000);
}

/** Has the page collect its garbage (see bench/lib/page.mjs); returns its DOM size and JS heap then. */
export function collectPageGarbage(): Promise<{ domNodes: number; jsHeapBytes: number }> {
  return call('/page-gc', {});
}

/**
 * Starts (`true`) or stops (`false`) the burst's user in the page: it clicks the Cancel button of
 * each question once the workbench has drawn it. Stopping reports how many clicks landed.
 */
export function canceller(on: boolean): Promise<{ clicks: number; misses: number }> {
  return call('/canceller', { on });
}

/** The harness's clock (`performance.timeOrigin + performance.now()`), for the clock check. */
export function harnessClock(): Promise<{ at: number }> {
  return call('/clock', {});
}

/**
 * The page's clock minus the harness's, at the shortest of `probes` round trips between them; and
 * the page's clock minus the system clock (bench/lib/wallClock.mjs).
 */
export function pageClock(probes: number): Promise<{ skewMs: number; rttMs: number; offsetMs: number }> {
  return call('/page-clock', { probes });
}

export function postResults(results: unknown): Promise<{ ok: true }> {
  return call('/results', results);
}
