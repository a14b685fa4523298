import type { Implementation } from '@modelcontextprotocol/client';
import type { TransportKind } from './transports';
import { english } from '../shared/localize';
import { serverSentence } from './sentences';
import type { EraNote } from './era/eraChoice';

export type ServerState =
  | { readonly kind: 'stopped' }
  | { readonly kind: 'starting'; readonly attempt: number }
  | {
      readonly kind: 'running';
      readonly transport: TransportKind;
      readonly serverInfo: Implementation | undefined;
      readonly pid: number | undefined;
      /** The MCP revision negotiated with the server, e.g. `2026-07-28` or `2025-11-25`. */
      readonly protocolVersion: string | undefined;
      /** Why this launch speaks that revision (era/eraChoice.ts); absent where a test builds the state by hand. */
      readonly era?: EraNote | undefined;
    }
  | { readonly kind: 'error'; readonly reason: string; readonly gaveUp: boolean }
  | { readonly kind: 'untrusted' };

export function describeState(s: ServerState): string {
  switch (s.kind) {
    case 'stopped':
      return 'stopped';
    case 'starting':
      return s.attempt > 1 ? `starting (attempt ${s.attempt})` : 'starting';
    case 'running':
      return `running over ${s.transport}${s.protocolVersion ? `, MCP ${s.protocolVersion}` : ''}${s.serverInfo ? ` (${s.serverInfo.name} ${s.serverInfo.version})` : ''}${s.pid ? ` pid ${s.pid}` : ''}`;
    case 'error':
      return `error: ${s.reason}`;
    case 'untrusted':
      return serverSentence({ key: 'untrusted' }, english);
  }
}

/**
 * A readable reason: the message, plus what Node and the SDK keep elsewhere (`fetch failed` says
 * nothing without its cause, such as `connect ECONNREFUSED 127.0.0.1:9`; an HTTP error's status).
 */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const parts = [err.message];
  const status = (err as { status?: unknown }).status ?? (err as { code?: unknown }).code;
  if (typeof status === 'number' && status >= 400 && status < 600 && !err.message.includes(String(status))) parts.push(`(HTTP ${status})`);
  // `fetch failed` says nothing without its cause (`connect ECONNREFUSED …`), which the SDK may
  // wrap once more: follow the chain a few links.
  let cause = (err as { cause?: unknown }).cause;
  for (let depth = 0; cause instanceof Error && depth < 3; depth++) {
    if (cause.message && !parts.some((p) => p.includes(cause instanceof Error ? cause.message : ''))) parts.push(`(${cause.message})`);
    cause = (cause as { cause?: unknown }).cause;
  }
  return parts.join(' ');
}
