import * as vscode from 'vscode';
import type { SignInAnswer, SignInPrompt, UrlAnswer, UrlPrompt } from '../elicitation/presenter';
import { sanitiseForDisplay } from '../elicitation/safety/text';
import type * as UrlReasons from './wording/urlReasons';
import { positionText } from './quickInput/quickInputParts';
import { displayText } from '../elicitation/safety/displayText';
import * as safe from '../util/safeText';
import { raceAbort } from '../util/async';

export interface UrlConsentHooks {
  /** Gets the server's URL string itself (see `exactTarget`): pass it to `vscode.env.openExternal` unchanged. */
  readonly openExternal: (uri: vscode.Uri) => Thenable<boolean>;
  readonly onBlockServer: () => void;
  /** "Open Again" on an accepted request: the server has its answer, whatever happens here. */
  readonly answered?: boolean;
}

function who(prompt: UrlPrompt | SignInPrompt): string {
  const named =
    prompt.asker.info && prompt.asker.info !== prompt.asker.name ? `${prompt.asker.name} (${prompt.asker.info})` : prompt.asker.name;
  const pos = positionText(prompt.asker);
  return pos ? `${named} · ${pos}` : named;
}

/**
 * The site the link leads to: the registrable domain, in ASCII so look-alike letters cannot hide
 * in it. A modal cannot change font weight, so the site goes in the (bold) title and the full host
 * on the first line below it; bracket characters for emphasis render as boxes without CJK fonts.
 */
function site(prompt: UrlPrompt | SignInPrompt): string {
  const d = prompt.analysis.display;
  const s = d?.registrableDomain || d?.hostPunycode;
  if (s) return s;
  // No host (`javascript:…`, `data:…`, unparsable): the title names the scheme, the detail shows it all.
  return d?.scheme ? `${d.scheme}:` : prompt.url.length > 60 ? `${prompt.url.slice(0, 59)}…` : prompt.url;
}

function hostLine(prompt: UrlPrompt | SignInPrompt): string[] {
  const d = prompt.analysis.display;
  if (!d?.hostUnicode) return [];
  const host =
    d.hostPunycode !== d.hostUnicode ? `${d.hostUnicode} (${vscode.l10n.t('registered as {0}', d.hostPunycode)})` : d.hostUnicode;
  return [vscode.l10n.t('Host: {0}', d.port ? `${host}, ${vscode.l10n.t('port {0}', d.port)}` : host)];
}

/** The url analysis' findings in words, each marked as blocking or as a warning. */
function warningLines(prompt: UrlPrompt | SignInPrompt): string[] {
  return prompt.analysis.reasons.map((r) => `${r.severity === 'block' ? '✖' : '⚠'} ${urlReasonText(r)}`);
}

/**
 * The detail text. The server's message goes last and labelled: it is server-controlled and keeps
 * its line breaks, so anywhere earlier it could imitate the "Full address" line that follows it.
 */
function detailText(prompt: UrlPrompt): string {
  const warnings = warningLines(prompt);
  return [
    ...hostLine(prompt),
    vscode.l10n.t('Requested by MCP server “{0}”.', displayText(who(prompt))),
    '',
    vscode.l10n.t('Full address:'),
    // Shown verbatim: it is what opens. Only a blocked URL (which never opens, and is where
    // invisible or direction-changing characters end up) is shown with them made visible.
    prompt.analysis.verdict === 'block' ? sanitiseForDisplay(prompt.url, 2100).text : prompt.url,
    ...(warnings.length ? ['', ...warnings] : []),
    // VS Code's link protection asks again for domains the user has not trusted, and an extension
    // cannot (and should not) skip it: say so, so the second question is expected, not alarming.
    // See docs/link-protection.md.
    ...(prompt.analysis.verdict === 'block'
      ? []
      : ['', vscode.l10n.t("After “Open in Browser”, VS Code's own link protection may ask once more before the page opens.")]),
    ...(prompt.message ? ['', vscode.l10n.t('Message from the server:'), prompt.message] : []),
  ].join('\n');
}

/**
 * VS Code re-serialises a `Uri` before the browser gets it (`redirect_uri=https%3A%2F%2F…` arrives
 * decoded as `redirect_uri=https://…`), so the page opened would differ from the one shown. The
 * extension host's openExternal passes a string through verbatim, although the API types it as
 * `Uri`; handing it the string is the only way to open exactly what the dialog showed.
 */
function exactTarget(url: string): vscode.Uri {
  return url as unknown as vscode.Uri;
}

/**
 * The consent dialog of url mode. Modal; shows which server asks, its message as plain text,
 * the destination site and host first, the full URL exactly as it will be opened, and every
 * warning. Nothing is opened except by a click on "Open in Browser" here; a blocked URL has no
 * such button.
 */
export async function showUrlConsent(prompt: UrlPrompt, signal: AbortSignal, hooks: UrlConsentHooks): Promise<UrlAnswer> {
  const a = prompt.analysis;
  const detail = detailText(prompt);

  if (a.verdict === 'block') {
    // A blocked URL is never opened and the server hears "decline" at once: the dialog only tells
    // the user why, so neither the server nor the next prompt in the queue waits for it to close.
    // One button: a second one would be the default (VS Code makes the first non-cancel button
    // primary), and Enter should not change a server's policy.
    const ok: vscode.MessageItem = { title: vscode.l10n.t('OK'), isCloseAffordance: true };
    void safe.showErrorMessage(
      safe.l10n.t('Blocked a link from “{0}” to {1}', displayText(prompt.asker.name), displayText(site(prompt))),
      { modal: true, detail },
      ok,
    );
    return { action: 'decline' };
  }

  const open = vscode.l10n.t('Open in Browser');
  const copy = vscode.l10n.t('Copy URL');
  const decline = vscode.l10n.t('Decline');
  const blockServer = vscode.l10n.t('Block this Server');
  const title = safe.l10n.t('Open a page on {0} in your browser?', displayText(site(prompt)));
  const show = a.verdict === 'warn' ? safe.showWarningMessage : safe.showInformationMessage;
  // VS Code makes the first button primary and focuses it, so Enter presses it. The dialog opens
  // when the server asks, maybe while the user is typing elsewhere: a stray Enter must not open the
  // page, so Decline comes first for every link and opening always takes a click (or Tab).
  const buttons = [decline, open, copy, blockServer];
  const choice = await modalUnlessWithdrawn(show(title, { modal: true, detail }, ...buttons), signal);
  if (signal.aborted) return { action: 'cancel' };
  switch (choice) {
    case open:
      if (await hooks.openExternal(exactTarget(prompt.url))) return { action: 'accept', browser: 'opened' };
      return browserDidNotOpen(prompt, signal, hooks);
    case copy:
      return (await copyAndConfirm(prompt, signal)) ? { action: 'accept' } : { action: 'cancel' };
    case decline:
      return { action: 'decline' };
    case blockServer:
      hooks.onBlockServer();
      return { action: 'decline' };
    default:
      return { action: 'cancel' };
  }
}

/**
 * The consent before sign-in (issue 25): the url consent's dialog for the authorization URL the
 * SDK built. It names the MCP server that asked and the site and host where the user signs in,
 * with every warning of the url analysis; nothing opens before "Sign In in Browser". A blocked
 * address is shown, never opened.
 */
export async function showSignInConsent(
  prompt: SignInPrompt,
  signal: AbortSignal,
  hooks: Pick<UrlConsentHooks, 'openExternal'>,
): Promise<SignInAnswer> {
  const a = prompt.analysis;
  const warnings = warningLines(prompt);
  const detail = [
    ...hostLine(prompt),
    vscode.l10n.t(
      'MCP server “{0}” requires you to sign in. You sign in on the page above; the browser then returns to VS Code.',
      displayText(who(prompt)),
    ),
    '',
    vscode.l10n.t('Full address:'),
    a.verdict === 'block' ? sanitiseForDisplay(prompt.url, 2100).text : prompt.url,
    ...(warnings.length ? ['', ...warnings] : []),
    ...(a.verdict === 'block'
      ? []
      : ['', vscode.l10n.t("After “Sign In in Browser”, VS Code's own link protection may ask once more before the page opens.")]),
  ].join('\n');
  if (a.verdict === 'block') {
    const ok: vscode.MessageItem = { title: vscode.l10n.t('OK'), isCloseAffordance: true };
    void safe.showErrorMessage(
      safe.l10n.t('Blocked the sign-in page of “{0}” on {1}', displayText(prompt.asker.name), displayText(site(prompt))),
      { modal: true, detail },
      ok,
    );
    return 'declined';
  }
  const open = vscode.l10n.t('Sign In in Browser');
  // Not "Cancel": VS Code adds its own Cancel to every modal dialog, and two would show.
  const decline = vscode.l10n.t('Decline');
  const title = safe.l10n.t('Sign in to “{0}” on {1}?', displayText(prompt.asker.name), displayText(site(prompt)));
  const show = a.verdict === 'warn' ? safe.showWarningMessage : safe.showInformationMessage;
  // As for url mode: the dialog opens by itself, so the default (Enter) is Decline, and signing in takes a click.
  const buttons = [decline, open];
  const choice = await modalUnlessWithdrawn(show(title, { modal: true, detail }, ...buttons), signal);
  if (signal.aborted) return 'cancelled';
  if (choice === decline) return 'declined';
  if (choice !== open) return 'cancelled';
  return (await hooks.openExternal(exactTarget(prompt.url))) ? 'opened' : 'cancelled';
}

/** Copy URL: the user takes the link; only "I will open it" makes it an `accept`. */
async function copyAndConfirm(prompt: UrlPrompt, signal: AbortSignal): Promise<boolean> {
  await vscode.env.clipboard.writeText(prompt.url);
  const yes = vscode.l10n.t('Yes, I will open it');
  const r = await modalUnlessWithdrawn(
    safe.showInformationMessage(
      safe.l10n.t('The URL is on the clipboard. Will you open it yourself?'),
      { modal: true, detail: prompt.url },
      yes,
    ),
    signal,
  );
  return r === yes;
}

/**
 * "Open in Browser" was clicked, but `openExternal` resolved false: the user turned down VS Code's
 * own link prompt, or there is no browser to open. Not `accept`: the spec's url flow opens the
 * page before the client accepts ("Client->>UserAgent: Open URL", 2026-07-28 elicitation.mdx), and
 * it names "browser failed to load" as a case of `cancel` (dismissed without an explicit choice).
 * Not `decline`: the user never said no to the server. The user is told, and can still take the
 * link and open it elsewhere, which is the Copy URL path and its `accept`.
 */
async function browserDidNotOpen(prompt: UrlPrompt, signal: AbortSignal, hooks: UrlConsentHooks): Promise<UrlAnswer> {
  if (signal.aborted) return { action: 'cancel' };
  const copy = vscode.l10n.t('Copy URL');
  const detail = [
    vscode.l10n.t('VS Code did not open the page: its link prompt was closed without “Open”, or no browser is available.'),
    ...(hooks.answered
      ? []
      : [vscode.l10n.t('Unless you open it yourself, “{0}” is told the request was cancelled.', displayText(prompt.asker.name))]),
    '',
    vscode.l10n.t('Full address:'),
    prompt.url,
  ].join('\n');
  const choice = await modalUnlessWithdrawn(
    safe.showWarningMessage(safe.l10n.t('The page on {0} did not open', displayText(site(prompt))), { modal: true, detail }, copy),
    signal,
  );
  if (signal.aborted) return { action: 'cancel' };
  if (choice === copy && (await copyAndConfirm(prompt, signal)) && !signal.aborted) return { action: 'accept', browser: 'notOpened' };
  return { action: 'cancel', browser: 'notOpened' };
}

/** A modal cannot be closed from code; if the request is withdrawn, stop waiting for it (as if closed). */
function modalUnlessWithdrawn<T>(modal: Thenable<T | undefined>, signal: AbortSignal): Promise<T | undefined> {
  return raceAbort(Promise.resolve(modal), signal, () => undefined);
}

let reasons: typeof UrlReasons | undefined;
/**
 * A finding of the url analysis in words, for this window: in a remote one (`env.remoteName`) a
 * loopback page is on the remote machine (see `loopbackAllowedText`). Every surface words reasons
 * through here, so none can forget the window. The sentences load with the first url request
 * (dist/urlReasons.js, scripts/build.mjs): most sessions never show one.
 */
export function urlReasonText(r: UrlReasons.UrlReasonArg): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; see scripts/build.mjs
  reasons ??= require('./wording/urlReasons') as typeof UrlReasons;
  const remote = vscode.env.remoteName;
  return reasons.urlReasonText(r, vscode.l10n, remote === undefined ? undefined : displayText(remote));
}
