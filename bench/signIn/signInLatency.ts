/**
 * Sign-in's cost when no browser is needed (issue 25): a protected server on loopback stops
 * taking the access token (test/fixtures/oauthServer.mjs, POST /fixture/expire), the next call gets
 * 401, and the extension refreshes with the refresh token it has cached and sends the call again.
 * Timed from sending the call that meets the 401 to its result, beside the same call with a token
 * the server takes. Plain Node: the real Connection, SDK OAuth client, SignInService and store
 * (test/unit/support/signInHarness.ts), with the secret store in memory. The one browser step, at
 * the start, is not timed.
 */
import { performance } from 'node:perf_hooks';
import { approvingUser, connect, fixtureAt, killFixtures, signInService, stats, whoami } from '../../test/unit/support/signInHarness';

export interface SignInFigures {
  /** 401 → refresh with the cached token → the call's result, ms per sample. */
  readonly refreshedMs: number[];
  /** The same call with a token the server takes, ms per sample. */
  readonly plainMs: number[];
}

export async function measureSignIn(fixtureScript: string, samples = 30, warmup = 5): Promise<SignInFigures> {
  const base = await fixtureAt(fixtureScript);
  const h = signInService(approvingUser);
  const conn = connect(h, base);
  try {
    await conn.start();
    if (conn.state.kind !== 'running') throw new Error(`sign-in bench: the server did not start (${JSON.stringify(conn.state)})`);
    const expire = async (): Promise<void> => {
      await fetch(`${base}/fixture/expire`, { method: 'POST' });
    };
    const refreshedMs: number[] = [];
    const plainMs: number[] = [];
    const before = await stats(base);
    for (let i = 0; i < warmup + samples; i++) {
      await expire();
      let t0 = performance.now();
      await whoami(conn);
      const refreshed = performance.now() - t0;
      t0 = performance.now();
      await whoami(conn);
      const plain = performance.now() - t0;
      if (i >= warmup) {
        refreshedMs.push(refreshed);
        plainMs.push(plain);
      }
    }
    const after = await stats(base);
    // Every expired token was refreshed, and nobody was asked after the first sign-in.
    if (after.refreshGrants - before.refreshGrants !== warmup + samples || h.asked.length !== 1) {
      throw new Error(`sign-in bench: ${after.refreshGrants - before.refreshGrants} refreshes and ${h.asked.length} sign-ins`);
    }
    return { refreshedMs, plainMs };
  } finally {
    await conn.shutdown();
    h.signIn.dispose();
    killFixtures();
  }
}
