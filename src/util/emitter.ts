/**
 * The one event shape of the codebase, for the pure core and the VS Code side alike: `event(listener)`
 * returns a disposable, as `vscode.Event` does, so callers never adapt an unsubscribe function. It
 * also takes `vscode.Event`'s optional `thisArgs` and `disposables`, so an `Event` can be handed
 * to VS Code (a definition provider's change event) or to other extensions (the public API) as is.
 * Unlike a bare listener array, one throwing listener does not starve the rest: every listener
 * runs, and the first error is reported through `onListenerError` (or rethrown on a microtask, so
 * it surfaces as an unhandled error instead of vanishing).
 */
export interface EventDisposable {
  dispose(): void;
}

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: EventDisposable[]) => EventDisposable;

export class Emitter<T> {
  private listeners: ((e: T) => unknown)[] = [];
  private disposed = false;

  constructor(
    private readonly onListenerError: (err: unknown) => void = (err) =>
      queueMicrotask(() => {
        throw err;
      }),
  ) {}

  /** Subscribes; the returned disposable unsubscribes (idempotent). After dispose, subscribing is a no-op. */
  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    if (this.disposed) return { dispose: () => undefined };
    // A wrapper per subscription, so the same function subscribed twice is two subscriptions.
    const entry = (e: T): unknown => listener.call(thisArgs, e);
    // A new array, never a mutation: a fire in progress keeps iterating its own snapshot.
    this.listeners = [...this.listeners, entry];
    const subscription = {
      dispose: () => {
        this.listeners = this.listeners.filter((l) => l !== entry);
      },
    };
    disposables?.push(subscription);
    return subscription;
  };

  /** Runs every listener subscribed at the time of the call, in order, even if some throw. */
  fire(e: T): void {
    // The array is never mutated, so a listener that (un)subscribes affects the next fire, not this one.
    for (const listener of this.listeners) {
      try {
        listener(e);
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}
