/**
 * Sign Out's one step, shared by the sign-in service (signIn.ts) and its stand-in before that is
 * loaded (lazySignIn.ts), so both forget the same way and leave the same line in the server's own
 * log. Without it the last line there could still read "signed in" after the user signed out. The
 * line says only what happened, as the command's notice does: never a token or a client secret.
 */
import type { AuthStore, ServerAt } from './authStore';

/** What the server's log reads after Sign Out: something was forgotten, or there was nothing to forget. */
export function signOutLine(forgot: boolean): string {
  return forgot ? 'signed out: the stored sign-in was forgotten' : 'sign out: there was no stored sign-in to forget';
}

/** Forgets `server`'s tokens and client secret at its destination and says so in its log; true when there was either. */
export async function forgetSignIn(store: AuthStore, log: { info(message: string): void }, server: ServerAt): Promise<boolean> {
  const forgot = await store.forgetServer(server);
  log.info(signOutLine(forgot));
  return forgot;
}
