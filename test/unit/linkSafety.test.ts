import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { displayText, firstLine, markdownLiteral, sentence, type DisplayText } from '../../src/elicitation/safety/displayText';
import { findUrls, formForDisplay, formWarnings, MAX_MESSAGE_CHARS, sanitiseForDisplay } from '../../src/elicitation/safety/text';
import { validateField } from '../../src/elicitation/form/validator';
import { formWarningText } from '../../src/ui/wording/formText';
import { issueText } from '../../src/elicitation/form/sentences';
import { form } from './support/form';
import { bundleLocale, english } from './support/localize';
import { liveMarkdown, MARKDOWN_LINKS, renderedLiteral, vscodeIcons, vscodeLinks } from './support/linkPatterns';

const HOSTILE = [
  '[click](command:workbench.action.openSettings)',
  '[Open](command:_workbench.downloadResource?%5B%22https%3A%2F%2Fevil.example%22%5D)',
  '[x](https://evil.example/login "Trusted")',
  "[x](file:///etc/passwd 'title')",
  '[X](COMMAND:workbench.action.terminal.new)',
  '[[nested]](command:a)',
  'Before [a](command:b) middle [c](https://d.example) after',
  '](command:seam)',
  '[label',
  'label]',
  '(command:start)',
  '[x]\n(command:next-line)',
  'line one\n[x](command:on-line-two)',
  '[x]\u200b(command:pre-broken)',
  '\u202e[x](command:bidi)',
];

describe('server text never becomes a VS Code link', () => {
  it('the copied pattern finds every hostile link before neutralising (the test can fail)', () => {
    for (const raw of [
      '[click](command:workbench.action.openSettings)',
      '[x](https://evil.example/login "Trusted")',
      "[x](file:///etc/passwd 'title')",
    ]) {
      assert.equal(vscodeLinks(raw).length, 1, raw);
    }
  });

  for (const raw of HOSTILE) {
    it(`neutralised alone and next to any other hostile text: ${JSON.stringify(raw)}`, () => {
      const shown = displayText(raw, MAX_MESSAGE_CHARS);
      assert.deepEqual(vscodeLinks(shown), []);
      // Readable: nothing deleted, only zero-width spaces added (and controls made visible).
      if (!/[\u202e]/.test(raw)) assert.equal(shown.replace(/\u200b/g, ''), raw.replace(/\u200b/g, ''));
      for (const other of HOSTILE) {
        const next = displayText(other, MAX_MESSAGE_CHARS);
        assert.deepEqual(vscodeLinks(shown + next), [], `${raw} + ${other}`);
        assert.deepEqual(vscodeLinks(`${shown} — ${next}`), [], `${raw} — ${other}`);
      }
      assert.deepEqual(vscodeLinks(firstLine(shown)), []);
    });
  }

  it('neutralising twice adds nothing, and brackets that are no link stay as they were', () => {
    const once = displayText('[x](command:y) and ^[A-Z]{3}$', 200);
    assert.equal(displayText(once, 200), once);
    assert.ok(once.endsWith('^[A-Z]{3}$'), once);
  });

  it('a cut right after `]` still leaves no seam for a link', () => {
    const cut = sanitiseForDisplay('[a]bcdef', 3).text;
    assert.deepEqual(vscodeLinks(`${cut}(command:x)`), []);
  });

  it('every message of ours, in English and German, with hostile text in each placeholder, has no link', () => {
    const bundle = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
    const fills: DisplayText[] = HOSTILE.map((h) => displayText(h));
    for (const l10n of [english, bundleLocale('de')]) {
      for (const message of Object.keys(bundle)) {
        const count = new Set(message.match(/\{\d+\}/g) ?? []).size;
        if (count === 0) {
          assert.deepEqual(vscodeLinks(l10n.t(message)), [], message);
          continue;
        }
        for (const fill of fills) {
          const text = sentence(l10n, message, ...Array.from({ length: count }, () => fill));
          assert.deepEqual(vscodeLinks(text), [], `${message} ← ${fill}`);
        }
      }
    }
  });

  it("a form's texts, warnings and validation messages carry no link, whatever the server wrote", () => {
    const evil = '[click](command:workbench.action.openSettings)';
    const f = form({
      [evil]: { type: 'string', title: evil, description: `${evil} ${evil}`, pattern: `^${evil}$` },
      choice: {
        type: 'string',
        title: 'Choice',
        oneOf: [
          { const: 'a', title: evil },
          { const: evil, title: 'B' },
        ],
      },
    });
    const { form: shown, notes } = formForDisplay(f);
    const texts: string[] = [];
    for (const field of shown.fields) {
      texts.push(field.title, field.description ?? '');
      if (field.kind === 'singleSelect' || field.kind === 'multiSelect') texts.push(...field.options.map((o) => o.label));
    }
    const warnings = [...notes, ...formWarnings(`${evil} https://evil.example/x`, f)];
    texts.push(...warnings.map((w) => formWarningText(w, english)));
    const issue = validateField(f, evil, 'no match');
    assert.ok(issue, 'the pattern refuses');
    texts.push(issueText(issue, english));
    const unknown = validateField(f, `${evil}-unknown`, 'x');
    if (unknown) texts.push(issueText(unknown, english));
    for (const t of texts) assert.deepEqual(vscodeLinks(t), [], t);
    // The whole prompt of a step, joined as the quick input joins it.
    assert.deepEqual(vscodeLinks(texts.join(' — ')), []);
  });

  it('command: and vscode: links are flagged like other URLs', () => {
    assert.deepEqual(findUrls('click [here](command:workbench.action.openSettings) or vscode:extension/evil.ext'), [
      'command:workbench.action.openSettings',
      'vscode:extension/evil.ext',
    ]);
    assert.deepEqual(findUrls('Run this command: npm install'), []);
    const w = formWarnings('[here](command:workbench.action.openSettings)', form({ a: { type: 'string' } }));
    const first = w[0];
    assert.equal(first?.code, 'linkInMessage');
    assert.deepEqual(vscodeLinks(formWarningText(first, english)), []);
  });
});

describe('a suggested value that reads otherwise than it is', () => {
  // The edit box pre-fills the exact value, so it cannot be neutralised there: the warning says what it is.
  it('a text default with a bidi override or a control character is named, with the characters shown as markers', () => {
    const f = form({
      amount: { type: 'string', title: 'Amount', default: '\u202e001 USD' },
      ref: { type: 'string', title: 'Reference', default: 'INV\u0007-42' },
    });
    const w = formWarnings('Confirm', f).filter((x) => x.code === 'hiddenInDefault');
    assert.deepEqual(w, [
      { code: 'hiddenInDefault', field: 'Amount', shown: '⟨U+202E⟩001 USD' },
      { code: 'hiddenInDefault', field: 'Reference', shown: 'INV⟨U+0007⟩-42' },
    ]);
    const first = w[0];
    assert.ok(first);
    assert.ok(formWarningText(first, english).includes('⟨U+202E⟩001 USD'));
  });

  it('plain, accented, emoji and right-to-left text without controls warns of nothing', () => {
    const f = form({
      a: { type: 'string', default: '100 USD' },
      b: { type: 'string', default: 'Crème brûlée 🍮' },
      c: { type: 'string', default: 'שלום עולם' },
      d: { type: 'string', default: 'two\nlines\tand a tab' },
    });
    assert.deepEqual(
      formWarnings('Confirm', f).filter((x) => x.code === 'hiddenInDefault'),
      [],
    );
  });
});

describe('server text never draws a theme icon', () => {
  // A server that writes our own `$(check)`, or a `$(verified-filled)`, next to its words would
  // look like the extension vouching for them in a QuickPick row, a prompt or the status bar.
  const ICONS = [
    '$(check) Accept and send',
    '$(verified-filled) Verified by VS Code',
    '$(loading~spin) Connecting…',
    'Total: $(alert)',
    '$$(shield)',
    'line one\n$(lock) line two',
  ];

  it('the copied pattern finds the icons before neutralising (the test can fail)', () => {
    for (const raw of ICONS) assert.ok(vscodeIcons(raw).length > 0, raw);
    assert.deepEqual(vscodeIcons('\\$(zap)'), [], 'an escaped icon is text');
  });

  for (const raw of ICONS) {
    it(`neutralised, and still reads the same: ${JSON.stringify(raw)}`, () => {
      const shown = displayText(raw, MAX_MESSAGE_CHARS);
      assert.deepEqual(vscodeIcons(shown), []);
      assert.deepEqual(vscodeIcons(firstLine(shown)), []);
      assert.equal(shown.replace(/\u200b/g, ''), raw);
      assert.equal(displayText(shown, MAX_MESSAGE_CHARS), shown, 'neutralising twice adds nothing');
    });
  }

  it('a `$` without `(` is left alone', () => {
    assert.equal(displayText('costs $5 (or $ 6) ^[A-Z]$', 200), 'costs $5 (or $ 6) ^[A-Z]$');
  });

  it('our sentences keep their own icons and gain none from what is filled in', () => {
    const bundle = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, string>;
    const fills: DisplayText[] = [...ICONS, 'ends in $', '(check)'].map((h) => displayText(h));
    for (const l10n of [english, bundleLocale('de')]) {
      for (const message of Object.keys(bundle)) {
        const count = new Set(message.match(/\{\d+\}/g) ?? []).size;
        if (count === 0) continue;
        const own = vscodeIcons(l10n.t(message)).length;
        for (const fill of fills) {
          const text = sentence(l10n, message, ...Array.from({ length: count }, () => fill));
          assert.equal(vscodeIcons(text).length, own, `${message} ← ${fill}`);
        }
      }
    }
  });
});

describe('Markdown tooltips render foreign text literally', () => {
  const cases = [
    ...HOSTILE,
    'see https://evil.example/a and www.evil.example and mail@evil.example',
    '<https://evil.example> <a href="https://evil.example">x</a>',
    '[ref]\n\n[ref]: command:workbench.action.openSettings',
    '$(alert) **bold** # heading',
  ];
  for (const raw of cases) {
    it(JSON.stringify(raw), () => {
      const md = markdownLiteral(displayText(raw, MAX_MESSAGE_CHARS));
      // Unescaped: backslash-escaped characters are plain text to a Markdown renderer.
      const live = liveMarkdown(md);
      for (const re of MARKDOWN_LINKS) assert.doesNotMatch(live, re, md);
      // What the renderer shows: every escape resolved, hard breaks back to line breaks.
      const rendered = renderedLiteral(md);
      assert.equal(rendered.replace(/\u200b/g, ''), displayText(raw, MAX_MESSAGE_CHARS).replace(/\u200b/g, ''));
    });
  }
});
