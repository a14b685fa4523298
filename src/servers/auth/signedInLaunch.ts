/**
 * A launch that answers a 401 with sign-in (issue 25), for a Connection (connection.ts): the user
 * is asked, signs in in the browser, and the server is launched once more with the new token.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../config/parse/definitions';
import type { SignInPort } from '../connectionDeps';
import { errorText } from '../serverState';
import type { Session } from '../session';
import { isAuthChallenge, type TransportKind } from '../transports';

/** One launch attempt of a Connection: its session, or why it failed. */
export type Launch =
  | { failed: false; session: Session }
  /**
   * `final`: retrying on a timer cannot help (the user turned sign-in down, or it failed).
   * `told`: the user already knows why (sign-in said so, or they turned it down themselves).
   */
  | { failed: true; session: Session | undefined; err: unknown; final?: boolean; told?: boolean; superseded?: boolean };

/** What the sign-in launch needs of its Connection. */
export interface SignedInLaunchHost {
  readonly definition: ServerDefinition;
  readonly signIn: SignInPort | undefined;
  readonly log: { info(message: string): void };
  /** A new session, connected (or why not). */
  launch(kind: TransportKind | undefined, auth: OAuthClientProvider | undefined): Promise<Launch>;
  /** Ends the current session and the calls waiting on it; this renews {@link callSignal}. */
  endSession(): void;
  /** The signal of the connection's calls: aborted when it is stopped, restarted or torn down. */
  callSignal(): AbortSignal;
  /** The connection is no longer wanted (stopped) or is disposed. */
  gone(): boolean;
}

/**
 * A second 401 is the server's doing, not the user's, so it ends the attempt rather than asking
 * again (no 401 loop).
 */
export async function launchSignedIn(host: SignedInLaunchHost, kind: TransportKind | undefined): Promise<Launch> {
  const def = host.definition;
  if (def.type === 'stdio') return host.launch(kind, undefined);
  const signIn = host.signIn;
  const auth = await signIn?.providerFor(def);
  const first = await host.launch(kind, auth);
  if (!first.failed || first.session?.isDisposed) return first;
  if (!isAuthChallenge(first.err)) return signIn?.endedInAuthFlow(def, first.err) ? { ...first, final: true, told: true } : first;
  if (!signIn) return { ...first, err: new Error(`the server requires sign-in (${errorText(first.err)})`), final: true };
  host.endSession();
  const signal = host.callSignal();
  host.log.info(`the server requires sign-in (${errorText(first.err)})`);
  try {
    await signIn.signIn(def, signal);
  } catch (err) {
    // The sign-in service told the user why, unless they turned it down themselves.
    return { failed: true, session: undefined, err, final: true, told: true, superseded: signal.aborted || host.gone() };
  }
  if (signal.aborted || host.gone()) return { failed: true, session: undefined, err: undefined, superseded: true };
  const second = await host.launch(kind, auth);
  if (second.failed && !second.session?.isDisposed && isAuthChallenge(second.err)) {
    const err = new Error(`the server still answers 401 after sign-in (${errorText(second.err)})`);
    signIn.refused(def, err.message);
    return { ...second, err, final: true, told: true };
  }
  return second;
}
