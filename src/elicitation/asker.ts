/**
 * Who is asking: a configured server, or an extension through the public API. One type from the
 * connection to the audit line, so the broker, the queue, the pending list, the history, the
 * presenter and the audit all name the asker the same way.
 */
import type { Implementation } from '@modelcontextprotocol/client';
import { MAX_LABEL_CHARS, sanitiseForDisplay, type DisplayText } from '../shared/displayText';

/** The server (or API caller) asking; shown as the attribution on every prompt. */
export interface Asker {
  /** Configured server name, or `ext:<extension id>` for an API caller: the policy and rate-limit key. */
  readonly name: string;
  /** `serverInfo.title ?? serverInfo.name` plus version, when known: the server's claim, neutralised. */
  readonly info: DisplayText | undefined;
  /** Where this prompt stands among several input requests of one 2026-07-28 round ("1 of 2"). */
  readonly position?: { readonly index: number; readonly total: number };
}

/**
 * The asker for a server (or caller) called `name` that introduced itself with `serverInfo`. The
 * claim is shown on every prompt, so it gets the same rules as any server text: the branded
 * `DisplayText` makes this the only way to fill `info`.
 */
export function askerFor(name: string, serverInfo: Implementation | undefined): Asker {
  return {
    name,
    info: serverInfo
      ? sanitiseForDisplay(`${serverInfo.title ?? serverInfo.name} ${serverInfo.version}`.trim(), MAX_LABEL_CHARS).text
      : undefined,
  };
}
