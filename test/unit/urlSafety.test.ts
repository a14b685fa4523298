import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  analyseUrl,
  DEFAULT_MAX_URL_LENGTH,
  stripQuery,
  type UrlReason,
  type UrlReasonCode,
  type UrlSafetyOptions,
  type UrlVerdict,
} from '../../src/elicitation/safety/url';
import { urlReasonText } from '../../src/ui/wording/urlReasons';
import { english } from './support/localize';

/** A reason as the consent dialog words it in English. */
function say(reason: UrlReason | undefined): string {
  assert.ok(reason, 'a reason');
  return urlReasonText(reason, english, undefined);
}

interface Case {
  readonly url: string;
  readonly verdict: UrlVerdict;
  readonly codes: readonly UrlReasonCode[];
  readonly options?: UrlSafetyOptions;
}

const DEV: UrlSafetyOptions = { allowHttpLoopback: true };
const LONG_PATH = 'a'.repeat(DEFAULT_MAX_URL_LENGTH);

// Each row is one URL a server might send, with the exact set of findings we expect.
const CASES: readonly Case[] = [
  // Ordinary https links.
  { url: 'https://example.com/', verdict: 'allow', codes: [] },
  { url: 'HTTPS://EXAMPLE.COM/', verdict: 'allow', codes: [] },
  { url: 'https://example.com./', verdict: 'allow', codes: [] },
  { url: 'https://example.com:443/oauth', verdict: 'allow', codes: [] },
  { url: 'https://mcp.example.com/ui/set_api_key', verdict: 'allow', codes: [] },
  { url: 'https://accounts.google.com/o/oauth2/v2/auth?client_id=x&redirect_uri=https%3A%2F%2Fa.b%2Fcb', verdict: 'allow', codes: [] },
  { url: 'https://sub.example.co.uk/path?x=1#frag', verdict: 'allow', codes: [] },
  { url: 'https://1e1.com/', verdict: 'allow', codes: [] },
  { url: 'https://12.com/', verdict: 'allow', codes: [] },
  { url: 'https://example.com/?path=C:\\temp', verdict: 'allow', codes: [] },
  { url: 'https://example.com/#\\@evil.com', verdict: 'allow', codes: [] },
  { url: 'https://local.example.com/', verdict: 'allow', codes: [] },
  { url: 'https://internal.example.com/', verdict: 'allow', codes: [] },
  { url: 'https://localhost.example.com/', verdict: 'allow', codes: [] },
  { url: 'https://good.com#@evil.com', verdict: 'allow', codes: [] },
  { url: 'https://good.com?@evil.com', verdict: 'allow', codes: [] },
  { url: `https://example.com/${'a'.repeat(DEFAULT_MAX_URL_LENGTH - 'https://example.com/'.length)}`, verdict: 'allow', codes: [] },

  // Schemes other than https.
  { url: 'javascript:alert(1)', verdict: 'block', codes: ['scheme'] },
  { url: 'JavaScript:alert(document.cookie)', verdict: 'block', codes: ['scheme'] },
  { url: 'data:text/html,<script>alert(1)</script>', verdict: 'block', codes: ['scheme'] },
  { url: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', verdict: 'block', codes: ['scheme'] },
  { url: 'file:///etc/passwd', verdict: 'block', codes: ['scheme'] },
  { url: 'file://C:/Windows/win.ini', verdict: 'block', codes: ['scheme'] },
  { url: 'vscode://vscode.git/clone?url=https://evil.com/repo', verdict: 'block', codes: ['scheme'] },
  { url: 'vscode-insiders://ms-vscode.remote-server/', verdict: 'block', codes: ['scheme'] },
  { url: 'command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%22%7D', verdict: 'block', codes: ['scheme'] },
  { url: 'ftp://example.com/file', verdict: 'block', codes: ['scheme'] },
  { url: 'mailto:someone@example.com', verdict: 'block', codes: ['scheme'] },
  { url: 'blob:https://example.com/0b1c', verdict: 'block', codes: ['scheme'] },
  { url: 'about:blank', verdict: 'block', codes: ['scheme'] },
  { url: 'wss://example.com/socket', verdict: 'block', codes: ['scheme'] },
  { url: 'view-source:https://example.com/', verdict: 'block', codes: ['scheme'] },
  { url: 'http://example.com/', verdict: 'block', codes: ['scheme'] },
  { url: 'http://10.0.0.1/', verdict: 'block', codes: ['scheme', 'privateHost'] },
  { url: 'http://localhost:3000/', verdict: 'block', codes: ['scheme', 'loopbackHost'] },

  // Unparseable or structurally broken.
  { url: '', verdict: 'block', codes: ['malformed'] },
  { url: '/oauth', verdict: 'block', codes: ['malformed'] },
  { url: '//evil.com', verdict: 'block', codes: ['malformed'] },
  { url: 'example.com', verdict: 'block', codes: ['malformed'] },
  { url: 'https://', verdict: 'block', codes: ['malformed'] },
  { url: 'https://[fe80::1%25eth0]/', verdict: 'block', codes: ['malformed'] },
  { url: 'https://256.1.1.1/', verdict: 'block', codes: ['malformed'] },
  { url: 'https://xn--a.com/', verdict: 'block', codes: ['malformed'] },
  { url: 'https://example.com:65536/', verdict: 'block', codes: ['malformed'] },
  { url: 'https://a..b.com/', verdict: 'block', codes: ['malformed'] },
  { url: 'https://.example.com/', verdict: 'block', codes: ['malformed'] },

  // Whitespace, control and invisible characters: never trimmed, always refused.
  { url: ' https://example.com/', verdict: 'block', codes: ['whitespace'] },
  { url: 'https://example.com/ ', verdict: 'block', codes: ['whitespace'] },
  { url: 'https://example.com/\n', verdict: 'block', codes: ['whitespace'] },
  { url: 'https://exa\nmple.com/', verdict: 'block', codes: ['whitespace'] },
  { url: 'https://example.com\t.evil.com/', verdict: 'block', codes: ['whitespace'] },
  { url: 'https://example.com/a b', verdict: 'block', codes: ['whitespace'] },
  { url: 'https://example.com/\u0000', verdict: 'block', codes: ['whitespace'] },
  { url: '\ufeffhttps://example.com/', verdict: 'block', codes: ['whitespace', 'malformed'] },
  { url: 'https://exa mple.com/', verdict: 'block', codes: ['whitespace', 'malformed'] },
  { url: 'https://exa\u200bmple.com/', verdict: 'block', codes: ['invisible', 'idn'] },
  { url: 'https://exa\u00admple.com/', verdict: 'block', codes: ['invisible', 'idn'] },
  { url: 'https://example.com/\u202egnp.exe', verdict: 'block', codes: ['invisible'] },
  { url: 'https://a\u202eb.com/', verdict: 'block', codes: ['invisible', 'malformed'] },

  // Length.
  { url: `https://example.com/${LONG_PATH}`, verdict: 'block', codes: ['tooLong'] },
  { url: 'https://example.com/abc', verdict: 'block', codes: ['tooLong'], options: { maxLength: 10 } },

  // IPv4 literals in every spelling the WHATWG parser accepts.
  { url: 'https://127.0.0.1/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://127.255.255.254/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://0x7f000001/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://2130706433/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://0177.0.0.1/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://017700000001/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://127.1/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://0x7f.0.0.1/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://127.0.0.1./', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://\uff11\uff12\uff17.0.0.1/', verdict: 'block', codes: ['loopbackHost', 'idn'] },
  { url: 'https://%31%32%37.0.0.1/', verdict: 'block', codes: ['ambiguous', 'loopbackHost'] },
  { url: 'https://10.0.0.5/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://10.0.0.1:8443/', verdict: 'block', codes: ['privateHost', 'port'] },
  { url: 'https://172.16.0.1/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://172.31.255.255/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://172.32.0.1/', verdict: 'warn', codes: ['publicIp'] },
  { url: 'https://192.168.1.1/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://169.254.169.254/latest/meta-data', verdict: 'block', codes: ['metadataHost'] },
  { url: 'https://169.254.170.2/v2/credentials', verdict: 'block', codes: ['metadataHost'] },
  { url: 'https://100.100.100.200/latest/meta-data', verdict: 'block', codes: ['metadataHost'] },
  { url: 'https://169.254.1.1/', verdict: 'block', codes: ['linkLocalHost'] },
  { url: 'https://100.64.0.1/', verdict: 'block', codes: ['cgnatHost'] },
  { url: 'https://100.127.255.255/', verdict: 'block', codes: ['cgnatHost'] },
  { url: 'https://100.128.0.1/', verdict: 'warn', codes: ['publicIp'] },
  { url: 'https://0.0.0.0/', verdict: 'block', codes: ['unspecifiedHost'] },
  { url: 'https://0/', verdict: 'block', codes: ['unspecifiedHost'] },
  { url: 'https://224.0.0.1/', verdict: 'block', codes: ['reservedHost'] },
  { url: 'https://240.0.0.1/', verdict: 'block', codes: ['reservedHost'] },
  { url: 'https://255.255.255.255/', verdict: 'block', codes: ['reservedHost'] },
  { url: 'https://192.0.2.1/', verdict: 'block', codes: ['reservedHost'] },
  { url: 'https://8.8.8.8/', verdict: 'warn', codes: ['publicIp'] },
  { url: 'https://1.2.3/', verdict: 'warn', codes: ['publicIp'] },

  // IPv6 literals, including forms that carry an IPv4 destination.
  { url: 'https://[::1]/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://[0:0:0:0:0:0:0:1]/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://[::]/', verdict: 'block', codes: ['unspecifiedHost'] },
  { url: 'https://[fd00::1]/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://[fc00::1]/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://[fec0::1]/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://[fe80::1]/', verdict: 'block', codes: ['linkLocalHost'] },
  { url: 'https://[febf::1]/', verdict: 'block', codes: ['linkLocalHost'] },
  { url: 'https://[ff02::1]/', verdict: 'block', codes: ['reservedHost'] },
  { url: 'https://[2001:db8::1]/', verdict: 'block', codes: ['reservedHost'] },
  { url: 'https://[4000::1]/', verdict: 'block', codes: ['reservedHost'] },
  { url: 'https://[fd00:ec2::254]/latest/meta-data', verdict: 'block', codes: ['metadataHost'] },
  { url: 'https://[::ffff:127.0.0.1]/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://[::ffff:7f00:1]/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://[::ffff:169.254.169.254]/', verdict: 'block', codes: ['metadataHost'] },
  { url: 'https://[::ffff:10.0.0.1]/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://[::ffff:8.8.8.8]/', verdict: 'warn', codes: ['publicIp'] },
  { url: 'https://[::127.0.0.1]/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://[::ffff:0:7f00:1]/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://[64:ff9b::10.0.0.1]/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://[64:ff9b::a9fe:a9fe]/', verdict: 'block', codes: ['metadataHost'] },
  { url: 'https://[64:ff9b::8.8.8.8]/', verdict: 'warn', codes: ['publicIp'] },
  { url: 'https://[64:ff9b:1::1]/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://[2002:7f00:1::]/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://[2002:c0a8:101::1]/', verdict: 'block', codes: ['privateHost'] },
  { url: 'https://[2002:808:808::1]/', verdict: 'warn', codes: ['publicIp'] },
  { url: 'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://[2001:4860:4860::8888]/', verdict: 'warn', codes: ['publicIp'] },

  // Names that only resolve locally.
  { url: 'https://localhost/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://LOCALHOST:8080/', verdict: 'block', codes: ['loopbackHost', 'port'] },
  { url: 'https://localhost./', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://app.localhost/', verdict: 'block', codes: ['loopbackHost'] },
  { url: 'https://metadata.google.internal/computeMetadata/v1/', verdict: 'block', codes: ['metadataHost'] },
  { url: 'https://metadata/computeMetadata/v1/', verdict: 'block', codes: ['metadataHost'] },
  { url: 'https://printer.local/', verdict: 'block', codes: ['localName'] },
  { url: 'https://printer.local./', verdict: 'block', codes: ['localName'] },
  { url: 'https://service.internal/', verdict: 'block', codes: ['localName'] },
  { url: 'https://router.lan/', verdict: 'block', codes: ['localName'] },
  { url: 'https://nas.home.arpa/', verdict: 'block', codes: ['localName'] },
  { url: 'https://wiki.intranet/', verdict: 'block', codes: ['localName'] },
  { url: 'https://myapp.test/', verdict: 'block', codes: ['localName'] },
  { url: 'https://intranet/', verdict: 'block', codes: ['localName'] },
  { url: 'https://local/', verdict: 'block', codes: ['localName'] },
  { url: 'https://home.arpa/', verdict: 'block', codes: ['localName'] },
  { url: 'https://intranet./', verdict: 'block', codes: ['localName'] },

  // Credentials before the host.
  { url: 'https://good.com@evil.com', verdict: 'warn', codes: ['userInfo'] },
  { url: 'https://good.example@evil.example/', verdict: 'warn', codes: ['userInfo'] },
  { url: 'https://user:pass@example.com/', verdict: 'warn', codes: ['userInfo'] },
  { url: 'https://@example.com/', verdict: 'warn', codes: ['userInfo'] },
  { url: 'https://accounts.google.com@10.0.0.1/', verdict: 'block', codes: ['userInfo', 'privateHost'] },

  // Spellings that parsers disagree on.
  { url: 'https://evil.com\\@good.com', verdict: 'block', codes: ['ambiguous'] },
  { url: 'https://evil.com\\.good.com/', verdict: 'block', codes: ['ambiguous'] },
  { url: 'https:evil.com', verdict: 'block', codes: ['ambiguous'] },
  { url: 'https:/evil.com', verdict: 'block', codes: ['ambiguous'] },
  { url: 'https:///evil.com', verdict: 'block', codes: ['ambiguous'] },
  { url: 'https:\\\\evil.com', verdict: 'block', codes: ['ambiguous'] },
  { url: 'https://ex%61mple.com/', verdict: 'block', codes: ['ambiguous'] },

  // International and look-alike host names.
  { url: 'https://\u0430pple.com', verdict: 'warn', codes: ['idn', 'mixedScript', 'confusable'] },
  { url: 'https://xn--pple-43d.com', verdict: 'warn', codes: ['idn', 'mixedScript', 'confusable'] },
  { url: 'https://g\u03bf\u03bfgle.com/', verdict: 'warn', codes: ['idn', 'mixedScript', 'confusable'] },
  { url: 'https://xn--80ak6aa92e.com/', verdict: 'warn', codes: ['idn', 'confusable'] },
  { url: 'https://\u0440\u0430\u0443\u0440\u0430\u04cf.com/', verdict: 'warn', codes: ['idn', 'confusable'] },
  { url: 'https://g\u0131thub.com/', verdict: 'warn', codes: ['idn', 'confusable'] },
  { url: 'https://abc\u043f\u0440\u0438\u043c\u0435\u0440.com/', verdict: 'warn', codes: ['idn', 'mixedScript'] },
  { url: 'https://m\u00fcnchen.de/', verdict: 'warn', codes: ['idn'] },
  { url: 'https://xn--mnchen-3ya.de/', verdict: 'warn', codes: ['idn'] },
  { url: 'https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/', verdict: 'warn', codes: ['idn'] },
  { url: 'https://\u03b1\u03b2\u03b3.gr/', verdict: 'warn', codes: ['idn'] },
  { url: 'https://\u4f8b\u5b50.\u4e2d\u56fd/', verdict: 'warn', codes: ['idn'] },
  { url: 'https://\u6771\u4eacabc.jp/', verdict: 'warn', codes: ['idn'] },
  { url: 'https://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com/', verdict: 'warn', codes: ['idn'] },
  { url: 'https://good.com\u3002evil.com/', verdict: 'warn', codes: ['idn'] },

  // Ports.
  { url: 'https://example.com:8443/', verdict: 'warn', codes: ['port'] },
  { url: 'https://example.com:08443/', verdict: 'warn', codes: ['port'] },
  { url: 'https://example.com:80/', verdict: 'warn', codes: ['port'] },
  { url: 'https://example.com:0/', verdict: 'warn', codes: ['port'] },

  // Local development opt-in: only the canonical loopback hosts, always with a warning.
  { url: 'http://localhost:3000/callback', verdict: 'warn', codes: ['httpLoopbackAllowed'], options: DEV },
  { url: 'http://127.0.0.1:8080/', verdict: 'warn', codes: ['httpLoopbackAllowed'], options: DEV },
  { url: 'http://[::1]:9000/', verdict: 'warn', codes: ['httpLoopbackAllowed'], options: DEV },
  { url: 'http://localhost/', verdict: 'warn', codes: ['httpLoopbackAllowed'], options: DEV },
  { url: 'https://localhost:8443/', verdict: 'warn', codes: ['httpLoopbackAllowed'], options: DEV },
  { url: 'https://127.0.0.1/', verdict: 'warn', codes: ['httpLoopbackAllowed'], options: DEV },
  { url: 'http://user@localhost/', verdict: 'warn', codes: ['httpLoopbackAllowed', 'userInfo'], options: DEV },
  { url: 'http://127.0.0.2/', verdict: 'block', codes: ['scheme', 'loopbackHost'], options: DEV },
  { url: 'http://app.localhost/', verdict: 'block', codes: ['scheme', 'loopbackHost'], options: DEV },
  { url: 'http://[::ffff:127.0.0.1]/', verdict: 'block', codes: ['scheme', 'loopbackHost'], options: DEV },
  { url: 'http://example.com/', verdict: 'block', codes: ['scheme'], options: DEV },
  { url: 'http://10.0.0.1/', verdict: 'block', codes: ['scheme', 'privateHost'], options: DEV },
  { url: 'javascript:alert(1)', verdict: 'block', codes: ['scheme'], options: DEV },
  { url: 'http://localhost/', verdict: 'block', codes: ['scheme', 'loopbackHost'], options: { allowHttpLoopback: false } },
];

function label(testCase: Case): string {
  const shown = JSON.stringify(testCase.url);
  const url = shown.length > 90 ? `${shown.slice(0, 60)}…(${testCase.url.length} chars)` : shown;
  return testCase.options ? `${url} with ${JSON.stringify(testCase.options)}` : url;
}

void describe('analyseUrl: verdict and reason codes', () => {
  void it('has a large table', () => {
    assert.ok(CASES.length >= 70, `only ${CASES.length} cases`);
  });

  for (const testCase of CASES) {
    void it(label(testCase), () => {
      const analysis = analyseUrl(testCase.url, testCase.options);
      const codes = analysis.reasons.map((r) => r.code);
      assert.deepEqual([...codes].sort(), [...testCase.codes].sort());
      assert.equal(analysis.verdict, testCase.verdict);
      assert.equal(new Set(codes).size, codes.length, 'each code appears once');
      for (const reason of analysis.reasons) {
        const text = urlReasonText(reason, english, undefined);
        assert.match(text, /^[A-Z].*\.$/s, `worded as a sentence: ${text}`);
      }
      if (analysis.display) assert.equal(analysis.display.url, testCase.url);
      else assert.ok(codes.includes('malformed'), 'display is only missing for malformed links');
    });
  }
});

void describe('analyseUrl: verdict follows severities', () => {
  void it('blocks when any reason blocks, even if others only warn', () => {
    const analysis = analyseUrl('https://user@10.0.0.1:8443/');
    assert.equal(analysis.verdict, 'block');
    assert.deepEqual(
      analysis.reasons.map((r) => [r.code, r.severity]),
      [
        ['privateHost', 'block'],
        ['userInfo', 'warn'],
        ['port', 'warn'],
      ],
    );
  });

  void it('never throws on hostile input', () => {
    for (const input of ['\u0000', '::::', 'https://[', 'https://[::1', '%', '\ud800', 'https://\ud800.com/']) {
      assert.equal(analyseUrl(input).verdict, 'block', JSON.stringify(input));
    }
  });
});

void describe('analyseUrl: display parts', () => {
  void it('keeps the exact input and splits it into parts', () => {
    const url = 'https://Login.Example.co.uk:8443/a/./b/../c?state=xyz&code=1#frag';
    const display = analyseUrl(url).display;
    assert.deepEqual(display, {
      url,
      scheme: 'https',
      hostUnicode: 'login.example.co.uk',
      hostPunycode: 'login.example.co.uk',
      registrableDomain: 'example.co.uk',
      port: '8443',
      path: '/a/c',
      query: '?state=xyz&code=1',
      userInfo: undefined,
    });
  });

  void it('shows both forms of an IDN host, from either spelling', () => {
    for (const url of ['https://\u0430pple.com/login', 'https://xn--pple-43d.com/login']) {
      const display = analyseUrl(url).display;
      assert.equal(display?.url, url);
      assert.equal(display?.hostUnicode, '\u0430pple.com');
      assert.equal(display?.hostPunycode, 'xn--pple-43d.com');
      assert.equal(display?.registrableDomain, 'xn--pple-43d.com');
    }
  });

  void it('names both forms in the idn message', () => {
    const idn = analyseUrl('https://\u0430pple.com/').reasons.find((r) => r.code === 'idn');
    assert.deepEqual(idn, { code: 'idn', severity: 'warn', unicode: '\u0430pple.com', host: 'xn--pple-43d.com' });
    assert.ok(idn && say(idn).includes('\u0430pple.com') && say(idn).includes('xn--pple-43d.com'));
    const confusable = analyseUrl('https://\u0430pple.com/').reasons.find((r) => r.code === 'confusable');
    assert.equal(confusable?.code === 'confusable' && confusable.lookalike, 'apple.com');
    assert.ok(confusable && say(confusable).includes('apple.com'));
  });

  const registrable: readonly (readonly [url: string, expected: string])[] = [
    ['https://example.com/', 'example.com'],
    ['https://a.b.example.com/', 'example.com'],
    ['https://example.com./', 'example.com'],
    ['https://www.bbc.co.uk/', 'bbc.co.uk'],
    ['https://shop.example.org.uk/', 'example.org.uk'],
    ['https://www.ox.ac.uk/', 'ox.ac.uk'],
    ['https://www.example.com.au/', 'example.com.au'],
    ['https://www.example.co.jp/', 'example.co.jp'],
    ['https://alice.github.io/project', 'alice.github.io'],
    ['https://my-app.herokuapp.com/', 'my-app.herokuapp.com'],
    ['https://preview.my-app.vercel.app/', 'my-app.vercel.app'],
    ['https://site.pages.dev/', 'site.pages.dev'],
    ['https://d111111abcdef8.cloudfront.net/', 'd111111abcdef8.cloudfront.net'],
    ['https://app.azurewebsites.net/', 'app.azurewebsites.net'],
    ['https://proj.appspot.com/', 'proj.appspot.com'],
    ['https://bucket.s3.amazonaws.com/key', 'bucket.s3.amazonaws.com'],
    ['https://github.io/', 'github.io'],
    ['https://api.example.dev/', 'example.dev'],
    // A suffix the Public Suffix List does not know: the whole host, not a guess.
    ['https://x.y.example.unknowntld/', 'x.y.example.unknowntld'],
    ['https://a.b.c.zzz/', 'a.b.c.zzz'],
    ['https://8.8.8.8/', '8.8.8.8'],
    ['https://[2001:4860:4860::8888]/', '[2001:4860:4860::8888]'],
    ['https://\u00e4.example.de/', 'example.de'],
    // Private section of the PSL: hosting platforms where each customer owns a subdomain.
    ['https://mybucket.s3.us-east-1.amazonaws.com/key', 'mybucket.s3.us-east-1.amazonaws.com'],
    ['https://bucket.s3.eu-west-2.amazonaws.com/', 'bucket.s3.eu-west-2.amazonaws.com'],
    ['https://mybucket.s3-website-us-east-1.amazonaws.com/', 'mybucket.s3-website-us-east-1.amazonaws.com'],
    ['https://abc.execute-api.us-east-1.amazonaws.com/prod', 'abc.execute-api.us-east-1.amazonaws.com'],
    ['https://ec2-1-2-3-4.compute-1.amazonaws.com/', 'ec2-1-2-3-4.compute-1.amazonaws.com'],
    ['https://s3.us-east-1.amazonaws.com/bucket', 's3.us-east-1.amazonaws.com'],
    ['https://phish.trycloudflare.com/login', 'phish.trycloudflare.com'],
    ['https://trycloudflare.com/', 'trycloudflare.com'],
    ['https://x.blogspot.com/', 'x.blogspot.com'],
    ['https://foo.web.app/', 'foo.web.app'],
    ['https://a.ngrok-free.app/', 'a.ngrok-free.app'],
    ['https://user.gitlab.io/', 'user.gitlab.io'],
    ['https://foo.github.io/', 'foo.github.io'],
    ['https://proj.firebaseapp.com/', 'proj.firebaseapp.com'],
    ['https://name.netlify.app/', 'name.netlify.app'],
    ['https://app.onrender.com/', 'app.onrender.com'],
    ['https://app.fly.dev/', 'app.fly.dev'],
    ['https://x.workers.dev/', 'x.workers.dev'],
    ['https://my.site.vercel.app/', 'site.vercel.app'],
    ['https://x.herokuapp.com/', 'x.herokuapp.com'],
    ['https://foo.appspot.com/', 'foo.appspot.com'],
    ['https://myapp.azurewebsites.net/', 'myapp.azurewebsites.net'],
    ['https://raw.githubusercontent.com/o/r/main/x', 'raw.githubusercontent.com'],
    // ICANN section: second levels, wildcards and their exceptions.
    ['https://foo.bar.co.il/', 'bar.co.il'],
    ['https://accounts.google.com/o/oauth2', 'google.com'],
    ['https://login.microsoftonline.com/common', 'microsoftonline.com'],
    ['https://login.example.co.uk/', 'example.co.uk'],
    ['https://a.b.c.d.example.com/', 'example.com'],
    ['https://foo.bar.k12.ca.us/', 'bar.k12.ca.us'],
    ['https://a.b.kawasaki.jp/', 'a.b.kawasaki.jp'],
    ['https://city.kawasaki.jp/', 'city.kawasaki.jp'],
    ['https://sub.example.ck/', 'sub.example.ck'],
    ['https://www.ck/', 'www.ck'],
    ['https://shop.example.com.br/', 'example.com.br'],
    ['https://www.example.com.cn/', 'example.com.cn'],
    ['https://news.example.co.za/', 'example.co.za'],
    ['https://www.example.org.au/', 'example.org.au'],
    ['https://shop.example.co.nz/', 'example.co.nz'],
    ['https://www.example.ac.jp/', 'example.ac.jp'],
    ['https://sub.example.de/', 'example.de'],
    // A public suffix itself: nothing narrower to show.
    ['https://www.gov.uk/', 'www.gov.uk'],
    ['https://co.uk/', 'co.uk'],
    // IDN: computed and shown in punycode, whether the link was written in Unicode or not.
    ['https://foo.\u516c\u53f8.cn/', 'foo.xn--55qx5d.cn'],
    ['https://a.example.xn--fiqs8s/', 'example.xn--fiqs8s'],
    ['https://\u4f8b\u5b50.\u4e2d\u56fd/', 'xn--fsqu00a.xn--fiqs8s'],
    ['https://www.m\u00fcller.de/', 'xn--mller-kva.de'],
    ['https://www.\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/', 'xn--e1afmkfd.xn--p1ai'],
    ['https://www.xn--80ak6aa92e.com/', 'xn--80ak6aa92e.com'],
  ];
  for (const [url, expected] of registrable) {
    void it(`registrable domain of ${url} is ${expected}`, () => {
      assert.equal(analyseUrl(url).display?.registrableDomain, expected);
    });
  }

  void it('reports the real host when user info precedes it', () => {
    const analysis = analyseUrl('https://good.example@evil.example/');
    assert.equal(analysis.display?.userInfo, 'good.example');
    assert.equal(analysis.display?.hostPunycode, 'evil.example');
    const reason = analysis.reasons.find((r) => r.code === 'userInfo');
    assert.deepEqual(reason, { code: 'userInfo', severity: 'warn', userInfo: 'good.example', host: 'evil.example' });
    assert.match(say(reason), /real destination is evil\.example\./);
  });

  void it('explains a bare @ before the host', () => {
    const reason = analyseUrl('https://@evil.example/').reasons[0];
    assert.deepEqual(reason, { code: 'userInfo', severity: 'warn', userInfo: '', host: 'evil.example' });
    assert.match(say(reason), /real destination is evil\.example\./);
  });

  void it('keeps user info exactly as written, including a password', () => {
    assert.equal(analyseUrl('https://user:p%40ss@example.com/').display?.userInfo, 'user:p%40ss');
  });

  void it('omits the default port and an empty query', () => {
    const display = analyseUrl('https://example.com:443/path?').display;
    assert.equal(display?.port, undefined);
    assert.equal(display?.query, '');
    assert.equal(display?.path, '/path');
  });

  void it('keeps whitespace-padded input verbatim while still parsing it', () => {
    const url = ' https://example.com/\n';
    const analysis = analyseUrl(url);
    assert.equal(analysis.display?.url, url);
    assert.equal(analysis.display?.hostPunycode, 'example.com');
  });

  void it('describes an unparseable link without a display', () => {
    const analysis = analyseUrl('/oauth');
    assert.equal(analysis.display, undefined);
    assert.deepEqual(analysis.reasons[0], { code: 'malformed', severity: 'block', form: 'noScheme' });
    assert.match(say(analysis.reasons[0]), /scheme/);
  });

  void it('describes non-web schemes with an empty host', () => {
    const display = analyseUrl('javascript:alert(1)').display;
    assert.equal(display?.scheme, 'javascript');
    assert.equal(display?.hostPunycode, '');
    assert.equal(display?.registrableDomain, '');
    assert.equal(display?.path, 'alert(1)');
  });

  void it('names the address in internal-host messages', () => {
    assert.equal(
      say(analyseUrl('https://10.0.0.5/').reasons[0]),
      'The link points to a private network address (10.0.0.5). Servers must not send you to internal addresses.',
    );
    const hidden = analyseUrl('https://[::ffff:169.254.169.254]/').reasons[0];
    assert.deepEqual(hidden, { code: 'metadataHost', severity: 'block', host: '169.254.169.254', embeddedIn: '[::ffff:a9fe:a9fe]' });
    assert.match(say(hidden), /169\.254\.169\.254, hidden inside/);
  });

  void it('shortens long attacker-controlled text in messages', () => {
    const message = say(analyseUrl(`https://${'a'.repeat(300)}@example.com/`).reasons[0]);
    assert.ok(message.length < 250, message);
  });
});

void describe('analyseUrl: options', () => {
  void it('uses 2048 as the default maximum length', () => {
    assert.equal(DEFAULT_MAX_URL_LENGTH, 2048);
    const base = 'https://example.com/';
    assert.equal(analyseUrl(base + 'a'.repeat(2048 - base.length)).verdict, 'allow');
    assert.equal(analyseUrl(base + 'a'.repeat(2049 - base.length)).verdict, 'block');
  });

  void it('honours a larger maxLength', () => {
    assert.equal(analyseUrl(`https://example.com/${LONG_PATH}`, { maxLength: 10_000 }).verdict, 'allow');
  });

  void it('falls back to the default for a nonsensical maxLength', () => {
    assert.equal(analyseUrl('https://example.com/', { maxLength: Number.NaN }).verdict, 'allow');
    assert.equal(analyseUrl('https://example.com/', { maxLength: -1 }).verdict, 'allow');
  });

  void it('keeps loopback blocked unless allowHttpLoopback is set', () => {
    for (const url of ['http://localhost:3000/', 'https://localhost/', 'http://127.0.0.1/', 'http://[::1]/']) {
      assert.equal(analyseUrl(url).verdict, 'block', url);
      assert.equal(analyseUrl(url, { allowHttpLoopback: true }).verdict, 'warn', url);
    }
  });
});

void describe('stripQuery', () => {
  const rows: readonly (readonly [input: string, expected: string])[] = [
    ['https://example.com/cb?code=secret&state=1#frag', 'https://example.com/cb'],
    ['https://example.com/cb#access_token=secret', 'https://example.com/cb'],
    ['https://example.com/cb', 'https://example.com/cb'],
    ['HTTPS://Example.COM:8443/A/B', 'HTTPS://Example.COM:8443/A/B'],
    ['https://example.com?x=1', 'https://example.com'],
    ['https://example.com/a#b?c', 'https://example.com/a'],
    ['https://xn--pple-43d.com/p?q', 'https://xn--pple-43d.com/p'],
    [' https://example.com/ ?q', ' https://example.com/ '],
    ['', ''],
    ['?only', ''],
  ];
  for (const [input, expected] of rows) {
    void it(`${JSON.stringify(input)} -> ${JSON.stringify(expected)}`, () => {
      assert.equal(stripQuery(input), expected);
    });
  }
});

describe('why a loopback link is allowed', () => {
  it('says the setting allowed it, or that the MCP server asking runs on this computer too (a local sign-in), never the wrong one', () => {
    const bySetting = analyseUrl('http://127.0.0.1:4000/authorize', { allowHttpLoopback: true });
    const byServer = analyseUrl('http://127.0.0.1:4000/authorize', { allowHttpLoopback: true, loopbackBecause: 'localServer' });
    assert.deepEqual(
      bySetting.reasons.filter((r) => r.code === 'httpLoopbackAllowed').map((r) => r.code === 'httpLoopbackAllowed' && r.because),
      ['setting'],
    );
    assert.deepEqual(
      byServer.reasons.filter((r) => r.code === 'httpLoopbackAllowed').map((r) => r.code === 'httpLoopbackAllowed' && r.because),
      ['localServer'],
    );
    assert.equal(byServer.verdict, bySetting.verdict);
  });
});
