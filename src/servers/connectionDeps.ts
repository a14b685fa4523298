/**
 * What a Connection (connection.ts) is given: its deps, the sign-in port it uses for servers
 * that answer 401, and the restart policy's numbers.
 */
import type { Implementation, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { RemoteServerDefinition } from '../config/parse/definitions';
import type { ElicitationSink } from '../elicitation/broker';
import type { SamplingSink } from '../sampling/samplingBroker';
import type { Localize } from '../shared/localize';
import type { ClientExtensions } from './capabilities/agentExtensions';
import type { LogLevelSource } from './capabilities/logging';
import type { RootsSource } from './capabilities/roots';
import type { LegClock, SetTimer } from './legDeadline';
import type { SessionLog } from './sessionDeps';
import type { createTransport } from './transports';
import type { Era } from './era/eraChoice';

export interface ConnectionDeps {
  readonly log: SessionLog & { error(message: string, err?: unknown): void };
  readonly clientInfo: Implementation;
  readonly sink: ElicitationSink;
  readonly sampler: SamplingSink;
  /** Called when the server stopped for good and nobody told the user why yet (the UI offers Show Log and Restart). */
  readonly onGaveUp: (gaveUp: GaveUp) => void;
  /** Backoff before each automatic restart; its length is the number of tries before giving up. */
  readonly restartDelaysMs?: readonly number[];
  /** How long `initialize` may take (read per attempt; tests shorten it). */
  readonly connectTimeoutMs?: () => number;
  /** The language of the error a call to a server that is not running gets (English when absent). */
  readonly l10n?: Localize;
  /** Makes the transport of each launch (tests pass one over an in-memory pair). */
  readonly createTransport?: typeof createTransport;
  /** Schedules restarts and the crash-counter reset (default: `setTimeout`). */
  readonly setTimer?: SetTimer;
  /** The folders each server may see (capabilities/roots.ts); none when absent. */
  readonly roots?: RootsSource;
  /** The level of our log, which each server's follows (capabilities/logging.ts). */
  readonly logLevel?: LogLevelSource;
  /** Times the legs of calls, stopped while a question the server raised is open (legDeadline.ts). */
  readonly legClock?: LegClock;
  /** Client extensions to declare on VS Code's agent's behalf, read at each launch (capabilities/agentExtensions.ts). */
  readonly extensions?: () => ClientExtensions | undefined;
  /** Signs the user in to a remote server that answers 401 (servers/auth/); absent: such a server fails. */
  readonly signIn?: SignInPort;
  /** Asks whether to reconnect a server at the revision a tool needs and run it again (ui/eraOffer.ts); absent: never. */
  readonly eraSwitch?: EraSwitchPort;
}

/** A tool that asks the other revision's way (servers/era/eraMismatch.ts), offered to the user. */
export interface EraSwitchOffer {
  readonly server: string;
  readonly tool: string;
  readonly needs: Era;
  /** Other calls to this server under way, which reconnecting ends. */
  readonly others: number;
}

export interface EraSwitchPort {
  /** True: reconnect and run the tool again. Resolves false when `signal` aborts first. */
  ask(offer: EraSwitchOffer, signal: AbortSignal | undefined): Promise<boolean>;
}

/** A server a connection stopped restarting, for a notice (ui/gaveUpNotice.ts). */
export interface GaveUp {
  readonly server: string;
  readonly reason: string;
  /** `restarts`: automatic restarts kept failing; `final`: a failure no restart can fix. */
  readonly after: 'restarts' | 'final';
  /** The last line the failed launch wrote to stderr (often what went wrong), unredacted. */
  readonly lastStderr: string | undefined;
}

/** What a connection needs of MCP authorization (issue 25); servers/auth/signIn.ts implements it. */
export interface SignInPort {
  /** The OAuth client the transports of the next launch use: stored tokens, refresh, step-up. */
  providerFor(def: RemoteServerDefinition): Promise<OAuthClientProvider>;
  /**
   * Signs the user in to `def` after a 401 the stored credentials could not settle: consent,
   * browser, redirect, token. Resolves once a token is stored; rejects with the reason in words.
   */
  signIn(def: RemoteServerDefinition, signal: AbortSignal): Promise<void>;
  /** The server refused the token it just got (a 401 loop): sign-in ended, and the user is told why. */
  refused(def: RemoteServerDefinition, reason: string): void;
  /**
   * Whether a launch's failure is the transport's own OAuth step failing (metadata refused, an
   * OAuth error): then sign-in ended, the user has been told why, and a restart would only repeat it.
   */
  endedInAuthFlow(def: RemoteServerDefinition, err: unknown): boolean;
}

/** Backoff before restart attempt n (1-based): 1 s, 2 s, 4 s, 8 s, 16 s. */
export const RESTART_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];
/** A connection that stayed up this long resets the crash counter. */
export const STABLE_AFTER_MS = 60_000;
export const CONNECT_TIMEOUT_MS = 30_000;
