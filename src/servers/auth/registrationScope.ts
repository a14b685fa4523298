/**
 * The scope a dynamic registration asks for (RFC 7591 §2 `scope`: the scopes the client may use).
 * The SDK registers with the scope of the request that started sign-in, the 401's challenge. An
 * authorization server that holds a client to its registered scope (oidc-provider does) then
 * refuses the wider scope a later 403 insufficient_scope asks for, with `invalid_scope`, and
 * step-up cannot work. So the registration also names every scope the resource advertises (its
 * RFC 9728 `scopes_supported`); each authorization request still asks only for what the server
 * challenged. Pure, apart from `fetch` itself.
 */
import type { Fetch } from '../loopbackFetch';

/** What the latest discovery found: where clients register, and the resource's scopes. */
export interface RegistrationTarget {
  readonly endpoint: string | undefined;
  readonly scopes: readonly string[];
}

/** `sent` with every scope of `advertised` it lacks added, in order; unchanged when none is missing. */
export function widenScope(sent: string, advertised: readonly string[]): string {
  const scopes = sent.split(' ').filter(Boolean);
  for (const s of advertised) if (/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s) && !scopes.includes(s)) scopes.push(s);
  return scopes.join(' ');
}

/**
 * A fetch whose registration request (a JSON POST to `target().endpoint`) asks for the scope it
 * was built with plus the resource's {@link RegistrationTarget.scopes}. A registration without a
 * `scope` is left alone: the authorization server then registers its default.
 */
export function widenRegistrationScope(next: Fetch, target: () => RegistrationTarget): Fetch {
  return (input, init) => {
    const { endpoint, scopes } = target();
    const url = input instanceof Request ? input.url : String(input);
    if (endpoint === undefined || url !== endpoint || init?.method !== 'POST' || typeof init.body !== 'string') return next(input, init);
    let body: unknown;
    try {
      body = JSON.parse(init.body);
    } catch {
      return next(input, init);
    }
    const scope = (body as { scope?: unknown } | null)?.scope;
    if (typeof scope !== 'string') return next(input, init);
    return next(input, { ...init, body: JSON.stringify({ ...(body as object), scope: widenScope(scope, scopes) }) });
  };
}
