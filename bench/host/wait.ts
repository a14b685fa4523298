/** Bounded polling on state, the only kind of wait the benchmark uses. */
export async function waitUntil(
  predicate: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
  onSlow?: () => Promise<void>,
): Promise<void> {
  const t0 = Date.now();
  let nudged = false;
  while (!(await predicate())) {
    const waited = Date.now() - t0;
    if (waited > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    // Half-way, give the caller one chance to unstick it (e.g. close a prompt left open).
    if (onSlow && !nudged && waited > timeoutMs / 2) {
      nudged = true;
      await onSlow();
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}
