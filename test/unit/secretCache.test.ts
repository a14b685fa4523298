/**
 * SecretStorage with its reads remembered (servers/auth/secretCache.ts): a token written in
 * another window, or by this one, is what the next request reads; only unchanged keys are
 * answered from memory.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SecretCache, type ObservableSecretStore } from '../../src/servers/auth/secretCache';
import { AuthStore } from '../../src/servers/auth/authStore';
import { Emitter } from '../../src/util/emitter';

/** SecretStorage as VS Code's behaves: shared by every window, with a change event for each write. */
class Storage implements ObservableSecretStore {
  readonly map = new Map<string, string>();
  gets = 0;
  /** When set, reads wait for it: a read in flight while something else happens. */
  gate: Promise<void> | undefined;
  private readonly changed = new Emitter<{ key: string }>();
  readonly onDidChange = this.changed.event;

  async get(key: string): Promise<string | undefined> {
    this.gets++;
    const value = this.map.get(key);
    await this.gate;
    return value;
  }
  store(key: string, value: string): Promise<void> {
    this.map.set(key, value);
    this.changed.fire({ key });
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.map.delete(key);
    this.changed.fire({ key });
    return Promise.resolve();
  }
  /** Another window writes: the same storage, this window hears only the event. */
  storeElsewhere(key: string, value: string): void {
    this.map.set(key, value);
    this.changed.fire({ key });
  }
}

describe('SecretCache', () => {
  it('asks SecretStorage once per key, for a value and for nothing alike', async () => {
    const storage = new Storage();
    storage.map.set('a', '1');
    const cache = new SecretCache(storage);
    assert.equal(await cache.get('a'), '1');
    assert.equal(await cache.get('a'), '1');
    assert.equal(await cache.get('none'), undefined);
    assert.equal(await cache.get('none'), undefined);
    assert.equal(storage.gets, 2);
  });

  it('shares one read among callers who ask while it is in flight', async () => {
    const storage = new Storage();
    storage.map.set('a', '1');
    const cache = new SecretCache(storage);
    assert.deepEqual(await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')]), ['1', '1', '1']);
    assert.equal(storage.gets, 1);
  });

  it('reads a value another window stored, once SecretStorage reports the change', async () => {
    const storage = new Storage();
    const cache = new SecretCache(storage);
    assert.equal(await cache.get('token'), undefined);
    storage.storeElsewhere('token', 'fresh');
    assert.equal(await cache.get('token'), 'fresh');
  });

  it('reads what this window stored or deleted, even before the change event', async () => {
    const storage = new Storage();
    const cache = new SecretCache({
      get: (k) => storage.get(k),
      // A SecretStorage whose events are late: this window's own writes must not wait for them.
      store: (k, v) => {
        storage.map.set(k, v);
        return Promise.resolve();
      },
      delete: (k) => {
        storage.map.delete(k);
        return Promise.resolve();
      },
      onDidChange: () => ({ dispose: () => undefined }),
    });
    assert.equal(await cache.get('k'), undefined);
    await cache.store('k', 'v1');
    assert.equal(await cache.get('k'), 'v1');
    await cache.delete('k');
    assert.equal(await cache.get('k'), undefined);
  });

  it('does not keep a read that was in flight when its key changed', async () => {
    const storage = new Storage();
    storage.map.set('k', 'old');
    const cache = new SecretCache(storage);
    let open!: () => void;
    storage.gate = new Promise((r) => (open = r));
    const early = cache.get('k');
    storage.storeElsewhere('k', 'new');
    open();
    storage.gate = undefined;
    assert.equal(await early, 'old');
    assert.equal(await cache.get('k'), 'new');
  });

  it('does not remember a failed read', async () => {
    let fail = true;
    const storage = new Storage();
    storage.map.set('k', 'v');
    const cache = new SecretCache({
      get: (k) => (fail ? Promise.reject(new Error('keychain locked')) : storage.get(k)),
      store: (k, v) => storage.store(k, v),
      delete: (k) => storage.delete(k),
      onDidChange: storage.onDidChange,
    });
    await assert.rejects(cache.get('k'), /keychain locked/);
    fail = false;
    assert.equal(await cache.get('k'), 'v');
  });

  it('lets AuthStore see sign-in and sign-out as before', async () => {
    const storage = new Storage();
    const store = new AuthStore(new SecretCache(storage));
    const s = { name: 's', url: 'http://127.0.0.1/mcp' };
    assert.equal(await store.isSignedIn(s), false);
    await store.saveTokens(
      s,
      { issuer: 'https://as.example', resource: 'http://127.0.0.1/mcp' },
      { access_token: 'A', token_type: 'Bearer' },
    );
    assert.equal((await store.tokensOf(s))?.access_token, 'A');
    assert.equal(await store.forgetTokens(s), true);
    assert.equal(await store.isSignedIn(s), false);
  });
});
