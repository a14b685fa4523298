/**
 * Sign-in to remote MCP servers (issue 25): the connection's {@link SignInPort}. The SDK's OAuth
 * client finds the authorization server and builds the request (oauthProvider.ts); here the user
 * is asked (the url consent, which names the server and where they sign in, and opens the browser
 * only on Allow), the browser's way back is awaited (loopbackRedirect.ts) with a time limit, and
 * the code is redeemed. One sign-in per server at a time: a second one replaces the first. No
 * `vscode` import: the consent and the notices come in as functions. Built into `dist/signIn.js`
 * and loaded on first use (lazySignIn.ts): activation and users of servers without sign-in never
 * read it.
 */
import type { RemoteServerDefinition } from '../../config/parse/definitions';
import type { SignInPort } from '../connection';
import type * as HttpTransports from '../httpTransports';
import type { ServerOAuthProvider } from './oauthProvider';
import type { AuthStore, ServerAt } from './authStore';
import { urlDestination } from '../../config/parse/serverFingerprint';
import { LoopbackRedirect } from './loopbackRedirect';
import { forgetSignIn } from './signOut';
import { Emitter, type Event } from '../../util/emitter';

/** How long the browser has to come back: signing in may take a password manager and a second factor. */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;

/** What the consent step reports: the browser opened (or the user took the link), or not. */
export type SignInConsentAnswer = 'opened' | 'declined' | 'cancelled';

export interface SignInRequest {
  /** The configured server asking. */
  readonly server: string;
  readonly serverUrl: string;
  /** The authorization URL the SDK built: exactly what opens. */
  readonly url: string;
}

export interface SignInDeps {
  readonly store: AuthStore;
  readonly redirect: LoopbackRedirect;
  /** The lazily loaded HTTP transports, which hold the SDK's OAuth code (transports.ts). */
  readonly engine: () => typeof HttpTransports;
  /** Asks the user and, on Allow, opens `request.url` in the browser. */
  readonly consent: (request: SignInRequest, signal: AbortSignal) => Promise<SignInConsentAnswer>;
  /**
   * Tells the user a sign-in failed (not when they turned it down themselves). The reason comes
   * redacted ({@link redact}): an authorization server may quote the code back in its error.
   */
  readonly failed: (server: string, reason: string) => void;
  /** The logs' redaction (util/log.ts), with the secrets {@link addSecret} registered. */
  readonly redact: (text: string) => string;
  /**
   * The server's own log (util/serverLogs.ts), where its connection writes its lifecycle: a user
   * who opens it after a failed sign-in reads why there. Redacted like every log, with the secrets
   * {@link addSecret} registers (tokens, the code, client secrets).
   */
  readonly logFor: (server: string) => { info(message: string): void; warn(message: string): void };
  readonly addSecret: (value: string) => void;
  /** Read per sign-in; tests shorten it (`undefined`: {@link SIGN_IN_TIMEOUT_MS}). */
  readonly timeoutMs?: () => number | undefined;
}

/** A sign-in that ended; `message` says why, for the server's state and the notice. */
export class SignInFailed extends Error {
  override readonly name = 'SignInFailed';
  constructor(
    message: string,
    /** The user said no, or closed the dialog: no notice, they know. */
    readonly byUser = false,
  ) {
    super(message);
  }
}

/** The reason an error gives, in a sentence (SDK errors carry their OAuth code and description). */
function reasonOf(err: unknown, def: RemoteServerDefinition): string {
  if (!(err instanceof Error)) return String(err);
  if (err instanceof SyntaxError || /JSON|Unexpected token/.test(err.message)) {
    return `the authorization server sent an answer that is not JSON (${err.message})`;
  }
  const code = (err as { code?: unknown }).code;
  if (def.clientId && (code === 'invalid_client' || code === 'unauthorized_client')) {
    // A pre-registered client the server refuses: most often its secret is missing or old.
    return `the authorization server did not accept client "${def.clientId}" (${String(code)}: ${err.message}); set its secret with "MCP Elicitation: Set Client Secret for Server…"`;
  }
  return err.message;
}

/** A duration in words: `5 minutes`, `1 second`. */
function spell(ms: number): string {
  const [n, unit] = ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.max(1, Math.round(ms / 1000)), 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

export class SignInService implements SignInPort {
  private readonly providers = new Map<string, { key: string; def: RemoteServerDefinition; provider: ServerOAuthProvider }>();
  private readonly running = new Map<string, AbortController>();
  /** Servers known to use sign-in (they asked for it, or have tokens): signed in or not. */
  private readonly known = new Map<string, boolean>();
  private readonly _onDidChange = new Emitter<string>();
  /** A server's sign-in state changed (its name). */
  readonly onDidChange: Event<string> = this._onDidChange.event;
  private readonly storeSub: { dispose(): void };

  constructor(private readonly deps: SignInDeps) {
    this.storeSub = deps.store.onDidChange((server) => void this.recheck(server));
  }

  /**
   * Whether `server` is signed in: `signedIn`, `signedOut` (it asked for sign-in, or the user
   * signed out), `signingIn`, or undefined for a server not known to use sign-in.
   */
  stateOf(server: string): 'signedIn' | 'signedOut' | 'signingIn' | undefined {
    if (this.running.has(server)) return 'signingIn';
    const known = this.known.get(server);
    return known === undefined ? undefined : known ? 'signedIn' : 'signedOut';
  }

  /**
   * Reads whether `server` has tokens at its destination now; fires {@link onDidChange} (its name)
   * when that changed. Credentials of a same-named server elsewhere say nothing about this one.
   */
  async recheck(server: ServerAt): Promise<void> {
    const current = this.providers.get(server.name)?.def;
    if (current && urlDestination(current.url) !== urlDestination(server.url)) return;
    const name = server.name;
    const now = await this.deps.store.isSignedIn(server);
    if (now === false && !this.known.has(name)) return;
    if (this.known.get(name) === now) return;
    this.known.set(name, now);
    this._onDidChange.fire(name);
  }

  /** The OAuth client of a launch that begins: it discovers the authorization server afresh (beginRun). */
  async providerFor(def: RemoteServerDefinition): Promise<ServerOAuthProvider> {
    const provider = await this.provider(def);
    provider.beginRun();
    return provider;
  }

  /** `def`'s OAuth client, kept while its configuration stays the same. */
  private provider(def: RemoteServerDefinition): Promise<ServerOAuthProvider> {
    const key = JSON.stringify([def.url, def.clientId, def.clientMetadataUrl]);
    const known = this.providers.get(def.name);
    if (known?.key === key) return Promise.resolve(known.provider);
    const provider = this.deps.engine().createOAuthProvider(def, {
      server: def.name,
      // The loopback listener opens when the OAuth flow first runs (a 401, a refresh, Sign In),
      // not when a remote server starts: a server with a valid token, or none that asks, never opens it.
      redirect: this.deps.redirect,
      store: this.deps.store,
      addSecret: this.deps.addSecret,
      ...(def.clientId ? { clientId: def.clientId } : {}),
      ...(def.clientMetadataUrl ? { clientMetadataUrl: def.clientMetadataUrl } : {}),
    });
    this.providers.set(def.name, { key, def, provider });
    // Signed in or not is a matter of the destination: a definition that moved reads afresh.
    if (known && this.known.delete(def.name)) this._onDidChange.fire(def.name);
    void this.recheck(def);
    return Promise.resolve(provider);
  }

  async signIn(def: RemoteServerDefinition, signal: AbortSignal): Promise<void> {
    // A second sign-in for the server replaces the first: its dialog closes, its browser tab is forgotten.
    this.running.get(def.name)?.abort(new SignInFailed('replaced by a newer sign-in for this server', true));
    const mine = new AbortController();
    this.running.set(def.name, mine);
    if (!this.known.has(def.name)) this.known.set(def.name, false);
    this._onDidChange.fire(def.name);
    const stop = AbortSignal.any([signal, mine.signal]);
    try {
      await this.run(def, stop);
      this.deps.logFor(def.name).info('signed in');
    } catch (err) {
      // The caller's signal is its connection's: aborted (with no reason of ours) when the server is
      // stopped or restarted, as Sign Out does before it forgets. Said so, not "This operation was aborted".
      const failure =
        err instanceof SignInFailed
          ? err
          : stop.reason instanceof SignInFailed
            ? stop.reason
            : signal.aborted
              ? new SignInFailed('the server was stopped', true)
              : new SignInFailed(reasonOf(err, def));
      this.deps.logFor(def.name).warn(`sign-in ended: ${failure.message}`);
      if (!failure.byUser && !signal.aborted) this.deps.failed(def.name, this.deps.redact(failure.message));
      throw failure;
    } finally {
      if (this.running.get(def.name) === mine) this.running.delete(def.name);
      this._onDidChange.fire(def.name);
    }
  }

  private async run(def: RemoteServerDefinition, stop: AbortSignal): Promise<void> {
    const provider = await this.provider(def);
    let pending = provider.pending;
    if (!pending) {
      // The 401 came without the SDK reaching the authorization step (say, a refresh the server
      // then refused): ask for a new authorization.
      if ((await provider.authorize({ forceReauthorization: true })) === 'AUTHORIZED') return;
      pending = provider.pending;
    }
    provider.pending = undefined;
    if (!pending) throw new SignInFailed('the authorization server gave no address to sign in at');
    const timeoutMs = this.deps.timeoutMs?.() ?? SIGN_IN_TIMEOUT_MS;
    const timer = new AbortController();
    const browser = AbortSignal.any([stop, timer.signal]);
    // Listening before the browser opens, so a quick redirect is not missed.
    const back = this.deps.redirect.expect(pending.state, browser);
    back.catch(() => undefined);
    const answer = await this.deps.consent({ server: def.name, serverUrl: def.url, url: pending.url.href }, stop);
    if (stop.aborted) throw stop.reason instanceof Error ? stop.reason : new SignInFailed('sign-in cancelled', true);
    if (answer !== 'opened') {
      timer.abort();
      throw new SignInFailed(answer === 'declined' ? 'sign-in was declined' : 'sign-in was cancelled', true);
    }
    const clock = setTimeout(() => timer.abort(new SignInFailed(`the browser did not come back within ${spell(timeoutMs)}`)), timeoutMs);
    let params: URLSearchParams;
    try {
      params = await back;
    } finally {
      clearTimeout(clock);
    }
    const error = params.get('error');
    if (error) {
      const description = params.get('error_description');
      throw new SignInFailed(`the authorization server answered "${error}"${description ? `: ${description}` : ''}`);
    }
    const code = params.get('code');
    if (!code) throw new SignInFailed('the browser came back without an authorization code');
    this.deps.addSecret(code);
    await provider.finish(pending, code, params.get('iss') ?? undefined);
    // Called off (Sign Out, which stops the server first) while the code was being redeemed: the
    // exchange cannot be taken back, so the tokens it saved are forgotten here. Kept, they would sign
    // the server in after the user signed it out.
    if (stop.aborted) {
      await this.deps.store.forgetTokens(def);
      throw stop.reason instanceof Error ? stop.reason : new SignInFailed('sign-in cancelled', true);
    }
  }

  endedInAuthFlow(def: RemoteServerDefinition, err: unknown): boolean {
    if (!this.deps.engine().isAuthFlowError(err)) return false;
    this.refused(def, reasonOf(err, def));
    return true;
  }

  refused(def: RemoteServerDefinition, reason: string): void {
    this.deps.logFor(def.name).warn(`sign-in ended: ${reason}`);
    this.deps.failed(def.name, this.deps.redact(reason));
  }

  /**
   * Forgets `server`'s tokens and its pre-registered client's secret, and says so in the server's
   * log (signOut.ts); true when there was either.
   */
  async signOut(server: ServerAt): Promise<boolean> {
    this.running.get(server.name)?.abort(new SignInFailed('signed out', true));
    return forgetSignIn(this.deps.store, this.deps.logFor(server.name), server);
  }

  dispose(): void {
    this.storeSub.dispose();
    this._onDidChange.dispose();
    for (const c of this.running.values()) c.abort(new SignInFailed('the extension is stopping', true));
    this.running.clear();
    this.deps.redirect.dispose();
  }
}

/** The service with its own loopback listener: what lazySignIn.ts builds on first use. */
export function createSignInService(deps: Omit<SignInDeps, 'redirect'>): SignInService {
  return new SignInService({ ...deps, redirect: new LoopbackRedirect() });
}
