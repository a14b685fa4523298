/**
 * Safety analysis for url-mode elicitation: decides whether a server-supplied URL may be
 * offered to the user at all, what to warn about, and how to show it in the consent dialog.
 *
 * The spec makes the client responsible for SSRF protection and look-alike detection
 * (https only, no internal addresses, make punycode visible, show the real destination).
 * Pure: no `vscode` import; runs in plain Node 20+ and when bundled.
 */
import { domainToUnicode } from 'node:url';
import { classifyIpHost, type IpClassification, type IpKind } from './urlIp';
import { classifyName, registrableDomain, type NameClassification } from './urlNames';
import { isConfusableLabel, isMixedScript, labelScripts, skeleton } from './urlIdn';

/** Overall decision: open after consent, open after a visible warning, or refuse. */
export type UrlVerdict = 'allow' | 'warn' | 'block';

/** Machine-readable reason identifiers; the UI may pick icons or wording by code. */
export type UrlReasonCode =
  | 'scheme'
  | 'malformed'
  | 'tooLong'
  | 'loopbackHost'
  | 'privateHost'
  | 'linkLocalHost'
  | 'cgnatHost'
  | 'unspecifiedHost'
  | 'metadataHost'
  | 'reservedHost'
  | 'localName'
  | 'userInfo'
  | 'idn'
  | 'mixedScript'
  | 'confusable'
  | 'port'
  | 'publicIp'
  | 'httpLoopbackAllowed'
  | 'whitespace'
  | 'invisible'
  | 'ambiguous';

/** One finding about a URL. Each code appears at most once per analysis. */
export interface UrlReason {
  readonly code: UrlReasonCode;
  readonly severity: 'warn' | 'block';
  /** A plain-English sentence or two, ready for a consent dialog. */
  readonly message: string;
}

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
   * eTLD+1 in ASCII (punycode) form, so look-alike letters cannot hide in it; computed from a
   * built-in subset of the Public Suffix List. The IP itself for IP literals; `''` without a host.
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
    reasons.block('malformed', 'The link is empty.');
    return reasons.finish(undefined);
  }
  checkCharacters(url, reasons);
  const maxLength = options.maxLength !== undefined && options.maxLength >= 0 ? options.maxLength : DEFAULT_MAX_URL_LENGTH;
  if (url.length > maxLength) {
    reasons.block(
      'tooLong',
      `The link is ${url.length} characters long, more than the ${maxLength} allowed. Very long links are a common way to hide where they really go.`,
    );
  }

  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    reasons.block('malformed', describeUnparseable(url));
    return reasons.finish(undefined);
  }

  const scheme = parsed.protocol.slice(0, -1);
  if (scheme !== 'https' && scheme !== 'http') {
    reasons.block('scheme', `The link uses the "${shorten(scheme)}:" scheme. Only https web links can be opened from a server request.`);
    return reasons.finish(displayOf(url, parsed, undefined));
  }

  const authority = rawAuthority(url);
  checkShape(authority, reasons);
  const host = parsed.hostname;
  const name = host.endsWith('.') ? host.slice(0, -1) : host;
  if (name === '' || (!host.startsWith('[') && name.split('.').includes(''))) {
    reasons.block('malformed', `The link's host name (${shorten(host)}) has an empty part, so it is not a valid address.`);
  }
  const ip = classifyIpHost(name);
  const loopbackAllowed = options.allowHttpLoopback === true && CANONICAL_LOOPBACK.has(name);
  if (loopbackAllowed) {
    reasons.warn(
      'httpLoopbackAllowed',
      `The link points to this computer (${host}). It is allowed only because local development links are enabled in settings.`,
    );
  } else {
    if (scheme === 'http') {
      reasons.block('scheme', 'The link uses http, which is not encrypted. Only https links can be opened from a server request.');
    }
    if (ip) addIpReasons(host, ip, reasons);
    else addNameReasons(host, classifyName(name), reasons);
  }

  if (authority.userInfo !== undefined) {
    reasons.warn(
      'userInfo',
      authority.userInfo === ''
        ? `The link has an "@" sign in front of its host, a form used to disguise links. The real destination is ${shorten(host)}.`
        : `The link starts with "${shorten(authority.userInfo)}@", but that is not where it goes: the real destination is ${shorten(host)}.`,
    );
  }
  addIdnReasons(host, authority.hostPort, reasons);
  if (parsed.port !== '' && scheme === 'https' && !loopbackAllowed) {
    reasons.warn('port', `The link uses port ${parsed.port} instead of the standard https port. Ordinary websites rarely do this.`);
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

  block(code: UrlReasonCode, message: string): void {
    this.add({ code, severity: 'block', message });
  }

  warn(code: UrlReasonCode, message: string): void {
    this.add({ code, severity: 'warn', message });
  }

  finish(display: UrlDisplay | undefined): UrlAnalysis {
    const verdict: UrlVerdict = this.items.some((r) => r.severity === 'block')
      ? 'block'
      : this.items.length > 0
        ? 'warn'
        : 'allow';
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
    reasons.block(
      'whitespace',
      EDGE_WHITESPACE.test(url)
        ? 'The link begins or ends with blank space. Links must be sent exactly, without padding.'
        : 'The link contains spaces, line breaks, tabs or other control characters, which can disguise where it goes.',
    );
  }
  if (INVISIBLE.test(url)) {
    reasons.block(
      'invisible',
      'The link contains invisible characters (such as zero-width spaces or text-direction marks) that can disguise where it goes.',
    );
  }
}

function describeUnparseable(url: string): string {
  if (url.trimStart().startsWith('//')) {
    return 'The link has no scheme (it starts with "//"), so it is not a complete web address.';
  }
  if (!/^\s*[a-z][a-z0-9+.-]*:/i.test(url)) {
    return 'The link is not a complete web address: it has no scheme such as "https://".';
  }
  return 'The link could not be read as a valid web address.';
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
  const uncertain = 'Browsers and other programs read such links differently, so its real destination is uncertain.';
  if (authority.hasBackslash) {
    reasons.block('ambiguous', `The link contains a backslash (\\) before its query. ${uncertain}`);
  } else if (!authority.wellFormed) {
    reasons.block('ambiguous', `The link does not start with the usual "https://" followed by a host name. ${uncertain}`);
  } else if (authority.hostPort.includes('%')) {
    reasons.block('ambiguous', `The link's host name is percent-encoded, which disguises it. ${uncertain}`);
  }
}

const IP_MESSAGES: Readonly<Record<Exclude<IpKind, 'public'>, readonly [UrlReasonCode, (shown: string) => string]>> = {
  loopback: ['loopbackHost', (a) => `The link points to this computer (${a}). Servers must not send you to addresses on your own machine.`],
  private: ['privateHost', (a) => `The link points to a private network address (${a}). Servers must not send you to internal addresses.`],
  linkLocal: ['linkLocalHost', (a) => `The link points to a link-local address (${a}), which only exists on your local network. Servers must not send you to internal addresses.`],
  cgnat: ['cgnatHost', (a) => `The link points to a carrier-grade NAT address (${a}), which belongs to an internet provider's internal network. Servers must not send you to internal addresses.`],
  unspecified: ['unspecifiedHost', (a) => `The link points to the unspecified address (${a}), which many systems treat as this computer. Servers must not send you to addresses on your own machine.`],
  metadata: ['metadataHost', (a) => `The link points to a cloud metadata service (${a}), which can hand out the credentials of the machine you are using.`],
  reserved: ['reservedHost', (a) => `The link points to a reserved, multicast or broadcast address (${a}), which is never an ordinary website.`],
};

function addIpReasons(host: string, ip: IpClassification, reasons: ReasonList): void {
  const shown = ip.embeddedIpv4 === undefined ? host : `${ip.embeddedIpv4}, hidden inside the IPv6 address ${host}`;
  if (ip.kind === 'public') {
    reasons.warn('publicIp', `The link points to a bare IP address (${shown}) instead of a domain name, so there is no name to tell you who runs the site.`);
    return;
  }
  const [code, message] = IP_MESSAGES[ip.kind];
  reasons.block(code, message(shown));
}

function addNameReasons(host: string, name: NameClassification | undefined, reasons: ReasonList): void {
  switch (name?.kind) {
    case undefined:
      return;
    case 'loopback':
      reasons.block('loopbackHost', `The link points to this computer (${shorten(host)}). Servers must not send you to addresses on your own machine.`);
      return;
    case 'metadata':
      reasons.block('metadataHost', `The link points to a cloud metadata service (${shorten(host)}), which can hand out the credentials of the machine you are using.`);
      return;
    case 'localSuffix':
      reasons.block('localName', `The link points to ${shorten(host)}. Names ending in ".${name.suffix ?? ''}" only exist on local or internal networks, and servers must not send you there.`);
      return;
    case 'singleLabel':
      reasons.block('localName', `The link points to "${shorten(host)}", a name without a domain that can only reach a machine on your local or company network. Servers must not send you there.`);
      return;
  }
}

function addIdnReasons(host: string, rawHostPort: string, reasons: ReasonList): void {
  const unicode = toUnicode(host);
  const punycode = host.split('.').some((label) => label.startsWith('xn--'));
  if (punycode) {
    reasons.warn('idn', `The host name contains international characters. It is shown as ${shorten(unicode)} but its actual address is ${shorten(host)}.`);
  } else if (/[^\x20-\x7e]/.test(rawHostPort)) {
    reasons.warn('idn', `The host name is written with special characters that stand for ordinary ones. It will actually open ${shorten(host)}.`);
  }
  if (!punycode) return;

  const labels = unicode.split('.');
  for (const label of labels) {
    const scripts = labelScripts(label);
    if (isMixedScript(scripts)) {
      reasons.warn(
        'mixedScript',
        `The host name mixes letters from different alphabets (${scripts.join(' and ')}) in "${shorten(label)}". This is a common trick to imitate a well-known site.`,
      );
      break;
    }
  }
  if (labels.some(isConfusableLabel)) {
    reasons.warn(
      'confusable',
      `The host name ${shorten(unicode)} uses letters that look like plain Latin letters but are not, so it can pass for ${shorten(skeleton(unicode))}. It is a different site: check the address carefully.`,
    );
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

// Attacker-controlled text goes into messages; keep a long value from pushing the rest of the
// sentence out of the dialog.
function shorten(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
