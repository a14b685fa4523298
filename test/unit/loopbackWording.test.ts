import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { analyseUrl, type UrlReason } from '../../src/elicitation/safety/url';
import { displayText } from '../../src/shared/displayText';
import { urlReasonText } from '../../src/ui/wording/urlReasons';
import { bundleLocale, english } from './support/localize';

/** The loopback finding for a page at 127.0.0.1, allowed by the setting or because the server asking runs there. */
function allowed(because: 'setting' | 'localServer'): UrlReason {
  const r = analyseUrl('http://127.0.0.1:4000/authorize', { allowHttpLoopback: true, loopbackBecause: because }).reasons.find(
    (x) => x.code === 'httpLoopbackAllowed',
  );
  assert.ok(r, 'the analysis reports the allowed loopback page');
  return r;
}

const SSH = displayText('ssh-remote');
const de = bundleLocale('de');

describe('a loopback page in words, in a local and in a remote window', () => {
  it('local window: the page is on this computer, and why it is allowed', () => {
    assert.equal(
      urlReasonText(allowed('setting'), english, undefined),
      'The link points to this computer (127.0.0.1). It is allowed only because local development links are enabled in settings.',
    );
    assert.equal(
      urlReasonText(allowed('localServer'), english, undefined),
      'The page is on this computer (127.0.0.1), like the MCP server asking. It is allowed because that server runs on this computer too.',
    );
  });

  it('remote window: the page is on the remote machine, named, and opens through a forwarded port; never "this computer"', () => {
    const where =
      'The page is on the remote machine this window runs on (ssh-remote), at 127.0.0.1. VS Code opens it through a forwarded port, so the browser shows a different address.';
    assert.equal(
      urlReasonText(allowed('setting'), english, SSH),
      `${where} It is allowed only because local development links are enabled in settings.`,
    );
    // The sentence test/e2e/oidcSignIn.test.ts reads in code-server's sign-in consent.
    assert.equal(
      urlReasonText(allowed('localServer'), english, SSH),
      `${where} It is allowed because the MCP server asking runs there too.`,
    );
    for (const because of ['setting', 'localServer'] as const) {
      assert.doesNotMatch(urlReasonText(allowed(because), english, SSH), /this computer/);
    }
  });

  it('German says the same in both windows, with a "why" that fits after the link and after the page', () => {
    assert.equal(
      urlReasonText(allowed('setting'), de, undefined),
      'Der Link führt zu diesem Computer (127.0.0.1). Das ist nur erlaubt, weil Links für die lokale Entwicklung in den Einstellungen aktiviert sind.',
    );
    assert.equal(
      urlReasonText(allowed('setting'), de, SSH),
      'Die Seite liegt auf dem entfernten Rechner, auf dem dieses Fenster läuft (ssh-remote), unter 127.0.0.1. VS Code öffnet sie über einen weitergeleiteten Port, daher zeigt der Browser eine andere Adresse. Das ist nur erlaubt, weil Links für die lokale Entwicklung in den Einstellungen aktiviert sind.',
    );
    assert.match(
      urlReasonText(allowed('localServer'), de, SSH),
      /\(ssh-remote\), unter 127\.0\.0\.1\..* Das ist erlaubt, weil der anfragende MCP-Server ebenfalls dort läuft\.$/,
    );
  });

  it('the remote name is shown as text: a link in it does not survive', () => {
    const text = urlReasonText(allowed('setting'), english, displayText('[x](command:evil)'));
    assert.doesNotMatch(text, /\]\(command:/);
  });

  it('the setting sentence is one message, translated once (no second copy in the bundle)', () => {
    const bundle = JSON.parse(readFileSync(path.join(repoRoot, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(
      Object.keys(bundle).filter((k) => k.includes('local development links are enabled in settings')),
      ['It is allowed only because local development links are enabled in settings.'],
    );
  });
});
