/**
 * The sign-in service as activation builds it (servers/auth/lazySignIn.ts): nothing of sign-in is
 * loaded until a remote server needs it, and what the real service says reaches the view after.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RemoteServerDefinition } from '../../src/config/parse/definitions';
import { AuthStore } from '../../src/servers/auth/authStore';
import { LazySignIn } from '../../src/servers/auth/lazySignIn';
import * as signInModule from '../../src/servers/auth/signIn';
import * as engine from '../../src/servers/httpTransports';
import { MapSecrets } from './support/signInHarness';

const def: RemoteServerDefinition = {
  name: 'remote',
  type: 'http',
  url: 'http://127.0.0.1:9/mcp',
  headers: {},
  source: { kind: 'setting', scope: 'user' },
};

function lazy(store: AuthStore) {
  let loads = 0;
  const signIn = new LazySignIn(
    {
      store,
      engine: () => engine,
      consent: () => Promise.resolve('declined'),
      failed: () => undefined,
      logFor: () => ({ info: () => undefined, warn: () => undefined }),
      addSecret: () => undefined,
      redact: (text) => text,
    },
    () => {
      loads++;
      return signInModule;
    },
  );
  return { signIn, loads: () => loads };
}

void describe('LazySignIn', () => {
  void it('loads nothing until a remote server asks for its OAuth client, then loads once', async () => {
    const store = new AuthStore(new MapSecrets());
    const { signIn, loads } = lazy(store);
    assert.equal(signIn.stateOf('remote'), undefined);
    assert.equal(await signIn.signOut(def), false, 'Sign Out with nothing stored needs no service');
    assert.equal(loads(), 0);
    const provider = await signIn.providerFor(def);
    assert.equal(await signIn.providerFor(def), provider, 'one OAuth client per server');
    assert.equal(loads(), 1);
    signIn.dispose();
    store.dispose();
  });

  void it('tokens stored by another window load the service, which reports the server signed in', async () => {
    const store = new AuthStore(new MapSecrets());
    const { signIn, loads } = lazy(store);
    const next = (): Promise<string> =>
      new Promise((resolve) => {
        const sub = signIn.onDidChange((server) => {
          sub.dispose();
          resolve(server);
        });
      });
    let changed = next();
    await store.saveTokens(def, { issuer: 'http://as', resource: def.url }, { access_token: 'a', token_type: 'Bearer' });
    assert.equal(await changed, 'remote');
    assert.equal(loads(), 1);
    assert.equal(signIn.stateOf('remote'), 'signedIn');
    changed = next();
    assert.equal(await signIn.signOut(def), true);
    assert.equal(await changed, 'remote');
    assert.equal(signIn.stateOf('remote'), 'signedOut');
    signIn.dispose();
    store.dispose();
  });
});
