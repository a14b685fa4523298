/**
 * Where sign-in credentials live: SecretStorage only (issue 25, item 4), behind the three methods
 * VS Code's `SecretStorage` has, so this runs in plain Node over a Map in tests. Tokens are keyed
 * by the authorization server's issuer and the resource they are for; each server remembers which
 * pair it uses, so Sign Out and the Servers view can find them. Nothing here is ever logged.
 */
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
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

const PREFIX = 'mcpElicitation.oauth';

function parse<T>(text: string | undefined): T | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export class AuthStore {
  private readonly _onDidChange = new Emitter<string>();
  /** A server's sign-in state may have changed (its name). */
  readonly onDidChange: Event<string> = this._onDidChange.event;

  constructor(
    private readonly secrets: SecretStore,
    private readonly now: () => number = Date.now,
  ) {}

  async binding(server: string): Promise<Binding | undefined> {
    return parse<Binding>(await this.secrets.get(`${PREFIX}/server/${server}`));
  }

  async tokens(binding: Binding): Promise<StoredTokens | undefined> {
    return parse<StoredTokens>(await this.secrets.get(`${PREFIX}/tokens/${binding.issuer} ${binding.resource}`));
  }

  /** The tokens `server` signed in with last, if any. */
  async tokensOf(server: string): Promise<StoredTokens | undefined> {
    const binding = await this.binding(server);
    return binding ? this.tokens(binding) : undefined;
  }

  /** Stores tokens for `binding` and makes it `server`'s; `expires_in` becomes an absolute time. */
  async saveTokens(server: string, binding: Binding, tokens: OAuthTokens & { issuer?: string }): Promise<StoredTokens> {
    const stored: StoredTokens = {
      ...tokens,
      ...(tokens.expires_in !== undefined ? { expiresAt: this.now() + tokens.expires_in * 1000 } : {}),
    };
    await this.secrets.store(`${PREFIX}/tokens/${binding.issuer} ${binding.resource}`, JSON.stringify(stored));
    await this.secrets.store(`${PREFIX}/server/${server}`, JSON.stringify(binding));
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

  /** The secret of a pre-registered client (its id is in the server's configuration). */
  async clientSecret(server: string): Promise<string | undefined> {
    return this.secrets.get(`${PREFIX}/clientSecret/${server}`);
  }

  async setClientSecret(server: string, secret: string | undefined): Promise<void> {
    if (secret === undefined) await this.secrets.delete(`${PREFIX}/clientSecret/${server}`);
    else await this.secrets.store(`${PREFIX}/clientSecret/${server}`, secret);
  }

  /** Forgets `server`'s tokens (Sign Out, or tokens the server no longer takes). */
  async forgetTokens(server: string): Promise<boolean> {
    const binding = await this.binding(server);
    if (!binding) return false;
    await this.secrets.delete(`${PREFIX}/tokens/${binding.issuer} ${binding.resource}`);
    await this.secrets.delete(`${PREFIX}/server/${server}`);
    this._onDidChange.fire(server);
    return true;
  }

  /** Sign Out: forgets `server`'s tokens and its pre-registered client's secret; true when there was either. */
  async forgetServer(server: string): Promise<boolean> {
    const hadSecret = (await this.clientSecret(server)) !== undefined;
    if (hadSecret) await this.setClientSecret(server, undefined);
    return (await this.forgetTokens(server)) || hadSecret;
  }

  /** Whether `server` has tokens: signed in, as far as this window knows. */
  async isSignedIn(server: string): Promise<boolean> {
    return (await this.tokensOf(server)) !== undefined;
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
