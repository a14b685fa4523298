/**
 * Domain-name rules for URL safety analysis: names that only resolve inside a machine or a
 * private network, and the registrable domain (eTLD+1). Pure: no `vscode`, no Node-only imports.
 */

/** Why a domain name must not be opened. */
export type NameKind = 'loopback' | 'metadata' | 'localSuffix' | 'singleLabel';

/** Result of classifying a domain name that is not safe to open. */
export interface NameClassification {
  readonly kind: NameKind;
  /** For `localSuffix`, the matching suffix (`local`, `home.arpa`, …). */
  readonly suffix: string | undefined;
}

/**
 * Names that reach a cloud instance-metadata service. `metadata` and `instance-data` are
 * single-label too, but naming the metadata risk gives the user the better reason.
 */
const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata.google.internal',
  'metadata',
  'instance-data',
  'instance-data.ec2.internal',
]);

/**
 * Suffixes that never resolve on the public internet, so a name under them can only reach
 * something on the user's own network (the SSRF case the spec tells clients to block):
 * - `local`: mDNS (RFC 6762); `internal`: reserved by ICANN for private use (2024);
 * - `home.arpa`: home networks (RFC 8375); `test`: RFC 6761, commonly wired to 127.0.0.1 by
 *   local dev tools;
 * - `localdomain`, `lan`, `intranet`, `home`, `corp`, `private`: not delegated, and in wide use
 *   by routers and corporate DNS (`home` and `corp` were withdrawn by ICANN for that reason).
 * `example` and `invalid` are left out on purpose: they cannot resolve anywhere, so they are harmless.
 */
const LOCAL_SUFFIXES: readonly string[] = [
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'home',
  'corp',
  'private',
  'home.arpa',
  'test',
];

/**
 * Classifies a lower-case ASCII domain name (no trailing dot) that must not be opened, or
 * returns `undefined` for a name that may be public.
 *
 * Single-label names (`https://intranet/`) are blocked, not merely warned about: ICANN forbids
 * dotless domains, so such a name can only resolve through the local DNS search list, i.e. to
 * an internal machine, which is exactly what blocking private IP ranges is meant to prevent.
 */
export function classifyName(name: string): NameClassification | undefined {
  if (name === 'localhost' || name.endsWith('.localhost')) return { kind: 'loopback', suffix: undefined };
  if (METADATA_NAMES.has(name)) return { kind: 'metadata', suffix: undefined };
  if (!name.includes('.')) return { kind: 'singleLabel', suffix: undefined };
  for (const suffix of LOCAL_SUFFIXES) {
    if (name === suffix || name.endsWith(`.${suffix}`)) return { kind: 'localSuffix', suffix };
  }
  return undefined;
}

/**
 * A small, hand-picked subset of the Public Suffix List: the generic TLDs named in our
 * policy plus the multi-label suffixes that show up in OAuth and hosting URLs, where the
 * naive "last two labels" rule would name the hosting provider instead of the site owner.
 * Any TLD not listed still counts as a public suffix (the PSL's implicit `*` rule), so
 * the subset only matters for multi-label suffixes.
 */
const PUBLIC_SUFFIXES: ReadonlySet<string> = new Set([
  // Generic and country TLDs (kept for documentation; the implicit rule covers them anyway).
  'com', 'org', 'net', 'io', 'dev', 'app', 'co', 'ai', 'gov', 'edu', 'uk', 'au', 'jp', 'nz', 'br', 'in',
  // Country second levels.
  'co.uk', 'org.uk', 'ac.uk', 'gov.uk', 'ltd.uk', 'plc.uk', 'me.uk', 'net.uk', 'nhs.uk',
  'com.au', 'net.au', 'org.au', 'edu.au', 'gov.au',
  'co.jp', 'ne.jp', 'or.jp', 'ac.jp', 'go.jp',
  'co.nz', 'org.nz', 'com.br', 'com.cn', 'com.mx', 'co.in', 'co.za', 'co.kr', 'com.sg', 'com.tw', 'com.hk',
  // Hosting platforms where every customer gets a subdomain.
  'github.io', 'gitlab.io', 'herokuapp.com', 'vercel.app', 'netlify.app', 'pages.dev', 'workers.dev',
  'web.app', 'firebaseapp.com', 'cloudfront.net', 'azurewebsites.net', 'azurestaticapps.net',
  'blob.core.windows.net', 'appspot.com', 's3.amazonaws.com', 'onrender.com', 'fly.dev',
  'ngrok-free.app', 'ngrok.io', 'glitch.me', 'blogspot.com',
]);

/**
 * Returns the registrable domain (eTLD+1) of a lower-case ASCII domain name without trailing
 * dot, using {@link PUBLIC_SUFFIXES}. A name that is itself a public suffix is returned as is,
 * because there is no owner narrower than the whole name to show.
 */
export function registrableDomain(name: string): string {
  const labels = name.split('.');
  for (let i = 0; i < labels.length; i++) {
    if (PUBLIC_SUFFIXES.has(labels.slice(i).join('.'))) {
      return i === 0 ? name : labels.slice(i - 1).join('.');
    }
  }
  return labels.slice(-2).join('.');
}
