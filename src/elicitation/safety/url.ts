/**
 * Safety analysis for url-mode elicitation: decides whether a server-supplied URL may be
 * offered to the user at all, what to warn about, and how to show it in the consent dialog.
 *
 * The spec makes the client responsible for SSRF protection and look-alike detection
 * (https only, no internal addresses, make punycode visible, show the real destination).
 * Runs in plain Node 20+ and when bundled.
 */
import { domainToUnicode } from 'node:url';
import { classifyIpHost, type IpClassification, type IpKind } from './urlIp';
import { classifyName, registrableDomain, type NameClassification } from './urlNames';
import { isConfusableLabel, isMixedScript, labelScripts, skeleton } from './urlIdn';

/** Overall decision: open after consent, open after a visible warning, or refuse. */
export type UrlVerdict = 'allow' | 'warn' | 'block';

/** Internal addresses: the user must never be sent there (the SSRF list of the spec). */
export type InternalHostCode =
  'loopbackHost' | 'privateHost' | 'linkLocalHost' | 'cgnatHost' | 'unspecifiedHost' | 'metadataHost' | 'reservedHost';

/**
 * What a finding is about, with the values the UI needs to word it. Server text in it (hosts,
 * user info, labels) is already shortened, so a long value cannot push the rest of a sentence
 * out of a dialog; the UI words it (`src/ui/wording/urlReasons.ts`).
 */
export type UrlReasonDetail =
  | { readonly code: 'malformed'; readonly form: 'empty' | 'schemeRelative' | 'noScheme' | 'unreadable' }
  | { readonly code: 'malformed'; readonly form: 'emptyLabel'; readonly host: string }
  | { readonly code: 'tooLong'; readonly length: number; readonly max: number }
  /** Any scheme but https; `http` is refused for being unencrypted, the others for not being web links. */
  | { readonly code: 'scheme'; readonly scheme: string }
  | { readonly code: 'whitespace'; readonly where: 'edge' | 'inside' }
  | { readonly code: 'invisible' }
  | { readonly code: 'ambiguous'; readonly form: 'backslash' | 'noSlashes' | 'percentHost' }
  | { readonly code: 'httpLoopbackAllowed'; readonly host: string; readonly because: 'setting' | 'localServer' }
  /** `host` is the address (or name) reached; `embeddedIn` the IPv6 address it hides in, if any. */
  | { readonly code: InternalHostCode | 'publicIp'; readonly host: string; readonly embeddedIn: string | undefined }
  /** `suffix` is the local-only suffix (`local`, `home.arpa`…), `undefined` for a single-label name. */
  | { readonly code: 'localName'; readonly host: string; readonly suffix: string | undefined }
  /** `userInfo` is the text before the `@`, `''` for a bare `@`; `host` is the real destination. */
  | { readonly code: 'userInfo'; readonly userInfo: string; readonly host: string }
  /** `unicode` is the decoded name of a punycode host; `undefined` when the host was written with stand-in characters. */
  | { readonly code: 'idn'; readonly unicode: string | undefined; readonly host: string }
  | { readonly code: 'mixedScript'; readonly scripts: readonly string[]; readonly label: string }
  /** `lookalike` is the plain-Latin name the host can pass for. */
  | { readonly code: 'confusable'; readonly unicode: string; readonly lookalike: string }
  | { readonly code: 'port'; readonly port: string };

/** Machine-readable reason identifiers; the UI picks icons and wording by code. */
export type UrlReasonCode = UrlReasonDetail['code'];

/** One finding about a URL. Each code appears at most once per analysis. */
export type UrlReason = UrlReasonDetail & { readonly severity: 'warn' | 'block' };

/** The parts of a URL to show the user, all taken from parsing the input string. */
export interface UrlDisplay {
  /** Exactly the input string: this, and nothing re-serialised, is what gets opened. */
  readonly url: string;
  /** Lower-case scheme without the colon (`https`). */
  readonly scheme: string;
  /** Host with IDN labels decoded (`аpple.com`); equals `hostPunycode` for IP literals and ASCII names. */
  readonly hostUnicode: string;
  /** Host as the browser will resolve it (`xn--pple-43d.com`, `127.0.0.1`, `[::1]`). */
  readonly hostPunycode: string;
  /**
   * eTLD+1 in ASCII (punycode) form, so look-alike letters cannot hide in it; computed from the
   * Public Suffix List, private section included. The whole host when its suffix is unknown or it
   * is a public suffix itself; the IP itself for IP literals; `''` without a host.
   */
  readonly registrableDomain: string;
  /** Explicit non-default port, or `undefined` (`:443` on https counts as default). */
  readonly port: string | undefined;
  /** Path as the browser will request it (percent-encoded, dot segments resolved). */
  readonly path: string;
  /** Query including the leading `?`, or `''` when there is none (like `URL.search`). */
  readonly query: string;
  /** Text before the `@` in the authority, as written, or `undefined` when there is no `@`. */
  readonly userInfo: string | undefined;
}

/** The result of {@link analyseUrl}. */
export interface UrlAnalysis {
  /** `block` if any reason blocks, else `warn` if any reason warns, else `allow`. */
  readonly verdict: UrlVerdict;
  /** Findings, most fundamental first (characters and scheme, then host, then cosmetics). */
  readonly reasons: readonly UrlReason[];
  /** `undefined` only when the input could not be parsed as a URL at all (then `malformed` is present). */
  readonly display: UrlDisplay | undefined;
}

/** Options for {@link analyseUrl}. */
export interface UrlSafetyOptions {
  /**
   * Allow `http` and `https` to exactly `localhost`, `127.0.0.1` and `[::1]` (any port), with a
   * warning, for developers running a server locally. Other loopback spellings stay blocked.
   */
  readonly allowHttpLoopback?: boolean;
  /** Why loopback is allowed, for the warning's wording: the user's setting (default), or a sign-in for an MCP server on this machine. */
  readonly loopbackBecause?: 'setting' | 'localServer';
  /** Longest accepted input, in UTF-16 code units. Defaults to {@link DEFAULT_MAX_URL_LENGTH}. */
  readonly maxLength?: number;
}

/** Longer URLs are refused: they are hard to review and are a common way to bury the real target. */
export const DEFAULT_MAX_URL_LENGTH = 2048;

/**
 * Analyses a URL a server asked the user to open in url-mode elicitation.
 * Never throws; anything unreadable comes back blocked as `malformed`.
 *
 * Policy choices beyond the spec's SSRF list:
 * - Single-label hosts (`https://intranet/`) block as `localName`, like `.local`, `.internal`,
 *   `.lan`, `.home.arpa`, `.intranet`, `.localdomain`, `.home`, `.corp`, `.private`, `.test`.
 * - Spellings that WHATWG and RFC 3986 parsers read differently (backslashes before the query,
 *   a scheme not followed by `//`, percent-encoded hosts) block as `ambiguous`, because the host
 *   we show might not be the host that opens.
 * - Invisible characters (zero-width, bidi controls) block as `invisible`.
 * - `port` is only reported for https links that are otherwise openable; http is blocked anyway.
 * - Host rules apply to http and https only; every other scheme yields `scheme` alone.
 */
export function analyseUrl(url: string, options: UrlSafetyOptions = {}): UrlAnalysis {
  const reasons = new ReasonList();
  if (url.length === 0) {
    reasons.block({ code: 'malformed', form: 'empty' });
    return reasons.finish(undefined);
  }
  checkCharacters(url, reasons);
  const maxLength = options.maxLength !== undefined && options.maxLength >= 0 ? options.maxLength : DEFAULT_MAX_URL_LENGTH;
  if (url.length > maxLength) {
    reasons.block({ code: 'tooLong', length: url.length, max: maxLength });
  }

  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    reasons.block({ code: 'malformed', form: unparseableForm(url) });
    return reasons.finish(undefined);
  }

  const scheme = parsed.protocol.slice(0, -1);
  if (scheme !== 'https' && scheme !== 'http') {
    reasons.block({ code: 'scheme', scheme: shorten(scheme) });
    return reasons.finish(displayOf(url, parsed, undefined));
  }

  const authority = rawAuthority(url);
  checkShape(authority, reasons);
  const host = parsed.hostname;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === '' || (!host.startsWith('[') && name.split('.').includes(''))) {
    reasons.block({ code: 'malformed', form: 'emptyLabel', host: shorten(host) });
  }
  const ip = classifyIpHost(name);
  const loopbackAllowed = options.allowHttpLoopback === true && CANONICAL_LOOPBACK.has(name);
  if (loopbackAllowed) {
    reasons.warn({ code: 'httpLoopbackAllowed', host, because: options.loopbackBecause ?? 'setting' });
  } else {
    if (scheme === 'http') {
      reasons.block({ code: 'scheme', scheme });
    }
    if (ip) addIpReasons(host, ip, reasons);
    else addNameReasons(host, classifyName(name), reasons);
  }

  if (authority.userInfo !== undefined) {
    reasons.warn({ code: 'userInfo', userInfo: shorten(authority.userInfo), host: shorten(host) });
  }
  addIdnReasons(host, authority.hostPort, reasons);
  if (parsed.port !== '' && scheme === 'https' && !loopbackAllowed) {
    reasons.warn({ code: 'port', port: parsed.port });
  }
  return reasons.finish(displayOf(url, parsed, authority.userInfo));
}

/**
 * Drops the query and fragment and keeps everything before them byte for byte, for the audit
 * log, since queries often carry one-time codes and state tokens. Cuts at the first `?` or `#`,
 * which is where the WHATWG parser ends the path too. Control characters are kept: escape them
 * when writing a log line.
 */
export function stripQuery(url: string): string {
  const cut = url.search(/[?#]/);
  return cut === -1 ? url : url.slice(0, cut);
}

const CANONICAL_LOOPBACK: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

class ReasonList {
  private readonly items: UrlReason[] = [];

  block(detail: UrlReasonDetail): void {
    this.add({ ...detail, severity: 'block' });
  }

  warn(detail: UrlReasonDetail): void {
    this.add({ ...detail, severity: 'warn' });
  }

  finish(display: UrlDisplay | undefined): UrlAnalysis {
    const verdict: UrlVerdict = this.items.some((r) => r.severity === 'block') ? 'block' : this.items.length > 0 ? 'warn' : 'allow';
    return { verdict, reasons: this.items, display };
  }

  // The first finding for a code is the most specific one; repeats add nothing for the user.
  private add(reason: UrlReason): void {
    if (!this.items.some((r) => r.code === reason.code)) this.items.push(reason);
  }
}

// The URL parser silently drops these, so the dialog would show a different string from the
// one the parser (and the browser) reads; refusing is the only way to keep "what you see is
// what opens".
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const WHITESPACE_OR_CONTROL = /[\s\x00-\x1f\x7f-\x9f]/u;
const EDGE_WHITESPACE = /^\s|\s$/u;
// Zero-width and bidi-control characters, plus blank-looking letters, can disguise or
// visually reorder the address.
const INVISIBLE = /(?!\s)[\p{Cf}\u115f\u1160\u3164\uffa0\u2800]/u;

function checkCharacters(url: string, reasons: ReasonList): void {
  if (WHITESPACE_OR_CONTROL.test(url)) {
    reasons.block({ code: 'whitespace', where: EDGE_WHITESPACE.test(url) ? 'edge' : 'inside' });
  }
  if (INVISIBLE.test(url)) {
    reasons.block({ code: 'invisible' });
  }
}

function unparseableForm(url: string): 'schemeRelative' | 'noScheme' | 'unreadable' {
  if (url.trimStart().startsWith('//')) return 'schemeRelative';
  if (!/^\s*[a-z][a-z0-9+.-]*:/i.test(url)) return 'noScheme';
  return 'unreadable';
}

interface RawAuthority {
  /** False when the scheme is not followed by exactly `//` and a host. */
  readonly wellFormed: boolean;
  readonly hasBackslash: boolean;
  readonly userInfo: string | undefined;
  readonly hostPort: string;
}

/**
 * Splits the authority out of the input the way the WHATWG parser does for http(s), after
 * the same preprocessing (edge C0/space trimmed, tab and newline removed), so that what we
 * show matches what the parser saw.
 */
function rawAuthority(url: string): RawAuthority {
  // eslint-disable-next-line no-control-regex -- WHATWG's own preprocessing set
  const effective = url.replace(/^[\x00-\x20]+|[\x00-\x20]+$/g, '').replace(/[\t\n\r]/g, '');
  const colon = effective.indexOf(':');
  const rest = effective.slice(colon + 1);
  const wellFormed = /^\/\/[^/\\]/.test(rest);
  const afterSlashes = rest.replace(/^[/\\]*/, '');
  const end = afterSlashes.search(/[/\\?#]/);
  const authority = end === -1 ? afterSlashes : afterSlashes.slice(0, end);
  const pathEnd = effective.search(/[?#]/);
  const hasBackslash = (pathEnd === -1 ? effective : effective.slice(0, pathEnd)).includes('\\');
  const at = authority.lastIndexOf('@');
  return {
    wellFormed,
    hasBackslash,
    userInfo: at === -1 ? undefined : authority.slice(0, at),
    hostPort: authority.slice(at + 1),
  };
}

// These spellings are repaired by WHATWG parsers (browsers) but read differently by RFC 3986
// parsers, including the one behind vscode.Uri that may sit between us and the browser.
// A parser disagreement means the host we show may not be the host that opens.
function checkShape(authority: RawAuthority, reasons: ReasonList): void {
  if (authority.hasBackslash) reasons.block({ code: 'ambiguous', form: 'backslash' });
  else if (!authority.wellFormed) reasons.block({ code: 'ambiguous', form: 'noSlashes' });
  else if (authority.hostPort.includes('%')) reasons.block({ code: 'ambiguous', form: 'percentHost' });
}

const IP_CODES: Readonly<Record<Exclude<IpKind, 'public'>, InternalHostCode>> = {
  loopback: 'loopbackHost',
  private: 'privateHost',
  linkLocal: 'linkLocalHost',
  cgnat: 'cgnatHost',
  unspecified: 'unspecifiedHost',
  metadata: 'metadataHost',
  reserved: 'reservedHost',
};

function addIpReasons(host: string, ip: IpClassification, reasons: ReasonList): void {
  // An IPv4 address hidden inside an IPv6 one is named as what it reaches, with where it hid.
  const shown = ip.embeddedIpv4 === undefined ? { host, embeddedIn: undefined } : { host: ip.embeddedIpv4, embeddedIn: host };
  if (ip.kind === 'public') reasons.warn({ code: 'publicIp', ...shown });
  else reasons.block({ code: IP_CODES[ip.kind], ...shown });
}

function addNameReasons(host: string, name: NameClassification | undefined, reasons: ReasonList): void {
  const shown = shorten(host);
  switch (name?.kind) {
    case undefined:
      return;
    case 'loopback':
      reasons.block({ code: 'loopbackHost', host: shown, embeddedIn: undefined });
      return;
    case 'metadata':
      reasons.block({ code: 'metadataHost', host: shown, embeddedIn: undefined });
      return;
    case 'localSuffix':
      reasons.block({ code: 'localName', host: shown, suffix: name.suffix ?? '' });
      return;
    case 'singleLabel':
      reasons.block({ code: 'localName', host: shown, suffix: undefined });
      return;
  }
}

function addIdnReasons(host: string, rawHostPort: string, reasons: ReasonList): void {
  const unicode = toUnicode(host);
  const punycode = host.split('.').some((label) => label.startsWith('xn--'));
  if (punycode) {
    reasons.warn({ code: 'idn', unicode: shorten(unicode), host: shorten(host) });
  } else if (/[^\x20-\x7e]/.test(rawHostPort)) {
    reasons.warn({ code: 'idn', unicode: undefined, host: shorten(host) });
  }
  if (!punycode) return;

  const labels = unicode.split('.');
  for (const label of labels) {
    const scripts = labelScripts(label);
    if (isMixedScript(scripts)) {
      reasons.warn({ code: 'mixedScript', scripts, label: shorten(label) });
      break;
    }
  }
  if (labels.some(isConfusableLabel)) {
    reasons.warn({ code: 'confusable', unicode: shorten(unicode), lookalike: shorten(skeleton(unicode)) });
  }
}

function toUnicode(host: string): string {
  // domainToUnicode returns '' rather than throwing for anything it cannot decode.
  return domainToUnicode(host) || host;
}

function displayOf(url: string, parsed: URL, userInfo: string | undefined): UrlDisplay {
  const host = parsed.hostname;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  const isIp = classifyIpHost(name) !== undefined;
  return {
    url,
    scheme: parsed.protocol.slice(0, -1),
    hostUnicode: isIp || host === '' ? host : toUnicode(host),
    hostPunycode: host,
    registrableDomain: isIp || name === '' ? name : registrableDomain(name),
    port: parsed.port === '' ? undefined : parsed.port,
    path: parsed.pathname,
    query: parsed.search,
    userInfo: userInfo ?? userInfoOf(parsed),
  };
}

// Non-http(s) schemes skip rawAuthority, so fall back to what the parser found.
function userInfoOf(parsed: URL): string | undefined {
  if (parsed.username === '' && parsed.password === '') return undefined;
  return parsed.password === '' ? parsed.username : `${parsed.username}:${parsed.password}`;
}

// Attacker-controlled text goes into the reasons' values; keep a long value from pushing the
// rest of the sentence out of the dialog.
function shorten(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
