/**
 * What a Connection hands the broker (servers/ → elicitation/): the one interface every
 * `elicitation/create`, input request and completion notice comes through. The broker
 * (broker.ts) implements it; the sampling broker reuses {@link HandleExtra}.
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { Asker } from './asker';
import type { CallRound } from './outcome';

export interface HandleExtra {
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  /** Set for an input request of a 2026-07-28 call: shown in the pending list, kept in history and audit. */
  readonly round?: CallRound;
  readonly sendProgress?: (token: string | number, progress: number, message?: string) => Promise<void>;
}

/** What a Connection needs from the broker. */
export interface ElicitationSink {
  /** `params` is the raw JSON of the request: the broker validates it (malformed → -32602). */
  handle(asker: Asker, params: unknown, extra: HandleExtra): Promise<ElicitResult>;
  /** `notifications/elicitation/complete` from the server named `name`. */
  complete(name: string, elicitationId: string): void;
  /** The server named `name` disconnected. */
  serverGone(name: string): void;
}
