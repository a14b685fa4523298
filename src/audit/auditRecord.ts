/**
 * The audit log's record of one elicitation, built so that nothing secret reaches disk:
 * answers are left out unless the user opted in, secret fields are always redacted, and URLs
 * lose the parts that commonly carry tokens. One JSON object per line (JSON Lines).
 */
import type { DecidedBy, ElicitationAction, FinishedElicitation, RequestMode } from '../elicitation/outcome';
import { redactUrls } from '../util/redact';

/** A finished elicitation and the user's opt-in to logging answer values (`mcpElicitation.audit.includeValues`). */
export interface AuditInput extends FinishedElicitation {
  readonly includeValues: boolean;
}

/** One line of the audit log. */
export interface AuditRecord {
  /** ISO 8601, UTC. */
  readonly time: string;
  /** The asker's name. The line format is documented and read by other tools, so it keeps the word `server`. */
  readonly server: string;
  readonly mode: RequestMode;
  /** At most {@link MAX_AUDIT_MESSAGE} characters. */
  readonly message: string;
  readonly fields: readonly string[];
  readonly action: ElicitationAction;
  readonly decidedBy: DecidedBy;
  readonly durationMs: number;
  /** Origin and path only. */
  readonly url?: string;
  /** url mode, after "Open in Browser": whether the browser opened the page. */
  readonly browser?: FinishedElicitation['browser'];
  /** Present only when values are included; secret keys hold {@link REDACTED}. */
  readonly content?: Readonly<Record<string, unknown>>;
  /** A 2026-07-28 call's input request: the call, its round (1-based) and the request's key. */
  readonly call?: string;
  readonly round?: number;
  readonly key?: string;
  /** sampling: the model asked. */
  readonly model?: string;
}

/** Written in place of a secret value. */
export const REDACTED = '[redacted]';

/** Messages are server text of any length; the log keeps enough to recognise the request. */
export const MAX_AUDIT_MESSAGE = 500;

/** Rotate the log file beyond this size. */
export const DEFAULT_AUDIT_ROTATE_BYTES = 5 * 1024 * 1024;

/** Builds the record to log for one finished elicitation. */
export function buildAuditRecord(input: AuditInput): AuditRecord {
  const content = input.includeValues && input.content !== undefined ? redact(input.content, input.secretKeys) : undefined;
  return {
    time: input.at.toISOString(),
    server: input.asker.name,
    mode: input.mode,
    // Server text may name a URL with its password or token in it, as the log would redact it.
    message: truncate(redactUrls(input.message), MAX_AUDIT_MESSAGE),
    fields: [...input.fieldKeys],
    action: input.action,
    decidedBy: input.decidedBy,
    durationMs: Math.max(0, Math.round(input.durationMs)),
    ...(input.url !== undefined && { url: stripUrl(input.url) }),
    ...(input.browser !== undefined && { browser: input.browser }),
    ...(content !== undefined && { content }),
    ...(input.round !== undefined && { call: input.round.call, round: input.round.round, key: input.round.key }),
    ...(input.model !== undefined && { model: input.model }),
  };
}

function redact(content: Readonly<Record<string, unknown>>, secretKeys: readonly string[]): Record<string, unknown> {
  const secret = new Set(secretKeys);
  // fromEntries keeps a "__proto__" answer key as an ordinary property.
  return Object.fromEntries(Object.entries(content).map(([k, v]) => [k, secret.has(k) ? REDACTED : v]));
}

/**
 * Drops the query string and fragment (where OAuth codes, tokens and session ids travel) and
 * any `user:password@`. Text that is not a URL is cut at the first `?` or `#` instead.
 */
export function stripUrl(url: string): string {
  try {
    const u = new URL(url);
    u.search = '';
    u.hash = '';
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return url.split(/[?#]/, 1)[0] ?? '';
  }
}

/** Shortens to at most `max` characters, ending in "…", without splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * One log line: JSON (which escapes newlines, so server text cannot forge extra records)
 * followed by "\n".
 */
export function serialiseAuditLine(record: AuditRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/**
 * Whether to rotate before appending a line of `lineBytes` to a file of `currentSize` bytes.
 * An empty file never rotates, so a single oversized line cannot cause endless rotation.
 */
export function shouldRotate(currentSize: number, lineBytes: number, limit: number = DEFAULT_AUDIT_ROTATE_BYTES): boolean {
  return currentSize > 0 && currentSize + lineBytes > limit;
}
