/**
 * The sign-in service as activation builds it: a stand-in that loads the real one (signIn.ts, with
 * its loopback listener, built into `dist/signIn.js` by scripts/build.mjs) on first use. That is
 * when the first remote server starts (the connection asks for its OAuth client), when sign-in is
 * asked for, or when stored credentials change; a window with stdio servers only never reads it.
 * Until then no server is known to use sign-in, which is what the real service would say too.
 */
import type { RemoteServerDefinition } from '../../config/parse/definitions';
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { SignInPort } from '../connection';
import type * as SignInModule from './signIn';
import type { AuthStore, ServerAt } from './authStore';
import { Emitter, type Event } from '../../util/emitter';
import { forgetSignIn } from './signOut';

export type LazySignInDeps = Omit<SignInModule.SignInDeps, 'redirect'>;

export class LazySignIn implements SignInPort {
  private real: SignInModule.SignInService | undefined;
  private readonly _onDidChange = new Emitter<string>();
  /** A server's sign-in state changed (its name). */
  readonly onDidChange: Event<string> = this._onDidChange.event;
  private readonly storeSub: { dispose(): void };

  constructor(
    private readonly deps: LazySignInDeps & { readonly store: AuthStore },
    /** Loads signIn.ts; tests pass the module itself. */
    private readonly load: () => typeof SignInModule = () =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; see scripts/build.mjs
      require('./signIn') as typeof SignInModule,
  ) {
    // Tokens stored or forgotten (another window, Sign Out): the real service hears the next
    // changes itself; this one it is told about once it exists.
    this.storeSub = deps.store.onDidChange((server) => {
      if (!this.real) void this.service().recheck(server);
    });
  }

  private service(): SignInModule.SignInService {
    if (!this.real) {
      this.real = this.load().createSignInService(this.deps);
      this.real.onDidChange((server) => this._onDidChange.fire(server));
    }
    return this.real;
  }

  /** See SignInService.stateOf: undefined for every server until the service is loaded. */
  stateOf(server: string): 'signedIn' | 'signedOut' | 'signingIn' | undefined {
    return this.real?.stateOf(server);
  }

  providerFor(def: RemoteServerDefinition): Promise<OAuthClientProvider> {
    return this.service().providerFor(def);
  }

  signIn(def: RemoteServerDefinition, signal: AbortSignal): Promise<void> {
    return this.service().signIn(def, signal);
  }

  refused(def: RemoteServerDefinition, reason: string): void {
    this.service().refused(def, reason);
  }

  endedInAuthFlow(def: RemoteServerDefinition, err: unknown): boolean {
    return this.service().endedInAuthFlow(def, err);
  }

  /**
   * Forgets `server`'s tokens and its client secret at its destination; true when there was either. Before the
   * service is loaded (tokens from an earlier window, nothing remote started yet) it forgets here,
   * with the same line in the server's log the service writes.
   */
  async signOut(server: ServerAt): Promise<boolean> {
    return this.real ? this.real.signOut(server) : forgetSignIn(this.deps.store, this.deps.logFor(server.name), server);
  }

  dispose(): void {
    this.storeSub.dispose();
    this.real?.dispose();
    this._onDidChange.dispose();
  }
}
