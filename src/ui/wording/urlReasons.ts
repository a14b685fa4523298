/**
 * The consent dialog's sentence for each finding of the url analysis. The analysis returns codes
 * and values (`src/elicitation/safety/url.ts`); the words, in the user's language, are chosen here.
 */
import type { UrlReason } from '../../elicitation/safety/url';
import type { Localize } from '../../shared/localize';
import type { DisplayText } from '../../shared/displayText';

export type UrlReasonArg = UrlReason;

/**
 * One or two sentences for a consent dialog. `remoteName` is VS Code's `env.remoteName` for the
 * window (undefined in a local one), passed in so this module stays free of `vscode`: it changes
 * where a loopback page is, and every surface that words a reason must say the same.
 */
export function urlReasonText(r: UrlReason, l10n: Localize, remoteName: DisplayText | undefined): string {
  switch (r.code) {
    case 'malformed':
      return malformedText(r, l10n);
    case 'tooLong':
      return l10n.t(
        'The link is {0} characters long, more than the {1} allowed. Very long links are a common way to hide where they really go.',
        r.length,
        r.max,
      );
    case 'scheme':
      return r.scheme === 'http'
        ? l10n.t('The link uses http, which is not encrypted. Only https links can be opened from a server request.')
        : l10n.t('The link uses the "{0}:" scheme. Only https web links can be opened from a server request.', r.scheme);
    case 'whitespace':
      return r.where === 'edge'
        ? l10n.t('The link begins or ends with blank space. Links must be sent exactly, without padding.')
        : l10n.t('The link contains spaces, line breaks, tabs or other control characters, which can disguise where it goes.');
    case 'invisible':
      return l10n.t(
        'The link contains invisible characters (such as zero-width spaces or text-direction marks) that can disguise where it goes.',
      );
    case 'ambiguous':
      return ambiguousText(r, l10n);
    case 'httpLoopbackAllowed':
      return loopbackAllowedText(r, l10n, remoteName);
    case 'loopbackHost':
      return l10n.t(
        'The link points to this computer ({0}). Servers must not send you to addresses on your own machine.',
        address(r, l10n),
      );
    case 'privateHost':
      return l10n.t(
        'The link points to a private network address ({0}). Servers must not send you to internal addresses.',
        address(r, l10n),
      );
    case 'linkLocalHost':
      return l10n.t(
        'The link points to a link-local address ({0}), which only exists on your local network. Servers must not send you to internal addresses.',
        address(r, l10n),
      );
    case 'cgnatHost':
      return l10n.t(
        "The link points to a carrier-grade NAT address ({0}), which belongs to an internet provider's internal network. Servers must not send you to internal addresses.",
        address(r, l10n),
      );
    case 'unspecifiedHost':
      return l10n.t(
        'The link points to the unspecified address ({0}), which many systems treat as this computer. Servers must not send you to addresses on your own machine.',
        address(r, l10n),
      );
    case 'metadataHost':
      return l10n.t(
        'The link points to a cloud metadata service ({0}), which can hand out the credentials of the machine you are using.',
        address(r, l10n),
      );
    case 'reservedHost':
      return l10n.t(
        'The link points to a reserved, multicast or broadcast address ({0}), which is never an ordinary website.',
        address(r, l10n),
      );
    case 'publicIp':
      return l10n.t(
        'The link points to a bare IP address ({0}) instead of a domain name, so there is no name to tell you who runs the site.',
        address(r, l10n),
      );
    case 'localName':
      return r.suffix === undefined
        ? l10n.t(
            'The link points to "{0}", a name without a domain that can only reach a machine on your local or company network. Servers must not send you there.',
            r.host,
          )
        : l10n.t(
            'The link points to {0}. Names ending in ".{1}" only exist on local or internal networks, and servers must not send you there.',
            r.host,
            r.suffix,
          );
    case 'userInfo':
      return r.userInfo === ''
        ? l10n.t('The link has an "@" sign in front of its host, a form used to disguise links. The real destination is {0}.', r.host)
        : l10n.t('The link starts with "{0}@", but that is not where it goes: the real destination is {1}.', r.userInfo, r.host);
    case 'idn':
      return r.unicode === undefined
        ? l10n.t('The host name is written with special characters that stand for ordinary ones. It will actually open {0}.', r.host)
        : l10n.t('The host name contains international characters. It is shown as {0} but its actual address is {1}.', r.unicode, r.host);
    case 'mixedScript':
      return l10n.t(
        'The host name mixes letters from different alphabets ({0}) in "{1}". This is a common trick to imitate a well-known site.',
        r.scripts.join(' + '),
        r.label,
      );
    case 'confusable':
      return l10n.t(
        'The host name {0} uses letters that look like plain Latin letters but are not, so it can pass for {1}. It is a different site: check the address carefully.',
        r.unicode,
        r.lookalike,
      );
    case 'port':
      return l10n.t('The link uses port {0} instead of the standard https port. Ordinary websites rarely do this.', r.port);
  }
}

/**
 * A `localhost`/`127.0.0.1` page that was allowed: where it is, then why. In a remote window
 * "this computer" is the remote machine, and `openExternal` does not open the address as shown:
 * VS Code forwards the port first (code-server rewrites it to its `/proxy/<port>/` path, desktop
 * remote opens a tunnel), so the browser's address bar shows another one. Said rather than
 * resolved: `asExternalUri` would forward the port before the user agreed. The why-sentences are
 * whole sentences of their own so each is translated once (German words them with "Das", which
 * fits after both "the link" and "the page").
 */
function loopbackAllowedText(
  r: Extract<UrlReason, { code: 'httpLoopbackAllowed' }>,
  l10n: Localize,
  remoteName: DisplayText | undefined,
): string {
  if (remoteName === undefined) {
    return r.because === 'localServer'
      ? l10n.t(
          'The page is on this computer ({0}), like the MCP server asking. It is allowed because that server runs on this computer too.',
          r.host,
        )
      : `${l10n.t('The link points to this computer ({0}).', r.host)} ${settingAllowedIt(l10n)}`;
  }
  const where = l10n.t(
    'The page is on the remote machine this window runs on ({0}), at {1}. VS Code opens it through a forwarded port, so the browser shows a different address.',
    remoteName,
    r.host,
  );
  const why = r.because === 'localServer' ? l10n.t('It is allowed because the MCP server asking runs there too.') : settingAllowedIt(l10n);
  return `${where} ${why}`;
}

function settingAllowedIt(l10n: Localize): string {
  return l10n.t('It is allowed only because local development links are enabled in settings.');
}

function address(r: Extract<UrlReason, { embeddedIn: string | undefined }>, l10n: Localize): string {
  return r.embeddedIn === undefined ? r.host : l10n.t('{0}, hidden inside the IPv6 address {1}', r.host, r.embeddedIn);
}

function malformedText(r: Extract<UrlReason, { code: 'malformed' }>, l10n: Localize): string {
  switch (r.form) {
    case 'empty':
      return l10n.t('The link is empty.');
    case 'schemeRelative':
      return l10n.t('The link has no scheme (it starts with "//"), so it is not a complete web address.');
    case 'noScheme':
      return l10n.t('The link is not a complete web address: it has no scheme such as "https://".');
    case 'unreadable':
      return l10n.t('The link could not be read as a valid web address.');
    case 'emptyLabel':
      return l10n.t("The link's host name ({0}) has an empty part, so it is not a valid address.", r.host);
  }
}

function ambiguousText(r: Extract<UrlReason, { code: 'ambiguous' }>, l10n: Localize): string {
  switch (r.form) {
    case 'backslash':
      return l10n.t(
        'The link contains a backslash (\\) before its query. Browsers and other programs read such links differently, so its real destination is uncertain.',
      );
    case 'noSlashes':
      return l10n.t(
        'The link does not start with the usual "https://" followed by a host name. Browsers and other programs read such links differently, so its real destination is uncertain.',
      );
    case 'percentHost':
      return l10n.t(
        "The link's host name is percent-encoded, which disguises it. Browsers and other programs read such links differently, so its real destination is uncertain.",
      );
  }
}
