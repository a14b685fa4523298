/**
 * SecretStorage with its reads remembered. The Streamable HTTP transport asks its OAuth client for
 * the token before every request, and that reads our stored binding (and tokens) for the server:
 * one `SecretStorage.get` each, a round trip from the extension host to the window's secret store.
 * On the agent gateway's path to a local HTTP server that was the largest single cost of a call
 * (about 4 to 5 ms of 13 at a load of 11, most of it for a server that never signed in and has no
 * binding to find; docs/performance.md).
 *
 * A value read, stored or deleted here is answered from memory until SecretStorage says the key
 * changed (`onDidChange`: another window stored or deleted it, or this one did), so a token written
 * elsewhere is read afresh, as before. A read that started before a change to its key is not kept:
 * it may hold the value from before the change.
 *
 * Only this extension's own secrets pass through here, and they are the tokens and client
 * secrets its requests carry anyway; they stay in memory for as long as the window, like the
 * OAuth client that holds the current token.
 */
import type { SecretStore } from './authStore';

/** The part of `vscode.SecretStorage` this needs. */
export interface ObservableSecretStore extends SecretStore {
  onDidChange(listener: (e: { readonly key: string }) => unknown): { dispose(): void };
}

export class SecretCache implements SecretStore {
  /** Settled values: a key mapped to undefined is known to hold nothing. */
  private readonly known = new Map<string, string | undefined>();
  /** Reads in flight, shared by everyone who asks meanwhile. */
  private readonly reading = new Map<string, Promise<string | undefined>>();
  /** Bumped on every change to a key, so a read that straddles one is not kept. */
  private readonly generation = new Map<string, number>();
  private readonly sub: { dispose(): void };

  constructor(private readonly inner: ObservableSecretStore) {
    this.sub = inner.onDidChange((e) => this.forget(e.key));
  }

  get(key: string): Promise<string | undefined> {
    if (this.known.has(key)) return Promise.resolve(this.known.get(key));
    const inFlight = this.reading.get(key);
    if (inFlight) return inFlight;
    const gen = this.generation.get(key) ?? 0;
    const read = Promise.resolve(this.inner.get(key)).then(
      (value) => {
        if (this.reading.get(key) === read) this.reading.delete(key);
        if ((this.generation.get(key) ?? 0) === gen) this.known.set(key, value);
        return value;
      },
      (err: unknown) => {
        if (this.reading.get(key) === read) this.reading.delete(key);
        throw err;
      },
    );
    this.reading.set(key, read);
    return read;
  }

  async store(key: string, value: string): Promise<void> {
    await this.changing(key, () => this.inner.store(key, value));
  }

  async delete(key: string): Promise<void> {
    await this.changing(key, () => this.inner.delete(key));
  }

  /**
   * A write of ours: forgotten before (nothing reads the old value from memory) and after (a read
   * that reached SecretStorage during the write may have brought the old value back), so the
   * next read asks SecretStorage whether or not its change event has arrived yet.
   */
  private async changing(key: string, write: () => PromiseLike<void>): Promise<void> {
    this.forget(key);
    try {
      await write();
    } finally {
      this.forget(key);
    }
  }

  private forget(key: string): void {
    this.known.delete(key);
    this.reading.delete(key);
    this.generation.set(key, (this.generation.get(key) ?? 0) + 1);
  }

  dispose(): void {
    this.sub.dispose();
    this.known.clear();
    this.reading.clear();
  }
}
