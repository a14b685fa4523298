/**
 * What a launch (session.ts) is given and what it tells its Connection: the deps of one Session,
 * the log it writes to, how it ended, and the shape of the messages the agent gateway relays.
 */
import type { Implementation } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/parse/definitions';
import type { ElicitationSink } from '../elicitation/broker';
import type { SamplingSink } from '../sampling/samplingBroker';
import type { LogLevelSource } from './capabilities/logging';
import type { RootsSource } from './capabilities/roots';
import type { ClientExtensions } from './capabilities/agentExtensions';
import type { LegClock } from './legDeadline';
import type { Era } from './era/eraChoice';

/** A request or notification as the agent gateway relays it, params untouched. */
export interface RelayedMessage {
  readonly method: string;
  readonly params?: Record<string, unknown> | undefined;
}

/** The part of the logger a session writes to (the host's Logger, or a test's array). */
export interface SessionLog {
  readonly isTracing: boolean;
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface SessionDeps {
  readonly name: string;
  readonly clientInfo: Implementation;
  readonly sink: ElicitationSink;
  /** Pushed `sampling/createMessage` (2025 servers); rounds reach it through mrtr/inputRounds.ts. */
  readonly sampler: SamplingSink;
  readonly log: SessionLog;
  /** The server's `protocolVersion` setting. */
  readonly protocolVersion: ServerDefinition['protocolVersion'];
  /** The revision a tool of this server was found to need (era/eraMismatch.ts); this launch speaks it. */
  readonly learnedEra?: { readonly era: Era; readonly tool: string } | undefined;
  /** The folders this server may see (capabilities/roots.ts); none when absent. */
  readonly roots?: RootsSource | undefined;
  /** The level of our log, which the server's follows (capabilities/logging.ts); none when absent. */
  readonly logLevel?: LogLevelSource | undefined;
  /** Times each leg, and stops while a question the server raised is open (default: real timers, no questions). */
  readonly legClock?: LegClock;
  /**
   * Client extensions declared on behalf of VS Code's agent for this launch, such as MCP Apps
   * (capabilities/agentExtensions.ts); none when absent.
   */
  readonly extensions?: ClientExtensions | undefined;
}

/**
 * Why a running session ended on its own (a stop or restart by the user disposes it instead):
 * - `closed`: the transport closed (a stdio server exited);
 * - `unresponsive`: after a transport error the server did not answer the liveness probe;
 * - `versionGone`: the server dropped the protocol revision negotiated at connect (-32022).
 */
export interface SessionEnd {
  readonly kind: 'closed' | 'unresponsive' | 'versionGone';
  readonly reason: string;
}
