/**
 * The two async idioms every prompt and call needs, written once: racing work against an
 * AbortSignal, and a callback that must take effect at most once however many paths reach it.
 */

/**
 * Resolves with the promise's value, or with `onAbort()`'s value as soon as the signal aborts
 * (at once if it already has). The abort listener is always removed, so a long-lived signal (a
 * connection's) does not collect one listener per call. A rejection of `work` after an abort is
 * swallowed: nobody is waiting for it any more.
 */
export function raceAbort<T, A>(work: Promise<T>, signal: AbortSignal | undefined, onAbort: () => A): Promise<T | A> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(onAbort());
  }
  return new Promise<T | A>((resolve, reject) => {
    const settle = settleOnce();
    const finish = (fn: () => void): void =>
      void settle(() => {
        signal.removeEventListener('abort', abort);
        fn();
      });
    const abort = (): void => finish(() => resolve(onAbort()));
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (v) => finish(() => resolve(v)),
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes the work's own rejection through unchanged
      (err: unknown) => finish(() => reject(err)),
    );
  });
}

/**
 * A gate for code that several paths may reach (an answer, a cancel, an abort, a dispose): the
 * first `settle(fn)` runs `fn`, every later one is ignored. `settled` tells a late caller it lost.
 */
export interface SettleOnce {
  (fn: () => void): boolean;
  readonly settled: boolean;
}

export function settleOnce(): SettleOnce {
  let settled = false;
  const settle = (fn: () => void): boolean => {
    if (settled) return false;
    settled = true;
    fn();
    return true;
  };
  return Object.defineProperty(settle, 'settled', { get: () => settled }) as SettleOnce;
}

/** Resolves after `ms`, or early when the signal aborts; never rejects, and leaves no listener behind. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return raceAbort(elapsed, signal, () => clearTimeout(timer));
}

/**
 * Runs `fn` once when the signal aborts (at once if it already has); the disposable removes the
 * listener, so a prompt that settles another way leaves nothing on a long-lived signal.
 */
export function onAbort(signal: AbortSignal, fn: () => void): { dispose(): void } {
  if (signal.aborted) {
    fn();
    return { dispose: () => undefined };
  }
  signal.addEventListener('abort', fn, { once: true });
  return { dispose: () => signal.removeEventListener('abort', fn) };
}
