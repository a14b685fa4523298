import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

// node:test's describe/it return promises the runner tracks itself; `void` marks that as deliberate.
import type { Field } from '../../src/shared/fieldModel';
import type { FormInit, WebviewStringKey } from '../../src/shared/webviewMessages';
import { contentSecurityPolicy, escapeAttribute, renderFormHtml } from '../../src/ui/form/formHtml';

const PAYLOADS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'onmouseover='", '</body>'];
const ALL = PAYLOADS.join(' ');

const KEYS: readonly WebviewStringKey[] = [
  'accept',
  'decline',
  'cancel',
  'blockServer',
  'required',
  'asks',
  'yes',
  'no',
  'unset',
  'truncated',
  'warningTitle',
  'acceptHint',
  'formatEmail',
  'formatUri',
  'formatDate',
  'formatDateTime',
  'selectAtLeast',
  'selectAtMost',
  'selectBetween',
  'choose',
  'numberRange',
  'numberMin',
  'numberMax',
  'wholeNumber',
  'preview',
  'closed',
];

function strings(): Record<WebviewStringKey, string> {
  const s = Object.fromEntries(KEYS.map((k) => [k, `${k} ${ALL}`])) as Record<WebviewStringKey, string>;
  s.asks = `{0} asks ${ALL}`;
  return s;
}

/** Every place server text can reach: names, message, warnings, field texts, option labels, values. */
function hostileInit(): FormInit {
  const fields: Field[] = [
    {
      kind: 'string',
      key: ALL,
      title: ALL,
      description: ALL,
      required: true,
      secretLike: false,
      default: ALL,
      minLength: undefined,
      maxLength: undefined,
      format: undefined,
      pattern: ALL,
    },
    {
      kind: 'singleSelect',
      key: 'pick',
      title: ALL,
      description: undefined,
      required: false,
      secretLike: false,
      default: undefined,
      options: PAYLOADS.map((p) => ({ value: p, label: p })),
    },
  ];
  return {
    requestId: ALL,
    attribution: { name: ALL, info: ALL, message: `${ALL}\nline two & more`, messageTruncated: true },
    fields,
    warnings: PAYLOADS,
    values: { [ALL]: ALL, pick: PAYLOADS[1] },
    strings: strings(),
    preview: false,
  };
}

const NONCE = 'q83v+AbC/dEf0123456789==';
const CSP_SOURCE = 'https://*.vscode-cdn.net';

function render(init: FormInit = hostileInit()): string {
  return renderFormHtml({
    cspSource: CSP_SOURCE,
    nonce: NONCE,
    scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/webview.js',
    styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/media/form.css',
    init,
  });
}

/** The inverse of escapeAttribute, as an HTML parser decodes these references (&amp; last). */
function unescapeAttribute(s: string): string {
  return s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function attribute(html: string, re: RegExp): string {
  const m = re.exec(html);
  assert.ok(m?.[1] !== undefined, `no match for ${String(re)}`);
  return unescapeAttribute(m[1]);
}

void describe('escapeAttribute', () => {
  void it('escapes all five characters', () => {
    assert.equal(escapeAttribute(`&<>"'`), '&amp;&lt;&gt;&quot;&#39;');
  });
  void it('leaves other text alone and round-trips', () => {
    for (const s of [...PAYLOADS, 'plain', 'ünïcødé ✓', '&amp; already', '']) {
      assert.equal(unescapeAttribute(escapeAttribute(s)), s);
      assert.doesNotMatch(escapeAttribute(s), /[<>"']/);
    }
  });
});

void describe('renderFormHtml', () => {
  void it('sets exactly the expected CSP directives', () => {
    const csp = attribute(render(), /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/);
    const directives = csp
      .split(';')
      .map((d) => d.trim())
      .filter((d) => d !== '');
    assert.deepEqual(directives, [
      "default-src 'none'",
      `script-src 'nonce-${NONCE}'`,
      `style-src ${CSP_SOURCE}`,
      `img-src ${CSP_SOURCE}`,
      `font-src ${CSP_SOURCE}`,
    ]);
    assert.equal(csp, contentSecurityPolicy(CSP_SOURCE, NONCE));
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|http:/);
  });

  void it('puts the nonce on our one script tag and nowhere else', () => {
    const html = render();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    assert.equal(scripts.length, 1);
    assert.ok(scripts[0]?.startsWith(`<script nonce="${NONCE}" src="`), scripts[0]);
    assert.match(scripts[0] ?? '', /src="[^"]+\/media\/webview\.js">$/);
    // Once in the script tag, once inside the CSP; nowhere else (not on the stylesheet link).
    assert.equal(html.split(`nonce="${NONCE}"`).length - 1, 1);
    assert.equal(html.split(NONCE).length - 1, 2);
    assert.doesNotMatch(html.match(/<link\b[^>]*>/)?.[0] ?? '', /nonce/);
  });

  void it('escapes every server-text injection payload', () => {
    const html = render();
    assert.equal((html.match(/<script/gi) ?? []).length, 1, 'no raw <script> other than ours');
    assert.equal((html.match(/<\/body>/g) ?? []).length, 1, 'only our own </body>');
    assert.doesNotMatch(html, /<img/i);
    assert.doesNotMatch(html, /'onmouseover='/);
    // The payload text survives only as escaped text: no raw tag carries an event handler, and the
    // raw tags are exactly our skeleton.
    const tags = html.match(/<[^>]*>/g) ?? [];
    for (const t of tags) assert.doesNotMatch(t.replace(/"[^"]*"/g, '""'), /\son\w+\s*=/i, t.slice(0, 80));
    // Every "onerror=" left in the document sits inside an escaped "&lt;img …&gt;" text run.
    const onerrors = html.split(/onerror=/i).length - 1;
    assert.equal(onerrors, (html.match(/&lt;img src=x onerror=/g) ?? []).length);
    const names = tags.map((t) => /^<\/?([!\w-]+)/.exec(t)?.[1]?.toLowerCase());
    assert.deepEqual(names, [
      '!doctype',
      'html',
      'head',
      'meta',
      'meta',
      'meta',
      'link',
      'title',
      'title',
      'head',
      'body',
      'script',
      'script',
      'body',
      'html',
    ]);
    // Nothing server-controlled can close the data-init attribute early.
    const body = /<body data-init="([^"]*)">/.exec(html);
    assert.ok(body !== null);
    assert.doesNotMatch(body[1] ?? '', /[<>"']/);
  });

  void it('round-trips the init through the attribute', () => {
    const init = hostileInit();
    const back: unknown = JSON.parse(attribute(render(init), /<body data-init="([^"]*)">/));
    assert.deepEqual(back, JSON.parse(JSON.stringify(init)));
  });

  void it('renders a fresh-looking document with the stylesheet from the webview origin', () => {
    const html = render();
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/file\+\.vscode-resource\.vscode-cdn\.net\/ext\/media\/form\.css">/);
    assert.doesNotMatch(html, /\sstyle=/, 'no inline style attributes (the CSP would block them)');
  });
});
