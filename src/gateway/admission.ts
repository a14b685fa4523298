/**
 * Who may talk to a gateway endpoint. The endpoint listens on loopback, but any local process and
 * any web page the user opens can reach loopback too: a page through DNS rebinding (its own name
 * resolving to 127.0.0.1, so the browser sends a foreign Host) or a plain cross-origin POST (the
 * browser sends its Origin). VS Code's MCP client sends neither a foreign Host nor an Origin, and
 * it carries the activation secret as a bearer token, which nobody else knows. No `vscode` import.
 */
import { timingSafeEqual } from 'node:crypto';

/**
 * The header VS Code sends the key in with every request (set through the server definition's
 * `headers`). `Authorization`, spelled so, because it is the one header VS Code masks when its
 * MCP client writes requests to the Trace log (`McpHTTPHandle._fetch`); a header of our own name
 * went there whole (issue 41, item 6).
 */
export const KEY_HEADER = 'Authorization';

/** The headers that present `secret` to an endpoint's HTTP door. */
export function keyHeaders(secret: string): Record<string, string> {
  return { [KEY_HEADER]: `Bearer ${secret}` };
}

/** The key a request's `Authorization` value presents: a bearer token (the scheme's case is free, RFC 9110 §11.1). */
function presentedKey(authorization: string | undefined): string | undefined {
  return /^bearer ([^\s]+)$/i.exec(authorization ?? '')?.[1];
}

export interface AdmissionRequest {
  readonly host: string | undefined;
  readonly origin: string | undefined;
  /** The request's `Authorization` header (Node keeps the first of repeated ones). */
  readonly authorization: string | undefined;
}

export type Admission = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** The names this endpoint answers to: the loopback address it listens on, and `localhost`. */
function loopbackAuthorities(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** Constant-time comparison of a presented key with the gateway's (also the socket door's check). */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  // timingSafeEqual needs equal lengths; comparing b with itself keeps the time independent of where a differs.
  return a.length === b.length ? timingSafeEqual(a, b) : !timingSafeEqual(b, b);
}

/**
 * Decides one request. The reason is for the log and the 403 body; it never echoes the secret.
 * A 403 (not 401) on purpose: VS Code answers a 401 by starting an OAuth discovery.
 */
export function admit(req: AdmissionRequest, expected: { readonly port: number; readonly secret: string }): Admission {
  const host = req.host?.toLowerCase();
  if (!host || !loopbackAuthorities(expected.port).includes(host)) {
    return { ok: false, reason: `unexpected Host ${JSON.stringify(req.host ?? '')}` };
  }
  if (req.origin !== undefined) {
    // Only a page served by this very endpoint would be same-origin, and it serves no pages.
    const origin = req.origin.toLowerCase();
    if (!loopbackAuthorities(expected.port).some((a) => origin === `http://${a}`)) {
      return { ok: false, reason: `foreign Origin ${JSON.stringify(req.origin)}` };
    }
  }
  const key = presentedKey(req.authorization);
  if (key === undefined || !sameSecret(key, expected.secret)) return { ok: false, reason: 'missing or wrong gateway key' };
  return { ok: true };
}
