/**
 * IP-literal classification for URL safety analysis. Pure: no `vscode`, no Node-only imports.
 *
 * Input is always a host as the WHATWG URL parser serialises it (`URL.hostname`), which has
 * already turned every IPv4 spelling (decimal `2130706433`, hex `0x7f000001`, octal `0177.0.0.1`,
 * short `127.1`, fullwidth digits) into dotted decimal, and every IPv6 literal into bracketed,
 * compressed hex. We therefore only need to read those two canonical forms, but the IPv6 reader
 * also accepts a dotted IPv4 tail so that it stays correct if a caller passes raw text.
 */

/** What an IP address is for, as far as opening it in a browser is concerned. */
export type IpKind = 'public' | 'loopback' | 'private' | 'linkLocal' | 'cgnat' | 'unspecified' | 'metadata' | 'reserved';

/** Result of classifying an IP literal. */
export interface IpClassification {
  readonly kind: IpKind;
  /** `4` or `6`: the family of the literal as written. */
  readonly family: 4 | 6;
  /**
   * For IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo), the
   * embedded address in dotted form: the IPv4 address is what actually gets contacted, so it
   * decides the kind and must be named in the message.
   */
  readonly embeddedIpv4: string | undefined;
}

type Range = readonly [base: string, prefixLength: number, kind: IpKind];

// First match wins, so single metadata addresses come before the blocks that contain them.
const IPV4_RANGES: readonly Range[] = [
  ['169.254.169.254', 32, 'metadata'], // AWS, Azure, GCP, OCI instance metadata
  ['169.254.170.2', 32, 'metadata'], // AWS ECS task metadata and credentials
  ['100.100.100.200', 32, 'metadata'], // Alibaba Cloud
  ['192.0.0.192', 32, 'metadata'], // Oracle Cloud (legacy)
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'linkLocal'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // TEST-NET-1
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // TEST-NET-2
  ['203.0.113.0', 24, 'reserved'], // TEST-NET-3
  ['224.0.0.0', 4, 'reserved'], // multicast
  ['240.0.0.0', 4, 'reserved'], // reserved, includes the broadcast address 255.255.255.255
];

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Parses strict dotted-decimal IPv4 (the WHATWG serialisation) into a uint32. */
export function parseIpv4(text: string): number | undefined {
  const match = DOTTED_QUAD.exec(text);
  if (!match) return undefined;
  let value = 0;
  for (let i = 1; i <= 4; i++) {
    const octet = Number(match[i]);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** Formats a uint32 as dotted decimal. */
export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff].join('.');
}

const PARSED_IPV4_RANGES = IPV4_RANGES.map(([base, prefixLength, kind]) => {
  const mask = prefixLength === 0 ? 0 : (0xffffffff << (32 - prefixLength)) >>> 0;
  return { base: (parseIpv4(base) ?? 0) & mask, mask, kind };
});

/** Classifies a uint32 IPv4 address. */
export function classifyIpv4(value: number): IpKind {
  for (const range of PARSED_IPV4_RANGES) {
    if ((value & range.mask) >>> 0 === range.base >>> 0) return range.kind;
  }
  return 'public';
}

/**
 * Parses IPv6 text (no brackets, no zone id) into eight 16-bit words.
 * Accepts `::` compression and a trailing dotted IPv4 part.
 */
export function parseIpv6(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function parseGroups(text: string): number[] | undefined {
  if (text === '') return [];
  const groups = text.split(':');
  const words: number[] = [];
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i] ?? '';
    if (i === groups.length - 1 && group.includes('.')) {
      const v4 = parseIpv4(group);
      if (v4 === undefined) return undefined;
      words.push(v4 >>> 16, v4 & 0xffff);
    } else if (/^[0-9a-f]{1,4}$/i.test(group)) {
      words.push(parseInt(group, 16));
    } else {
      return undefined;
    }
  }
  return words;
}

function startsWith(words: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; bits > 0; i++, bits -= 16) {
    const mask = bits >= 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    if (((words[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

function v4From(high: number, low: number): number {
  return ((high << 16) | low) >>> 0;
}

/**
 * Where IPv6 transition mechanisms hide an IPv4 destination. Each entry returns that
 * address when the prefix matches; the IPv4 address then decides the verdict, because a
 * dual-stack host or gateway will deliver the request to it.
 */
const EMBEDDING_PREFIXES: readonly {
  readonly prefix: readonly number[];
  readonly bits: number;
  readonly extract: (w: readonly number[]) => number;
}[] = [
  { prefix: [0, 0, 0, 0, 0, 0xffff], bits: 96, extract: (w) => v4From(w[6] ?? 0, w[7] ?? 0) }, // mapped
  { prefix: [0, 0, 0, 0, 0xffff, 0], bits: 96, extract: (w) => v4From(w[6] ?? 0, w[7] ?? 0) }, // translated (SIIT)
  { prefix: [0, 0, 0, 0, 0, 0], bits: 96, extract: (w) => v4From(w[6] ?? 0, w[7] ?? 0) }, // compatible (deprecated)
  { prefix: [0x64, 0xff9b, 0, 0, 0, 0], bits: 96, extract: (w) => v4From(w[6] ?? 0, w[7] ?? 0) }, // NAT64
  { prefix: [0x2002], bits: 16, extract: (w) => v4From(w[1] ?? 0, w[2] ?? 0) }, // 6to4
  // Teredo stores the client address bit-inverted to stop NATs from rewriting it.
  { prefix: [0x2001, 0], bits: 32, extract: (w) => v4From(~(w[6] ?? 0) & 0xffff, ~(w[7] ?? 0) & 0xffff) },
];

const IPV6_RANGES: readonly { readonly prefix: readonly number[]; readonly bits: number; readonly kind: IpKind }[] = [
  { prefix: [0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x254], bits: 128, kind: 'metadata' }, // AWS IMDS over IPv6
  { prefix: [0x64, 0xff9b, 1], bits: 48, kind: 'private' }, // local-use NAT64 (RFC 8215)
  { prefix: [0x100, 0, 0, 0], bits: 64, kind: 'reserved' }, // discard-only
  { prefix: [0x2001, 0x0db8], bits: 32, kind: 'reserved' }, // documentation
  { prefix: [0xfc00], bits: 7, kind: 'private' }, // unique local
  { prefix: [0xfe80], bits: 10, kind: 'linkLocal' },
  { prefix: [0xfec0], bits: 10, kind: 'private' }, // deprecated site-local, still routed internally
  { prefix: [0xff00], bits: 8, kind: 'reserved' }, // multicast
];

/** Classifies eight IPv6 words, following any embedded IPv4 address. */
export function classifyIpv6(words: readonly number[]): IpClassification {
  if (words.every((w) => w === 0)) return { kind: 'unspecified', family: 6, embeddedIpv4: undefined };
  if (startsWith(words, [0, 0, 0, 0, 0, 0, 0, 1], 128)) {
    return { kind: 'loopback', family: 6, embeddedIpv4: undefined };
  }
  for (const range of IPV6_RANGES) {
    if (startsWith(words, range.prefix, range.bits)) return { kind: range.kind, family: 6, embeddedIpv4: undefined };
  }
  for (const embedding of EMBEDDING_PREFIXES) {
    if (startsWith(words, embedding.prefix, embedding.bits)) {
      const v4 = embedding.extract(words);
      return { kind: classifyIpv4(v4), family: 6, embeddedIpv4: formatIpv4(v4) };
    }
  }
  // Only 2000::/3 is allocated for global unicast; anything else is not a real web server.
  const kind: IpKind = startsWith(words, [0x2000], 3) ? 'public' : 'reserved';
  return { kind, family: 6, embeddedIpv4: undefined };
}

/**
 * Classifies a WHATWG-serialised host if it is an IP literal (`1.2.3.4` or `[::1]`),
 * otherwise returns `undefined` (the host is a domain name).
 */
export function classifyIpHost(hostname: string): IpClassification | undefined {
  if (hostname.startsWith('[') && hostname.endsWith(']')) {
    const words = parseIpv6(hostname.slice(1, -1));
    // The URL parser accepted it as IPv6, so an unreadable literal is a bug to fail closed on.
    return words ? classifyIpv6(words) : { kind: 'reserved', family: 6, embeddedIpv4: undefined };
  }
  const v4 = parseIpv4(hostname);
  return v4 === undefined ? undefined : { kind: classifyIpv4(v4), family: 4, embeddedIpv4: undefined };
}
