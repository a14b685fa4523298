import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  findUrls,
  formWarnings,
  type FormWarning,
  looksSecret,
  MAX_DESCRIPTION_CHARS,
  MAX_LABEL_CHARS,
  MAX_MESSAGE_CHARS,
  sanitiseForDisplay,
} from '../../src/elicitation/safety/text';
import { formWarningText } from '../../src/ui/wording/formText';
import { form } from './support/form';
import { english } from './support/localize';

void describe('findUrls', () => {
  const found: [string, string[]][] = [
    ['Visit https://evil.example/login now', ['https://evil.example/login']],
    ['see http://a.example/c, then', ['http://a.example/c']],
    ['(https://x.example/y).', ['https://x.example/y']],
    ['https://en.wikipedia.org/wiki/Foo_(bar)', ['https://en.wikipedia.org/wiki/Foo_(bar)']],
    ['go to www.example.com today', ['www.example.com']],
    ['open example.com/login to continue', ['example.com/login']],
    ['log in at paypal-login.com.', ['paypal-login.com']],
    ['host sub.domain.example:8443/x', ['sub.domain.example:8443/x']],
    ['file:///etc/passwd and vscode://ext.id/cmd', ['file:///etc/passwd', 'vscode://ext.id/cmd']],
    ['click javascript:alert(1)', ['javascript:alert(1)']],
    ['internal 10.0.0.1/admin or 192.168.1.1:8080', ['10.0.0.1/admin', '192.168.1.1:8080']],
    ['look-alike раураl.com/login', ['раураl.com/login']],
    ['[here](https://x.example/a)', ['https://x.example/a']],
    ['HTTPS://LOUD.EXAMPLE/A', ['HTTPS://LOUD.EXAMPLE/A']],
    ['twice https://a.example/ and https://a.example/', ['https://a.example/']],
  ];
  for (const [text, urls] of found) {
    void it(`finds ${JSON.stringify(urls)} in ${JSON.stringify(text)}`, () => assert.deepEqual(findUrls(text), urls));
  }

  const plain = [
    'Enter a value, e.g. 42',
    'Requires v1.2 or later',
    'Version 1.2.3.4 is current',
    'Use node.js and read README.md',
    'Save as report.txt',
    'i.e. your name',
    'Email me at someone@example.com',
    'Answer yes/no',
    'Ratio 3.5/10',
    'The meta data: none',
  ];
  for (const text of plain) {
    void it(`finds nothing in ${JSON.stringify(text)}`, () => assert.deepEqual(findUrls(text), []));
  }

  // A ReDoS guard, not a speed claim: the scan must grow linearly with the input. Quadratic
  // backtracking makes 4x the input cost 16x; the median of three keeps a busy machine's noise out.
  void it('grows linearly on hostile input (4x the text, well under 16x the time)', () => {
    const hostile = (k: number) => ['a.'.repeat(k), 'a-'.repeat(k), '1.'.repeat(k), 'x'.repeat(2 * k)];
    const median = (k: number) => {
      const runs = [0, 1, 2].map(() => {
        const start = performance.now();
        for (const s of hostile(k)) findUrls(s);
        return performance.now() - start;
      });
      return runs.sort((a, b) => a - b)[1] as number;
    };
    const small = median(25_000);
    const large = median(100_000);
    assert.ok(
      large / small < 10,
      `4x the input took ${(large / small).toFixed(1)}x the time (${small.toFixed(0)} ms, ${large.toFixed(0)} ms)`,
    );
  });
});

void describe('looksSecret', () => {
  const secret: [string, string?, string?][] = [
    ['password'],
    ['newPassword'],
    ['user_password'],
    ['userpassword'],
    ['passwd'],
    ['apiKey'],
    ['api_key'],
    ['X-API-Key'],
    ['apikey'],
    ['key', 'API key'],
    ['accessKey'],
    ['aws', 'AWS secret access key'],
    ['privateKey'],
    ['client_secret'],
    ['token'],
    ['authToken'],
    ['gh', 'GitHub token'],
    ['credentials'],
    ['cardNumber'],
    ['ccNumber'],
    ['creditCardNumber'],
    ['cvv'],
    ['code', 'CVC'],
    ['ssn'],
    ['id', 'Social Security Number'],
    ['code', 'PIN'],
    ['pin'],
    ['pin_code'],
    ['otp'],
    ['note', 'Note', 'Enter your password here'],
  ];
  for (const [key, title, description] of secret) {
    void it(`flags ${JSON.stringify([key, title, description].filter((x) => x !== undefined))}`, () => {
      assert.equal(looksSecret(key, title, description), true);
    });
  }

  const harmless: [string, string?, string?][] = [
    ['tokenizer'],
    ['max_tokens'],
    ['maxTokens'],
    ['tokenCount'],
    ['username'],
    ['email', 'Email address'],
    ['role', 'Secretary name'],
    ['pinned', 'Pin this note'],
    ['keyboard', 'Keyboard layout'],
    ['login', 'Passwordless login'],
    ['spin', 'Spin speed'],
    ['monkey'],
  ];
  for (const [key, title] of harmless) {
    void it(`does not flag ${JSON.stringify([key, title].filter((x) => x !== undefined))}`, () => {
      assert.equal(looksSecret(key, title), false);
    });
  }
});

void describe('sanitiseForDisplay', () => {
  const marked: [string, string][] = [
    ['\u202A', '⟨U+202A⟩'],
    ['\u202B', '⟨U+202B⟩'],
    ['\u202C', '⟨U+202C⟩'],
    ['\u202D', '⟨U+202D⟩'],
    ['\u202E', '⟨U+202E⟩'],
    ['\u2066', '⟨U+2066⟩'],
    ['\u2067', '⟨U+2067⟩'],
    ['\u2068', '⟨U+2068⟩'],
    ['\u2069', '⟨U+2069⟩'],
    ['\u200E', '⟨U+200E⟩'],
    ['\u200F', '⟨U+200F⟩'],
    ['\u061C', '⟨U+061C⟩'],
    ['\u0000', '⟨U+0000⟩'],
    ['\u001B', '⟨U+001B⟩'],
    ['\u007F', '⟨U+007F⟩'],
    ['\u0085', '⟨U+0085⟩'],
    ['\u009B', '⟨U+009B⟩'],
    ['\r', '⟨U+000D⟩'],
    ['\uD800', '⟨U+D800⟩'],
    ['\uDC00', '⟨U+DC00⟩'],
  ];
  for (const [ch, marker] of marked) {
    void it(`marks ${marker}`, () => {
      assert.deepEqual(sanitiseForDisplay(`a${ch}b`, 100), { text: `a${marker}b`, truncated: false });
    });
  }

  void it('keeps newlines, tabs, emoji and ordinary non-ASCII text; folds CRLF', () => {
    assert.deepEqual(sanitiseForDisplay('a\tb\nc\r\nd 😀 é 日本', 100), { text: 'a\tb\nc\nd 😀 é 日本', truncated: false });
  });

  void it('shows a spoofed file name for what it is', () => {
    assert.equal(sanitiseForDisplay('invoice\u202Efdp.exe', 100).text, 'invoice⟨U+202E⟩fdp.exe');
  });

  void it('truncates to maxChars and says so', () => {
    assert.deepEqual(sanitiseForDisplay('abcdef', 3), { text: 'abc', truncated: true });
    assert.deepEqual(sanitiseForDisplay('abc', 3), { text: 'abc', truncated: false });
    assert.deepEqual(sanitiseForDisplay('', 3), { text: '', truncated: false });
    assert.deepEqual(sanitiseForDisplay('a', 0), { text: '', truncated: true });
  });

  void it('never splits a surrogate pair or a marker', () => {
    assert.deepEqual(sanitiseForDisplay('😀😀', 3), { text: '😀', truncated: true });
    assert.deepEqual(sanitiseForDisplay('ab\u202Ecd', 5), { text: 'ab', truncated: true });
  });

  void it('never exceeds maxChars, even when every character becomes a marker', () => {
    for (const limit of [0, 1, 7, 8, 9, 100]) {
      assert.ok(sanitiseForDisplay('\u202E'.repeat(50), limit).text.length <= limit);
    }
  });

  void it('is cheap on a 1 MB input', () => {
    const big = '\u202Ex'.repeat(500_000);
    const start = performance.now();
    const r = sanitiseForDisplay(big, MAX_MESSAGE_CHARS);
    assert.ok(performance.now() - start < 200);
    assert.ok(r.truncated);
    assert.ok(r.text.length <= MAX_MESSAGE_CHARS);
  });

  void it('exports the display limits', () => {
    assert.deepEqual([MAX_MESSAGE_CHARS, MAX_DESCRIPTION_CHARS, MAX_LABEL_CHARS], [4000, 1000, 200]);
  });
});

/** The warnings as the "Check before answering" box words them in English. */
function worded(w: readonly FormWarning[]): string[] {
  return w.map((x) => formWarningText(x, english));
}

void describe('formWarnings', () => {
  void it('is empty for a clean form and message', () => {
    assert.deepEqual(
      formWarnings('Please provide your contact information', form({ name: { type: 'string', description: 'Your full name' } })),
      [],
    );
  });

  void it('warns about a link in the message', () => {
    const w = formWarnings('Verify at https://evil.example/verify now', form({ name: { type: 'string' } }));
    assert.deepEqual(w, [{ code: 'linkInMessage', url: 'https://evil.example/verify' }]);
    assert.match(worded(w)[0] ?? '', /message contains a link \(https:\/\/evil\.example\/verify\)/);
  });

  void it('names the field whose description, title or option label carries a link', () => {
    const w = formWarnings(
      'ok',
      form({
        a: { type: 'string', title: 'Account', description: 'See example.com/help' },
        b: { type: 'string', title: 'www.evil.example' },
        c: { type: 'string', title: 'Plan', oneOf: [{ const: 'x', title: 'Go to evil.example/x' }] },
      }),
    );
    assert.deepEqual(
      w.map((x) => x.code === 'linkInField' && [x.field, x.place]),
      [
        ['Account', 'description'],
        ['www.evil.example', 'title'],
        ['Plan', 'optionLabel'],
      ],
    );
    const text = worded(w);
    assert.match(text[0] ?? '', /Field “Account” contains a link in its description \(example\.com\/help\)/);
    assert.match(text[1] ?? '', /Field “www\.evil\.example” contains a link in its title/);
    assert.match(text[2] ?? '', /Field “Plan” contains a link in its option label/);
  });

  void it('names each secret-like field with the exact advice', () => {
    const w = formWarnings(
      'ok',
      form({ apiKey: { type: 'string', title: 'API key' }, city: { type: 'string' }, pw: { type: 'string', title: 'Password' } }),
    );
    assert.deepEqual(w, [
      { code: 'secretField', field: 'API key' },
      { code: 'secretField', field: 'Password' },
    ]);
    assert.deepEqual(worded(w), [
      'Field “API key” looks like a secret. Servers must not ask for secrets in a form; use a browser flow instead.',
      'Field “Password” looks like a secret. Servers must not ask for secrets in a form; use a browser flow instead.',
    ]);
  });

  void it('sanitises field titles inside warnings', () => {
    const w = formWarnings('ok', form({ token: { type: 'string', title: 'To\u202Eken' } }));
    assert.deepEqual(w, [{ code: 'secretField', field: 'To⟨U+202E⟩ken' }]);
  });

  void it('only scans the part of the message that can be shown', () => {
    const late = `${'x '.repeat(MAX_MESSAGE_CHARS)}https://late.example/`;
    assert.deepEqual(formWarnings(late, form({ a: { type: 'string' } })), []);
  });
});
