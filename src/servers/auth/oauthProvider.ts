/**
 * Our `OAuthClientProvider`: the SDK does the protocol (RFC 9728 and RFC 8414 / OIDC discovery,
 * registration in the spec's order, PKCE S256, resource indicators, scope selection, step-up,
 * refresh, RFC 9207 `iss` checks); this object only keeps what it asks us to keep, in the
 * {@link AuthStore}, and records the authorization URL instead of opening it: the browser step is
 * the sign-in service's, behind the user's consent (signIn.ts). Loaded with the HTTP transports.
 */
import {
  auth,
  type AuthResult,
  type OAuthClientInformationContext,
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type OAuthTokens,
} from '@modelcontextprotocol/client';
import { randomBytes } from 'node:crypto';
import type { AuthStore, ServerAt, StoredTokens } from './authStore';
import { widenRegistrationScope } from './registrationScope';
import type { Fetch } from '../loopbackFetch';

/** How long before expiry a token is refreshed rather than sent (issue 25, item 4). */
export const REFRESH_MARGIN_MS = 60_000;

export interface OAuthProviderOptions {
  /** The configured server's name: with the destination of {@link serverUrl}, what its credentials are remembered under. */
  readonly server: string;
  /** The MCP endpoint: the protected resource. */
  readonly serverUrl: URL;
  /** Where the browser comes back to (loopbackRedirect.ts), opened by the first OAuth flow: see {@link ServerOAuthProvider.ready}. */
  readonly redirect: RedirectAddress;
  /** A pre-registered client's id, from the server's configuration (its secret is in SecretStorage). */
  readonly clientId?: string;
  /** The https URL of a client ID metadata document the user hosts (the SDK uses it where the AS takes one). */
  readonly clientMetadataUrl?: string;
  readonly store: AuthStore;
  /** The fetch OAuth requests go through (guarded: authFetchGuard.ts). */
  readonly fetch: Fetch;
  readonly now?: () => number;
  /** Tokens are secrets: the log redacts every value registered here. */
  readonly addSecret: (value: string) => void;
}

/** The loopback redirect as the provider sees it: opened on demand, then read synchronously by the SDK. */
export interface RedirectAddress {
  /** Opens the listener if it is not yet open; resolves with its URI. */
  url(): Promise<string>;
  /** The URI once open. */
  current(): string | undefined;
}

/**
 * An authorization request the SDK built and that waits for the user: where to go, its `state`,
 * and the PKCE verifier and discovery made for it. These travel with the request because another
 * 401 meanwhile (a second request, a probe) makes the SDK start a new authorization, whose
 * verifier and discovery would otherwise replace those the user's code was issued under.
 */
export interface PendingAuthorization {
  readonly url: URL;
  readonly state: string;
  readonly verifier: string | undefined;
  readonly discovery: OAuthDiscoveryState | undefined;
  /**
   * The registered client the URL names (its `client_id`). Two SDK flows at once (a request's 401
   * and the event stream's) may each register a client; the store keeps the last, and a code
   * issued to the first one's id, redeemed as the other, is `invalid_grant`.
   */
  readonly client?: OAuthClientInformationMixed | undefined;
}

export class ServerOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  /** The clients registered lately, newest first: the one an authorization URL names is among them. */
  private recentClients: OAuthClientInformationMixed[] = [];
  /** What the SDK's latest discovery found: which issuer a stored client belongs to. */
  private discovery: OAuthDiscoveryState | undefined;
  /** The authorization whose code is being redeemed ({@link finish}): its verifier and discovery. */
  private redeeming: PendingAuthorization | undefined;
  private resource: string | undefined;
  private lastState: string | undefined;
  private refreshing: Promise<void> | undefined;
  /** Set when the SDK wants the user to authorize; taken by the sign-in service. */
  pending: PendingAuthorization | undefined;

  /** Read by the SDK: with it, an authorization server that takes metadata documents needs no registration. */
  readonly clientMetadataUrl?: string;
  /** The fetch of the OAuth flows this object runs itself ({@link authorize}, {@link finish}). */
  private readonly fetch: Fetch;
  /** The server at its destination: a same-named server elsewhere has other credentials (issue 41). */
  private readonly at: ServerAt;

  constructor(private readonly o: OAuthProviderOptions) {
    if (o.clientMetadataUrl !== undefined) this.clientMetadataUrl = o.clientMetadataUrl;
    this.at = { name: o.server, url: o.serverUrl.href };
    this.fetch = this.wrapFetch(o.fetch);
  }

  /**
   * `next` as the SDK's OAuth requests for this server must go, wherever the flow runs (here, or in
   * the transport on a 401 or 403): a dynamic registration names every scope the resource
   * advertises, so a later step-up is not refused (registrationScope.ts).
   */
  wrapFetch(next: Fetch): Fetch {
    return widenRegistrationScope(next, () => ({
      endpoint: this.discovery?.authorizationServerMetadata?.registration_endpoint,
      scopes: this.discovery?.resourceMetadata?.scopes_supported ?? [],
    }));
  }

  /**
   * Opens the loopback listener. Every run of the SDK's OAuth flow awaits this first: ours
   * ({@link authorize}, {@link finish}) and the transport's on a 401 or 403 (httpTransports.ts
   * awaits it before the SDK sees the response), because the SDK reads {@link redirectUrl} and
   * {@link clientMetadata} synchronously.
   */
  async ready(): Promise<void> {
    await this.o.redirect.url();
  }

  get redirectUrl(): string {
    const url = this.o.redirect.current();
    // Never undefined: the SDK would take a missing redirect for a non-interactive client.
    if (url === undefined) throw new Error('the sign-in redirect is not listening yet');
    return url;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP Elicitation Host',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // RFC 8252: a loopback redirect makes this a native client (the SDK infers the same).
      application_type: 'native',
    };
  }

  state(): string {
    this.lastState = randomBytes(24).toString('base64url');
    return this.lastState;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<OAuthClientInformationMixed | undefined> {
    if (this.o.clientId) {
      // Only to an authorization server the SDK names: the secret is pinned to the first one (authStore.ts).
      const secret = ctx ? await this.o.store.clientSecret(this.at, ctx.issuer) : undefined;
      if (secret) this.o.addSecret(secret);
      // Stamped with the issuer asking: the id is configuration for whichever server this one trusts (SEP-2352).
      return { client_id: this.o.clientId, ...(secret ? { client_secret: secret } : {}), ...(ctx ? { issuer: ctx.issuer } : {}) };
    }
    // A code is redeemed as the client it was issued to, whichever registration was stored last.
    if (this.redeeming?.client) return this.redeeming.client;
    const issuer = ctx?.issuer ?? this.discovery?.authorizationServerMetadata?.issuer;
    return issuer ? this.o.store.client(issuer, this.redirectUrl) : undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed, ctx?: OAuthClientInformationContext): Promise<void> {
    // A pre-registered client is configuration, not something to store.
    if (this.o.clientId || !ctx) return;
    if ('client_secret' in info && typeof info.client_secret === 'string') this.o.addSecret(info.client_secret);
    await this.o.store.saveClient(ctx.issuer, this.redirectUrl, info);
    this.recentClients = [info, ...this.recentClients].slice(0, 8);
  }

  /**
   * Without `ctx` (the transport's read before each request, sent as `Authorization`): this
   * server's current tokens at its destination, refreshed first when they expire within
   * {@link REFRESH_MARGIN_MS}; none for a same-named server elsewhere (authStore.ts). With `ctx`:
   * the tokens for that issuer and this resource, so a changed authorization server reads none.
   */
  async tokens(ctx?: OAuthClientInformationContext): Promise<StoredTokens | undefined> {
    const binding = ctx ? this.bindingFor(ctx.issuer) : await this.o.store.binding(this.at);
    if (!binding) return undefined;
    let tokens = await this.o.store.tokens(binding);
    if (!ctx && tokens?.refresh_token && tokens.expiresAt !== undefined && tokens.expiresAt - this.now() < REFRESH_MARGIN_MS) {
      await this.refresh();
      tokens = await this.o.store.tokens(binding);
    }
    if (tokens) this.remember(tokens);
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens & { issuer?: string }, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? tokens.issuer;
    if (!issuer) return;
    this.remember(tokens);
    await this.o.store.saveTokens(this.at, this.bindingFor(issuer), tokens);
  }

  redirectToAuthorization(url: URL): void {
    // Not opened here: the user is asked first (signIn.ts). The SDK put our state() in the URL.
    // The SDK saved this request's verifier just before (saveCodeVerifier).
    this.pending = {
      url,
      state: url.searchParams.get('state') ?? this.lastState ?? '',
      verifier: this.verifier,
      discovery: this.discovery,
      client: this.recentClients.find((c) => c.client_id === url.searchParams.get('client_id')),
    };
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    // While a code is redeemed, its own request's: another 401 meanwhile saves a new verifier.
    const verifier = this.redeeming?.verifier ?? this.verifier;
    if (!verifier) throw new Error('no sign-in is in progress for this server');
    return verifier;
  }

  /**
   * A launch begins. The SDK keeps the discovered authorization server for as long as the provider
   * lives and never looks again, so one that changed between runs would get the old tokens and
   * client (a gap, issue 25): each launch discovers afresh at its first 401. A launch whose token
   * still works makes no discovery request at all.
   */
  beginRun(): void {
    this.discovery = undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  /**
   * Only while a code is redeemed, where the SDK checks that the issuer is the one the request
   * went to. Every other flow discovers afresh: the SDK would otherwise reuse a cached discovery
   * after the server refused a token, and never learn that the server moved to another
   * authorization server (SEP-2352), where it must register again. That costs a refresh two
   * metadata requests.
   */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.redeeming?.discovery;
  }

  saveResourceUrl(url: string): void {
    this.resource = url;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') await this.o.store.forgetTokens(this.at);
    if ((scope === 'all' || scope === 'client') && !this.o.clientId) {
      const issuer = this.discovery?.authorizationServerMetadata?.issuer;
      if (issuer) await this.o.store.forgetClient(issuer, this.redirectUrl);
    }
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  /** Runs the SDK's flow: refresh, or (no usable token) registration and a new {@link pending} request. */
  async authorize(options: { scope?: string; resourceMetadataUrl?: URL; forceReauthorization?: boolean } = {}): Promise<AuthResult> {
    this.pending = undefined;
    await this.ready();
    return auth(this, { serverUrl: this.o.serverUrl, fetchFn: this.fetch, ...options });
  }

  /**
   * Redeems the code the browser brought back for `request`, with that request's PKCE verifier;
   * the SDK checks `iss` (RFC 9207) and the issuer binding.
   */
  async finish(request: PendingAuthorization, code: string, iss: string | undefined): Promise<void> {
    await this.ready();
    this.redeeming = request;
    let result: AuthResult;
    try {
      result = await auth(this, {
        serverUrl: this.o.serverUrl,
        fetchFn: this.fetch,
        authorizationCode: code,
        ...(iss !== undefined ? { iss } : {}),
      });
    } finally {
      this.redeeming = undefined;
    }
    this.verifier = undefined;
    this.pending = undefined;
    if (result !== 'AUTHORIZED') throw new Error('the authorization server did not issue a token');
    // The tokens belong to that client: it is the one to refresh them as, not a later registration.
    const issuer = request.discovery?.authorizationServerMetadata?.issuer;
    if (request.client && issuer && !this.o.clientId) await this.o.store.saveClient(issuer, this.redirectUrl, request.client);
  }

  /** One refresh at a time; a failed refresh leaves the old token, and the server's 401 starts sign-in. */
  private refresh(): Promise<void> {
    this.refreshing ??= this.authorize()
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private bindingFor(issuer: string): { issuer: string; resource: string } {
    return { issuer, resource: this.resource ?? this.o.serverUrl.href };
  }

  private remember(tokens: OAuthTokens): void {
    this.o.addSecret(tokens.access_token);
    if (tokens.refresh_token) this.o.addSecret(tokens.refresh_token);
    if (tokens.id_token) this.o.addSecret(tokens.id_token);
  }

  private now(): number {
    return (this.o.now ?? Date.now)();
  }
}
