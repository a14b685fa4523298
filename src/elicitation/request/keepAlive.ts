/**
 * Keeps a server waiting while the user answers: a request that carries a progress token gets a
 * progress notification every interval, so the server's own request timeout does not fire.
 */
import type { HandleExtra } from '../sink';

export const KEEP_ALIVE_MS = 15_000;

/** Starts the keep-alive for one request; undefined when it has no progress token or no way to send. */
export function startKeepAlive(
  params: Record<string, unknown>,
  extra: HandleExtra,
  intervalMs: number,
  warn: (message: string) => void,
): NodeJS.Timeout | undefined {
  const meta = params['_meta'];
  const token = typeof meta === 'object' && meta !== null ? (meta as { progressToken?: unknown }).progressToken : undefined;
  if ((typeof token !== 'string' && typeof token !== 'number') || !extra.sendProgress) return undefined;
  let n = 0;
  const send = extra.sendProgress;
  return setInterval(() => {
    if (extra.signal.aborted) return;
    send(token, ++n, 'Waiting for the user').catch((e: unknown) => warn(`keep-alive failed: ${String(e)}`));
  }, intervalMs);
}
