/**
 * Messages between the form webview and the extension host, declared once and shared by both sides.
 * No `vscode` and no DOM here. Incoming messages are always checked with the guards below:
 * the webview is a browser context that server text reaches, so nothing is trusted by cast alone.
 */
import type { AnswerValue, Field } from './fieldModel';

/**
 * Who is asking (the asker's `name` and `info`, as in elicitation/asker.ts), and what it says;
 * every piece is server text and is rendered as plain text only.
 */
export interface Attribution {
  /** The name the user gave the server in mcp.json or settings (or an API caller's `source`). */
  readonly name: string;
  /** `serverInfo.title ?? serverInfo.name` with version, when the server reported one, and the position in its round. */
  readonly info: string | undefined;
  /** The request's `message`, sanitised and possibly truncated. */
  readonly message: string;
  readonly messageTruncated: boolean;
}

/** Everything the form needs to render; embedded HTML-escaped in a `data-` attribute. */
export interface FormInit {
  readonly requestId: string;
  readonly attribution: Attribution;
  readonly fields: readonly Field[];
  /** Visible warnings (URL in text, secret-like fields, truncation…). */
  readonly warnings: readonly string[];
  /** Current values: defaults, or what the user typed before the panel was hidden. */
  readonly values: Readonly<Record<string, AnswerValue | undefined>>;
  /** Localised UI strings, looked up by key. */
  readonly strings: Readonly<Record<WebviewStringKey, string>>;
  /** Preview mode (server authors): Accept shows the result instead of sending it. */
  readonly preview: boolean;
  /** The answer may be remembered: the footer offers "this session" and "this workspace". */
  readonly canRemember?: boolean;
}

/** Where an accepted answer is remembered, when the user chose to (issue 26 item 3). */
export type RememberChoice = 'session' | 'workspace';

export type WebviewStringKey =
  | 'accept'
  | 'decline'
  | 'cancel'
  | 'blockServer'
  | 'required'
  | 'asks'
  | 'yes'
  | 'no'
  | 'unset'
  | 'truncated'
  | 'warningTitle'
  | 'acceptHint'
  | 'formatEmail'
  | 'formatUri'
  | 'formatDate'
  | 'formatDateTime'
  | 'selectAtLeast'
  | 'selectAtMost'
  // Added with the webview form: `{0}`/`{1}` placeholders are filled in by the webview.
  | 'selectBetween'
  | 'choose'
  | 'numberRange'
  | 'numberMin'
  | 'numberMax'
  | 'wholeNumber'
  | 'preview'
  | 'closed'
  // Added with remembered answers.
  | 'remember'
  | 'rememberNo'
  | 'rememberSession'
  | 'rememberWorkspace';

/** webview → extension */
export type FromWebview =
  /** The script loaded and its listeners are attached; the host may now post. */
  | { readonly type: 'ready' }
  /** The user edited something; the host validates with the one shared validator and answers `validation`. */
  | { readonly type: 'change'; readonly values: Readonly<Record<string, AnswerValue | undefined>> }
  /** Accept pressed (button or Ctrl/Cmd+Enter). The host re-validates before replying. `remember`: the footer's choice. */
  | { readonly type: 'accept'; readonly values: Readonly<Record<string, AnswerValue | undefined>>; readonly remember?: RememberChoice }
  | { readonly type: 'decline' }
  | { readonly type: 'cancel' }
  | { readonly type: 'blockServer' }
  /** A CSP violation observed in the page (counted by the hostile battery). */
  | { readonly type: 'cspViolation'; readonly directive: string };

/** extension → webview */
export type ToWebview =
  /** Per-field error messages keyed by field key; `''` holds form-level errors. */
  | { readonly type: 'validation'; readonly valid: boolean; readonly errors: Readonly<Record<string, string>> }
  /** The request is over (answered, or cancelled by the server); the form disables itself. */
  | { readonly type: 'closed'; readonly reason: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isAnswerValue(v: unknown): v is AnswerValue | undefined {
  return (
    v === undefined ||
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isFinite(v)) ||
    (Array.isArray(v) && v.every((x) => typeof x === 'string'))
  );
}

function isValues(v: unknown): v is Record<string, AnswerValue | undefined> {
  return isRecord(v) && Object.values(v).every(isAnswerValue);
}

/** Runtime guard for messages arriving from the webview. */
export function parseFromWebview(msg: unknown): FromWebview | undefined {
  if (!isRecord(msg) || typeof msg['type'] !== 'string') return undefined;
  switch (msg['type']) {
    case 'ready':
    case 'decline':
    case 'cancel':
    case 'blockServer':
      return { type: msg['type'] };
    case 'change':
      return isValues(msg['values']) ? { type: 'change', values: msg['values'] } : undefined;
    case 'accept': {
      if (!isValues(msg['values'])) return undefined;
      const r = msg['remember'];
      // Anything but the two known choices is no choice: nothing is remembered by mistake.
      return { type: 'accept', values: msg['values'], ...(r === 'session' || r === 'workspace' ? { remember: r } : {}) };
    }
    case 'cspViolation':
      return typeof msg['directive'] === 'string' ? { type: 'cspViolation', directive: msg['directive'].slice(0, 200) } : undefined;
    default:
      return undefined;
  }
}

/** Runtime guard for messages arriving from the host (the webview checks too). */
export function parseToWebview(msg: unknown): ToWebview | undefined {
  if (!isRecord(msg)) return undefined;
  if (msg['type'] === 'validation' && typeof msg['valid'] === 'boolean' && isRecord(msg['errors'])) {
    const errors: Record<string, string> = {};
    for (const [k, v] of Object.entries(msg['errors'])) if (typeof v === 'string') errors[k] = v;
    return { type: 'validation', valid: msg['valid'], errors };
  }
  if (msg['type'] === 'closed' && typeof msg['reason'] === 'string') return { type: 'closed', reason: msg['reason'] };
  return undefined;
}
