/**
 * Which MCP revision a launch speaks, and why (issue 40; the evidence is in
 * docs/design/protocol-2026.md, "Which revision by default").
 *
 * The rule for `"protocolVersion": "auto"` (the default): **2025-11-25 to every server that
 * accepts it; 2026-07-28 only to a server that refuses it.** The frameworks people write servers
 * with ask their questions in ways that work on 2025-11-25 (FastMCP's and the Python SDK's
 * imperative `elicit`, the TypeScript SDK's `elicitInput`), or on both revisions (the TypeScript
 * SDK's `inputRequired` with its legacy shim, the Python SDK's resolvers); VS Code 1.139 speaks
 * 2025-11-25 alone, so every published server's questions are written to reach a person on it.
 * Only a tool written the 2026-07-28 way alone (FastMCP's `InputRequiredResult`) needs the newer
 * revision from a server that speaks both: the call tells us (eraMismatch.ts), and the
 * connection learns it per tool (connection.ts).
 *
 * Legacy first also costs nothing where it matters: a 2025 or dual-era server is connected in the
 * one round trip of a pinned 2025-11-25, and a 2026-07-28-only server in one more (its refused
 * `initialize`), on the same process (transportLease.ts). The SDK's own `auto` probes the other
 * way round, on a second copy of every stdio server. No `vscode` import.
 */
import { ProtocolError, SdkHttpError } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../config/parse/definitions';
import type { Localize } from '../../shared/localize';
import type { TransportKind } from '../transports';

export const LEGACY_REVISION = '2025-11-25';
export const MODERN_REVISION = '2026-07-28';
export type Era = 'legacy' | 'modern';

/**
 * Why a launch speaks the revision it does:
 * - `pinned`: the definition's `protocolVersion` says so;
 * - `sse`: the legacy SSE transport exists only in 2025 revisions;
 * - `vscode`: the default, the revision VS Code speaks, which the server accepted;
 * - `modernOnly`: the default, after the server refused 2025-11-25 (`refused` says how);
 * - `learned`: a tool of this server asks the other revision's way (`tool` names it).
 */
export type EraWhy = 'pinned' | 'sse' | 'vscode' | 'modernOnly' | 'learned';

export interface EraNote {
  readonly version: string;
  readonly why: EraWhy;
  readonly tool?: string | undefined;
  readonly refused?: string | undefined;
}

/** What one launch tries, in order: a single attempt, or 2025-11-25 and then, if refused, 2026-07-28. */
export type EraPlan =
  | { readonly kind: 'single'; readonly era: Era; readonly why: 'pinned' | 'sse' | 'learned'; readonly tool?: string | undefined }
  | { readonly kind: 'legacyFirst' };

/**
 * `learned`: the revision a tool of this server needs, as the connection learned it from a call
 * (undefined: none learned, or the server is pinned, where nothing is learned).
 */
export function eraPlan(
  choice: ServerDefinition['protocolVersion'],
  kind: TransportKind,
  learned?: { readonly era: Era; readonly tool: string },
): EraPlan {
  if (kind === 'sse') return { kind: 'single', era: 'legacy', why: 'sse' };
  if (choice === LEGACY_REVISION) return { kind: 'single', era: 'legacy', why: 'pinned' };
  if (choice === MODERN_REVISION) return { kind: 'single', era: 'modern', why: 'pinned' };
  if (learned) return { kind: 'single', era: learned.era, why: 'learned', tool: learned.tool };
  return { kind: 'legacyFirst' };
}

/**
 * Whether a refused `initialize` may come from a server that speaks 2026-07-28 alone, so that the
 * same connection is asked with `server/discover` next. The spec leaves the code of that refusal
 * to the server on stdio (a JSON-RPC error), and makes it a `400` over Streamable HTTP; other
 * 4xx answers (404, 405: an SSE-only server) cost one more request before the SSE fallback. Not
 * a timeout, an exit or a network failure (nothing answered), and not a sign-in challenge.
 */
export function mayBeModernOnly(err: unknown, kind: TransportKind): boolean {
  if (kind === 'sse') return false;
  if (err instanceof ProtocolError) return true;
  // The SDK's own check of an answer that names a revision it did not offer.
  if (err instanceof Error && /protocol version is not supported: 20\d\d-/i.test(err.message)) return true;
  if (kind !== 'http') return false;
  const status = err instanceof SdkHttpError ? err.status : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/** The revision of an era, as the wire names it. */
export function revisionOf(era: Era): string {
  return era === 'modern' ? MODERN_REVISION : LEGACY_REVISION;
}

/** One line for the Servers view's tooltip and the log: the revision and why this launch speaks it. */
export function eraLine(note: EraNote, l10n: Localize): string {
  switch (note.why) {
    case 'pinned':
      return l10n.t('MCP revision: {0}, as the server’s "protocolVersion" sets it', note.version);
    case 'sse':
      return l10n.t('MCP revision: {0}: legacy SSE carries only 2025 revisions', note.version);
    case 'vscode':
      return l10n.t(
        'MCP revision: {0}, the default: the revision VS Code speaks, so this server asks you what it would ask there',
        note.version,
      );
    case 'modernOnly':
      return l10n.t('MCP revision: {0}: the server refused 2025-11-25 ({1}) and speaks only this one', note.version, note.refused ?? '');
    case 'learned':
      return l10n.t('MCP revision: {0}, because its tool “{1}” asks its questions this revision’s way', note.version, note.tool ?? '');
  }
}
