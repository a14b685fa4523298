/**
 * The form webview's HTML, as a pure function so the CSP and the escaping are unit-tested in
 * plain Node. The panel passes in the webview's `cspSource` and resource URIs.
 * Model: VS Code's markdown preview: a fresh nonce per render, scripts by nonce only, styles,
 * images and fonts from the extension only, and the initial state in an escaped `data-` attribute.
 */
import type { FormInit } from '../../shared/webviewMessages';

export interface FormHtmlParams {
  /** `webview.cspSource`. */
  readonly cspSource: string;
  /** Fresh per render, from a CSPRNG (see `newNonce` in formPanel.ts). */
  readonly nonce: string;
  /** `asWebviewUri(media/webview.js)`, as a string. */
  readonly scriptUri: string;
  /** `asWebviewUri(media/form.css)`, as a string. */
  readonly styleUri: string;
  readonly init: FormInit;
  /** BCP 47 language of the UI strings (`vscode.env.language`), for screen readers and hyphenation. */
  readonly lang?: string;
}

/**
 * Escapes text for a double- or single-quoted HTML attribute (and for element text). All five
 * characters go, so the value can neither end the attribute nor open a tag, whatever quoting is used.
 */
export function escapeAttribute(s: string): string {
  return s.replace(/[&<>"']/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      default:
        return '&#39;';
    }
  });
}

/** The Content-Security-Policy: nothing by default; no inline code, no eval, nothing remote. */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src ${cspSource}`, `img-src ${cspSource}`, `font-src ${cspSource}`]
    .map((d) => `${d};`)
    .join(' ');
}

export function renderFormHtml(p: FormHtmlParams): string {
  const a = escapeAttribute;
  // A function replacer: a server name such as "$&" must not be read as a replacement pattern.
  const title = p.init.strings.asks.replace('{0}', () => p.init.attribution.name);
  return `<!DOCTYPE html>
<html lang="${a(p.lang ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${a(contentSecurityPolicy(p.cspSource, p.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${a(p.styleUri)}">
<title>${a(title)}</title>
</head>
<body data-init="${a(JSON.stringify(p.init))}">
<script nonce="${a(p.nonce)}" src="${a(p.scriptUri)}"></script>
</body>
</html>
`;
}
