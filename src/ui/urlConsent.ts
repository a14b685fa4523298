import * as vscode from 'vscode';
import type { UrlAnswer, UrlPrompt } from '../elicitation/presenter';

export interface UrlConsentHooks {
  readonly openExternal: (uri: vscode.Uri) => Thenable<boolean>;
  readonly onBlockServer: () => void;
}

function who(prompt: UrlPrompt): string {
  return prompt.asker.info && prompt.asker.info !== prompt.asker.name ? `${prompt.asker.name} (${prompt.asker.info})` : prompt.asker.name;
}

/** The host with its registrable domain set apart, since a modal cannot change font weight. */
function emphasisedHost(prompt: UrlPrompt): string {
  const d = prompt.analysis.display;
  if (!d) return prompt.url;
  const host = d.hostUnicode;
  const reg = d.registrableDomain;
  if (reg && host !== reg && host.endsWith(`.${reg}`)) return `${host.slice(0, -reg.length)}【${reg}】`;
  return `【${host}】`;
}

/**
 * The consent dialog of url mode. Modal; shows which server asks, its message as plain text,
 * the destination host first, the full URL exactly as it will be opened, and every warning.
 * Nothing is opened except by a click on "Open in Browser" here; a blocked URL has no such button.
 */
export async function showUrlConsent(prompt: UrlPrompt, signal: AbortSignal, hooks: UrlConsentHooks): Promise<UrlAnswer> {
  const a = prompt.analysis;
  const d = a.display;
  const warnings = a.reasons.map((r) => `${r.severity === 'block' ? '⛔' : '⚠'} ${r.message}`);
  const detailLines = [
    vscode.l10n.t('Requested by MCP server “{0}”.', who(prompt)),
    '',
    prompt.message,
    '',
    ...(d && d.hostPunycode !== d.hostUnicode ? [vscode.l10n.t('Host as registered: {0}', d.hostPunycode), ''] : []),
    vscode.l10n.t('Full address:'),
    prompt.url,
    ...(warnings.length ? ['', ...warnings] : []),
  ];
  const detail = detailLines.join('\n');

  if (a.verdict === 'block') {
    const blockServer = vscode.l10n.t('Block this Server');
    const choice = await raceAbort(
      vscode.window.showErrorMessage(vscode.l10n.t('Blocked a link from “{0}”: {1}', prompt.asker.name, emphasisedHost(prompt)), { modal: true, detail }, blockServer),
      signal,
    );
    if (choice === blockServer) hooks.onBlockServer();
    // A blocked URL is never opened; the server hears "decline" whatever the user clicked.
    return { action: 'decline' };
  }

  const open = vscode.l10n.t('Open in Browser');
  const copy = vscode.l10n.t('Copy URL');
  const decline = vscode.l10n.t('Decline');
  const blockServer = vscode.l10n.t('Block this Server');
  const title = vscode.l10n.t('Open {0} in your browser?', emphasisedHost(prompt));
  const show = a.verdict === 'warn' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const choice = await raceAbort(show(title, { modal: true, detail }, open, copy, decline, blockServer), signal);
  if (signal.aborted) return { action: 'cancel' };
  switch (choice) {
    case open: {
      // Exactly the string the server sent and the dialog showed; `true` skips re-encoding.
      const opened = await hooks.openExternal(vscode.Uri.parse(prompt.url, true));
      return { action: 'accept', opened };
    }
    case copy: {
      await vscode.env.clipboard.writeText(prompt.url);
      const yes = vscode.l10n.t('Yes, I will open it');
      const r = await raceAbort(
        vscode.window.showInformationMessage(vscode.l10n.t('The URL is on the clipboard. Will you open it yourself?'), { modal: true, detail: prompt.url }, yes),
        signal,
      );
      return r === yes ? { action: 'accept', opened: false } : { action: 'cancel' };
    }
    case decline:
      return { action: 'decline' };
    case blockServer:
      hooks.onBlockServer();
      return { action: 'decline' };
    default:
      return { action: 'cancel' };
  }
}

/** A modal cannot be closed from code; if the request is withdrawn, stop waiting for it. */
function raceAbort<T>(p: Thenable<T | undefined>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    void Promise.resolve(p).then((v) => {
      signal.removeEventListener('abort', onAbort);
      resolve(v);
    });
  });
}
