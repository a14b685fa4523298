/**
 * Where sign-in credentials live: SecretStorage only (issue 25, item 4), behind the three methods
 * VS Code's `SecretStorage` has, so this runs in plain Node over a Map in tests. Tokens are keyed
 * by the authorization server's issuer and the resource they are for; each server remembers which
 * pair it uses, so Sign Out and the Servers view can find them. Nothing here is ever logged.
 *
 * Credentials follow the destination (issue 41): a server's binding and its pre-registered
 * client's secret are kept under its name and its destination (the origin and path of its URL),
 * and a binding is used only while the resource it records covers the server's URL (RFC 8707,
 * RFC 9728). A definition of the same name at another URL finds nothing, sends no token, and
 * signs in anew. Entries of the old form, under the name alone, migrate once (see {@link AuthStore.binding}).
 */
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import { urlDestination } from '../../config/parse/serverFingerprint';
import { Emitter, type Event } from '../../util/emitter';

/** The part of `vscode.SecretStorage` this needs. */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/** Tokens as stored: what the token endpoint returned, when it expires, and whom they are bound to. */
export interface StoredTokens extends OAuthTokens {
  /** The issuer that minted them (the SDK's stamp, SEP-2352). */
  readonly issuer?: string;
  /** When the access token expires, ms since the epoch; absent when the server did not say. */
  readonly expiresAt?: number;
}

/** Which credentials a server uses: the issuer of its authorization server, and the resource. */
export interface Binding {
  readonly issuer: string;
  readonly resource: string;
}

/** A configured remote server as its credentials know it: its name and where it is (a `RemoteServerDefinition` is one). */
export interface ServerAt {
  readonly name: string;
  readonly url: string;
}

/** A pre-registered client's secret, and the authorization server it went to first (it goes to no other). */
interface StoredClientSecret {
  readonly secret: string;
  readonly issuer?: string;
}

const PREFIX = 'mcpElicitation.oauth';

function parse<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

function isBinding(v: unknown): v is Binding {
  return typeof v === 'object' && v !== null && typeof (v as Binding).issuer === 'string' && typeof (v as Binding).resource === 'string';
}

/**
 * Whether a token issued for `resource` may be sent to `url`: same origin, and the resource's path
 * a prefix of the URL's, segment by segment (the rule the SDK applies to protected resource
 * metadata, `checkResourceAllowed`; kept here so activation does not load the SDK).
 */
export function resourceCovers(resource: string, url: string): boolean {
  if (!URL.canParse(resource) || !URL.canParse(url)) return false;
  const r = new URL(resource);
  const u = new URL(url);
  if (r.origin !== u.origin || r.origin === 'null') return false;
  const slash = (p: string): string => (p.endsWith('/') ? p : `${p}/`);
  return slash(u.pathname).startsWith(slash(r.pathname));
}

const bindingKey = (s: ServerAt): string => `${PREFIX}/binding/${s.name} ${urlDestination(s.url)}`;
const secretKey = (s: ServerAt): string => `${PREFIX}/clientSecret2/${s.name} ${urlDestination(s.url)}`;
/** The old keys, of the name alone: read only to migrate (issue 41). */
const legacyBindingKey = (s: ServerAt): string => `${PREFIX}/server/${s.name}`;
const legacySecretKey = (s: ServerAt): string => `${PREFIX}/clientSecret/${s.name}`;

export class AuthStore {
  private readonly _onDidChange = new Emitter<ServerAt>();
  /** A server's sign-in state may have changed (the server at its destination). */
  readonly onDidChange: Event<ServerAt> = this._onDidChange.event;

  constructor(
    private readonly secrets: SecretStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The binding `server` signed in with at its destination, while its resource covers the
   * server's URL. An old entry, under the name alone, records the resource it was made for: it
   * migrates once (moved under name and destination, with the client secret of that name pinned
   * to its issuer) when that resource covers this URL, and is left alone otherwise, for the
   * definition it was made for. A same-named server elsewhere gets nothing from it.
   */
  async binding(server: ServerAt): Promise<Binding | undefined> {
    const stored = parse<unknown>(await this.secrets.get(bindingKey(server)));
    if (stored !== undefined) return isBinding(stored) && resourceCovers(stored.resource, server.url) ? stored : undefined;
    return this.migrate(server);
  }

  private async migrate(server: ServerAt): Promise<Binding | undefined> {
    const legacy = parse<unknown>(await this.secrets.get(legacyBindingKey(server)));
    if (!isBinding(legacy) || !resourceCovers(legacy.resource, server.url)) return undefined;
    const binding: Binding = { issuer: legacy.issuer, resource: legacy.resource };
    await this.secrets.store(bindingKey(server), JSON.stringify(binding));
    // The old secret records nothing of where it was used; the binding it signed in with does.
    const secret = await this.secrets.get(legacySecretKey(server));
    if (secret !== undefined && (await this.secrets.get(secretKey(server))) === undefined) {
      await this.secrets.store(secretKey(server), JSON.stringify({ secret, issuer: binding.issuer } satisfies StoredClientSecret));
    }
    await this.secrets.delete(legacySecretKey(server));
    await this.secrets.delete(legacyBindingKey(server));
    return binding;
  }

  async tokens(binding: Binding): Promise<StoredTokens | undefined> {
    return parse<StoredTokens>(await this.secrets.get(`${PREFIX}/tokens/${binding.issuer} ${binding.resource}`));
  }

  /** The tokens `server` signed in with last at its destination, if any. */
  async tokensOf(server: ServerAt): Promise<StoredTokens | undefined> {
    const binding = await this.binding(server);
    return binding ? this.tokens(binding) : undefined;
  }

  /** Stores tokens for `binding` and makes it `server`'s; `expires_in` becomes an absolute time. */
  async saveTokens(server: ServerAt, binding: Binding, tokens: OAuthTokens & { issuer?: string }): Promise<StoredTokens> {
    const stored: StoredTokens = {
      ...tokens,
      ...(tokens.expires_in !== undefined ? { expiresAt: this.now() + tokens.expires_in * 1000 } : {}),
    };
    await this.secrets.store(`${PREFIX}/tokens/${binding.issuer} ${binding.resource}`, JSON.stringify(stored));
    await this.secrets.store(bindingKey(server), JSON.stringify(binding));
    this._onDidChange.fire(server);
    return stored;
  }

  /** A client registered with `issuer` for `redirectUrl` (a new port means a new registration). */
  async client(issuer: string, redirectUrl: string): Promise<OAuthClientInformationMixed | undefined> {
    return parse(await this.secrets.get(`${PREFIX}/client/${issuer} ${redirectUrl}`));
  }

  async saveClient(issuer: string, redirectUrl: string, info: OAuthClientInformationMixed): Promise<void> {
    await this.secrets.store(`${PREFIX}/client/${issuer} ${redirectUrl}`, JSON.stringify(info));
  }

  async forgetClient(issuer: string, redirectUrl: string): Promise<void> {
    await this.secrets.delete(`${PREFIX}/client/${issuer} ${redirectUrl}`);
  }

  /**
   * The secret of `server`'s pre-registered client (its id is in the configuration), set for its
   * destination. With `issuer` (the authorization server about to receive it): the secret goes to
   * the first authorization server that asks and to no other after, so a destination that changes
   * its authorization server needs the secret set again. Without: whether one is set.
   */
  async clientSecret(server: ServerAt, issuer?: string): Promise<string | undefined> {
    let stored = parse<StoredClientSecret>(await this.secrets.get(secretKey(server)));
    if (stored === undefined) {
      await this.binding(server);
      stored = parse<StoredClientSecret>(await this.secrets.get(secretKey(server)));
    }
    if (typeof stored?.secret !== 'string') return undefined;
    if (issuer === undefined) return stored.secret;
    if (stored.issuer === undefined) {
      await this.secrets.store(secretKey(server), JSON.stringify({ secret: stored.secret, issuer } satisfies StoredClientSecret));
      return stored.secret;
    }
    return stored.issuer === issuer ? stored.secret : undefined;
  }

  async setClientSecret(server: ServerAt, secret: string | undefined): Promise<void> {
    // An old secret of the name must not come back through a later migration.
    await this.secrets.delete(legacySecretKey(server));
    if (secret === undefined) await this.secrets.delete(secretKey(server));
    else await this.secrets.store(secretKey(server), JSON.stringify({ secret } satisfies StoredClientSecret));
  }

  /** Forgets `server`'s tokens at its destination (Sign Out, or tokens the server no longer takes). */
  async forgetTokens(server: ServerAt): Promise<boolean> {
    const binding = await this.binding(server);
    // A binding whose resource no longer covers the URL is forgotten too, but was never in use.
    const stale = binding === undefined && (await this.secrets.get(bindingKey(server))) !== undefined;
    if (stale) await this.secrets.delete(bindingKey(server));
    if (!binding) return false;
    await this.secrets.delete(`${PREFIX}/tokens/${binding.issuer} ${binding.resource}`);
    await this.secrets.delete(bindingKey(server));
    this._onDidChange.fire(server);
    return true;
  }

  /** Sign Out: forgets `server`'s tokens and its pre-registered client's secret; true when there was either. */
  async forgetServer(server: ServerAt): Promise<boolean> {
    const hadSecret = (await this.clientSecret(server)) !== undefined;
    if (hadSecret) await this.setClientSecret(server, undefined);
    return (await this.forgetTokens(server)) || hadSecret;
  }

  /** Whether `server` has tokens at its destination: signed in, as far as this window knows. */
  async isSignedIn(server: ServerAt): Promise<boolean> {
    return (await this.tokensOf(server)) !== undefined;
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
