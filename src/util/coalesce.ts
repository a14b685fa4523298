/**
 * A function that may be asked to run many times in one synchronous run but runs once, right after
 * it (a microtask). A stdio chunk of a hundred requests changes the pending queue a hundred times
 * in one go; the status bar and the view badge only need the state at the end, and each badge
 * update is a message to the workbench. Being a microtask, the update has run before any timer,
 * I/O callback or awaited event: nothing outside the run sees the stale state.
 */
export interface Coalesced {
  /** Asks for a run; calls made before that run happens share it. */
  (): void;
  /** Runs now if a run is pending (a reader that must see the current state). */
  flush(): void;
  /** Drops a pending run; later calls do nothing. */
  dispose(): void;
}

export function coalesced(fn: () => void): Coalesced {
  let pending = false;
  let disposed = false;
  const run = (): void => {
    if (!pending || disposed) return;
    pending = false;
    fn();
  };
  const schedule = (): void => {
    if (pending || disposed) return;
    pending = true;
    queueMicrotask(run);
  };
  return Object.assign(schedule, {
    flush: run,
    dispose: () => {
      disposed = true;
      pending = false;
    },
  });
}
