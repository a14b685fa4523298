/**
 * Domain-name rules for URL safety analysis: names that only resolve inside a machine or a
 * private network, and the registrable domain (eTLD+1). Pure: no `vscode`, no Node-only imports.
 */
import type * as Tldts from 'tldts';

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
 * The Public Suffix List, both sections (ICANN and private: `github.io`, `s3.us-east-1.amazonaws.com`,
 * `trycloudflare.com`…), through `tldts`. Loaded on first use: it is about 130 KB that activation
 * does not need, and the bundle keeps it in a file of its own (`dist/tldts.js`, see scripts/build.mjs).
 */
let psl: typeof Tldts | undefined;

function publicSuffixList(): typeof Tldts {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; `import()` would make every caller async
  psl ??= require('tldts') as typeof Tldts;
  return psl;
}

/**
 * Returns the registrable domain (eTLD+1) of a lower-case ASCII (punycode) domain name without
 * trailing dot, by the Public Suffix List. A name that is itself a public suffix, and a name whose
 * suffix the list does not know (only its implicit `*` rule matches), are returned whole: the
 * title then shows the full host rather than a guess at where the owner's part begins.
 */
export function registrableDomain(name: string): string {
  const parsed = publicSuffixList().parse(name, {
    allowPrivateDomains: true,
    extractHostname: false,
    detectIp: false,
    validateHostname: false,
  });
  if (parsed.isIcann !== true && parsed.isPrivate !== true) return name;
  return parsed.domain ?? name;
}
