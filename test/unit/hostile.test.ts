// The hostile battery (test/fixtures/hostileCases.mjs) against the pure core, in plain Node: every
// request through the real broker with a scripted presenter that does the worst a buggy UI could
// (accept everything, including a blocked URL), what the widgets would be given, the url verdicts
// that decide whether the consent dialog offers "Open" at all, malformed-request answers of the
// stdio framing, and the validation time budget. The in-host suite runs the same list over the wire.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ElicitationBroker } from '../../src/elicitation/broker';
import type { FormAnswer, FormPrompt, Presenter } from '../../src/elicitation/presenter';
import { FakePresenter } from './support/fakePresenter';
import { analyseUrl } from '../../src/elicitation/safety/url';
import { MAX_DESCRIPTION_CHARS, MAX_LABEL_CHARS, MAX_MESSAGE_CHARS } from '../../src/elicitation/safety/text';
import { buildReply, validateField, VALIDATION_BUDGET_MS, TOO_COMPLEX } from '../../src/elicitation/form/validator';
import { normaliseRequestedSchema } from '../../src/elicitation/form/schema';
import { AnsweringReadBuffer, replyToMalformed } from '../../src/servers/answeringReadBuffer';
import { BY_TAG, CASES } from '../fixtures/hostileCases.mjs';
import { askerFor } from '../../src/elicitation/asker';

/** Raw bidi controls and C0/C1 controls other than \n and \t: never allowed in display text. */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u0000-\u0008\u000B-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The worst a buggy UI could do: answers every form as `answerFor` says and accepts every URL
 * ("Open" offered for every URL, and the user clicked it).
 */
function worstCase(answerFor: (p: FormPrompt) => FormAnswer): FakePresenter {
  return new FakePresenter({ form: answerFor, url: () => ({ action: 'accept', browser: 'opened' }) });
}

/** What the form presenter was handed, in order. */
const formsOf = (p: FakePresenter): FormPrompt[] => p.forms.map((f) => f.prompt);

function broker(presenter: Presenter): ElicitationBroker {
  return new ElicitationBroker({
    presenter,
    gate: () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
    settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: false, urlExpiryMs: 0 }),
    log: { info: () => undefined, warn: () => undefined },
  });
}

// Built as every connection builds it: the server's claim is neutralised on the way in.
const server = askerFor('hostile', { name: 'hostile', title: 'Hostile \u202Eevil <img src=x onerror=alert(1)>', version: '6.6.6' });
const extra = (): { signal: AbortSignal; requestId: string } => ({ signal: new AbortController().signal, requestId: 'r' });

function displayTexts(p: FormPrompt): string[] {
  return [
    p.message,
    p.asker.info ?? '',
    // Server text reaches the warnings through their values (field names, links).
    ...p.warnings.flatMap((w) => Object.values(w).filter((v): v is string => typeof v === 'string')),
    ...p.form.fields.flatMap((f) => [f.title, f.description ?? '', ...('options' in f ? f.options.map((o) => o.label) : [])]),
  ];
}

void describe('hostile battery through the broker (plain Node)', () => {
  void it('has at least 100 tagged cases, each with an expectation', () => {
    assert.ok(CASES.length >= 100, `${CASES.length} cases`);
    for (const c of CASES) assert.match(c.expect, /^(error-326\d\d|cancel|accept|decline|two-responses|no-response)$/, c.tag);
  });

  const direct = CASES.filter((c) => c.params !== undefined);
  for (const c of direct) {
    void it(`${c.tag} → ${c.expect}`, async () => {
      const presenter = worstCase((p) => {
        const value = (c.answer as { value?: string } | undefined)?.value;
        const field = p.form.fields[0];
        if (c.expect !== 'accept' || value === undefined || !field) return { action: 'cancel' };
        const reply = buildReply(p.form, { [field.key]: value });
        return reply.ok ? { action: 'accept', content: reply.content } : { action: 'cancel' };
      });
      const t0 = performance.now();
      let outcome: { error?: { code: number; message: string }; result?: { action: string; content?: unknown } };
      try {
        outcome = { result: await broker(presenter).handle(server, c.params, extra()) };
      } catch (err) {
        outcome = { error: err as { code: number; message: string } };
      }
      // Nothing in the battery may keep the (single-threaded) extension host busy for long.
      assert.ok(performance.now() - t0 < 1500, `${c.tag} took ${Math.round(performance.now() - t0)} ms`);
      if (c.expect.startsWith('error-')) {
        assert.equal(outcome.error?.code, Number(c.expect.slice(5)), `${c.tag}: ${JSON.stringify(outcome.result)}`);
        assert.ok(outcome.error.message.length > 0);
        assert.equal(presenter.forms.length + presenter.urls.length, 0, 'nothing is shown for a refused request');
        return;
      }
      if (c.tag.startsWith('url/')) {
        // The worst case: the presenter says "accept" for every URL. A blocked one is still declined.
        const prompt = presenter.urls[0]?.prompt;
        assert.ok(prompt, 'the url reached the presenter');
        assert.equal(prompt.analysis.verdict, c.urlVerdict);
        assert.deepEqual(outcome.result, { action: c.urlVerdict === 'block' ? 'decline' : 'accept' });
        return;
      }
      assert.equal(presenter.forms.length, 1, `${c.tag} reached the form presenter`);
      assert.deepEqual(outcome.result, c.expect === 'accept' ? { action: 'accept', content: c.content } : { action: 'cancel' });
    });
  }

  void it('every text a widget is given is sanitised and bounded', async () => {
    const presenter = worstCase(() => ({ action: 'cancel' }));
    for (const c of direct.filter((x) => x.expect === 'cancel' || x.expect === 'accept')) {
      await broker(presenter).handle(server, c.params, extra());
    }
    assert.ok(presenter.forms.length > 30);
    for (const p of formsOf(presenter)) {
      assert.ok(p.message.length <= MAX_MESSAGE_CHARS + 2, `message ${p.message.length}`);
      for (const t of displayTexts(p)) assert.doesNotMatch(t, UNSAFE, `raw control in ${JSON.stringify(t.slice(0, 80))}`);
      for (const f of p.form.fields) {
        assert.ok(f.title.length <= MAX_LABEL_CHARS + 1, `title ${f.title.length}`);
        assert.ok((f.description ?? '').length <= MAX_DESCRIPTION_CHARS + 1, `description ${f.description?.length}`);
        if ('options' in f) for (const o of f.options) assert.ok(o.label.length <= MAX_LABEL_CHARS + 1);
      }
    }
    // Markers replace controls: the user can see that something was there.
    const bidi = formsOf(presenter).find((p) => p.message.startsWith('Pay '));
    assert.match(bidi?.message ?? '', /⟨U\+202E⟩/);
    assert.match(bidi?.asker.info ?? '', /⟨U\+202E⟩/);
  });

  void it('oversize text is cut with a visible marker and a note', async () => {
    const presenter = worstCase(() => ({ action: 'cancel' }));
    for (const tag of ['oversize/message-1mb', 'oversize/description-100kb', 'oversize/title-100kb', 'oversize/enum-labels-1000x2kb']) {
      await broker(presenter).handle(server, BY_TAG.get(tag)?.params, extra());
    }
    const [message, description, title, labels] = formsOf(presenter);
    assert.equal(message?.messageTruncated, true);
    assert.ok((message?.message.length ?? Infinity) <= 4000);
    assert.ok(description?.form.fields[0]?.description?.endsWith('…'));
    assert.ok(description?.warnings.some((w) => w.code === 'shortened' && w.part === 'description'));
    assert.ok(title?.form.fields[0]?.title.endsWith('…'));
    assert.ok(title?.warnings.some((w) => w.code === 'shortened' && w.part === 'title'));
    const field = labels?.form.fields[0];
    assert.ok(field && 'options' in field && field.options.every((o) => o.label.endsWith('…') && o.value.startsWith('v')));
    assert.ok(labels?.warnings.some((w) => w.code === 'shortened' && w.part === 'optionLabels'));
  });

  void it('url attacks: analyseUrl gives each the verdict listed (block: no Open button at all)', () => {
    const urls = CASES.filter((c) => c.urlVerdict !== undefined);
    assert.ok(urls.length >= 40);
    for (const c of urls) {
      const url = (c.params as { url: string }).url;
      assert.equal(analyseUrl(url, { allowHttpLoopback: false }).verdict, c.urlVerdict, `${c.tag}: ${url.slice(0, 80)}`);
    }
  });

  void it('malformed raw requests get the error code the case expects (stdio framing)', () => {
    const rawRequests = CASES.filter((c) => (c.raw as { kind?: string } | undefined)?.kind === 'request');
    const answered: unknown[] = [];
    const buffer = new AnsweringReadBuffer((r) => answered.push(r));
    for (const c of rawRequests) {
      const message = (c.raw as { message: Record<string, unknown> }).message;
      buffer.append(Buffer.from(`${JSON.stringify(message)}\n`));
      let parsed: unknown;
      try {
        parsed = buffer.readMessage();
      } catch {
        parsed = undefined;
      }
      const reply = replyToMalformed(message);
      if (c.expect === 'error-32601' || message['params'] === undefined) {
        // Well-formed on the wire: the SDK passes it on (method not found; the broker's own -32602).
        assert.ok(parsed, `${c.tag} passes the framing`);
        continue;
      }
      assert.equal(parsed, undefined, `${c.tag} is not passed on`);
      assert.equal(reply?.error.code, Number(c.expect.slice(5)), c.tag);
      assert.deepEqual(answered.at(-1), reply, `${c.tag} answered with the same id`);
    }
  });

  void it('a pattern that backtracks exponentially is given up within the budget', () => {
    const r = normaliseRequestedSchema({ type: 'object', properties: { a: { type: 'string', pattern: '^(a+)+$' } } });
    assert.ok(r.ok);
    const t0 = performance.now();
    assert.deepEqual(validateField(r.form, 'a', `${'a'.repeat(64)}!`), TOO_COMPLEX);
    assert.ok(performance.now() - t0 < VALIDATION_BUDGET_MS * 5, `${Math.round(performance.now() - t0)} ms`);
    // The same pattern still works for ordinary input.
    assert.equal(validateField(r.form, 'a', 'aaa'), undefined);
    assert.equal(validateField(r.form, 'a', 'b')?.code, 'pattern');
  });
});
