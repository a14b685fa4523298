import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  answerSchema,
  buildReply,
  defaultValues,
  parseFieldInput,
  validateAnswer,
  validateField,
  VALIDATOR_CACHE_SIZE,
} from '../../src/elicitation/form/validator';
import type { AnswerValue, Field } from '../../src/shared/fieldModel';
import type { ValidationIssue } from '../../src/elicitation/form/issues';
import { issueText } from '../../src/elicitation/form/sentences';
import { form } from './support/form';
import { english } from './support/localize';

/** The issue as the widgets word it in English (the validator itself returns codes). */
function say(issue: ValidationIssue | undefined): string | undefined {
  return issue === undefined ? undefined : issueText(issue, english);
}

function field(prop: Record<string, unknown>): Field {
  const f = form({ f: prop }).fields[0];
  assert.ok(f);
  return f;
}

/** The message for `{ f: value }` against a one-field form, or undefined when valid. */
function check(prop: Record<string, unknown>, value: unknown): string | undefined {
  const r = validateAnswer(form({ f: prop }), { f: value });
  assert.equal(r.valid, Object.keys(r.errors).length === 0, 'valid agrees with errors');
  return say(r.errors['f']);
}

void describe('validateAnswer: formats', () => {
  const cases: [string, string, boolean][] = [
    ['email', 'octocat@github.com', true],
    ['email', 'first.last+tag@sub.example.org', true],
    ['email', 'octocat', false],
    ['email', 'a@b', false],
    ['email', 'a b@example.com', false],
    ['email', '@example.com', false],
    ['uri', 'https://example.com/path?q=1', true],
    ['uri', 'mailto:someone@example.com', true],
    ['uri', 'example.com', false],
    ['uri', 'http://exa mple.com', false],
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['date', '2024-02-30', false],
    ['date', '2024-13-01', false],
    ['date', '2024-1-01', false],
    ['date', '01/02/2024', false],
    ['date-time', '2024-05-01T12:00:00Z', true],
    ['date-time', '2024-05-01T12:00:00.123+02:00', true],
    ['date-time', '2024-05-01T12:00:00', false],
    ['date-time', '2024-05-01', false],
    ['date-time', '2024-02-30T00:00:00Z', false],
    ['date-time', '2024-05-01T25:00:00Z', false],
  ];
  const expected: Record<string, RegExp> = {
    email: /valid email address/,
    uri: /valid URI/,
    date: /valid date \(YYYY-MM-DD\)/,
    'date-time': /valid date and time/,
  };
  for (const [format, value, ok] of cases) {
    void it(`${format} ${ok ? 'accepts' : 'rejects'} ${JSON.stringify(value)}`, () => {
      const message = check({ type: 'string', format }, value);
      if (ok) assert.equal(message, undefined);
      else assert.match(message ?? '', expected[format] ?? /never/);
    });
  }
});

void describe('validateAnswer: types, bounds, lengths, patterns, options', () => {
  const cases: [string, Record<string, unknown>, unknown, string | undefined][] = [
    ['integer accepts a whole number', { type: 'integer' }, 4, undefined],
    ['integer refuses a fraction', { type: 'integer' }, 4.5, 'Must be a whole number'],
    ['number accepts a fraction', { type: 'number' }, 4.5, undefined],
    ['number refuses a numeric string', { type: 'number' }, '4', 'Must be a number'],
    ['number refuses NaN', { type: 'number' }, Number.NaN, 'Must be a number'],
    ['number refuses Infinity', { type: 'number' }, Number.POSITIVE_INFINITY, 'Must be a number'],
    ['minimum is inclusive', { type: 'number', minimum: 18 }, 18, undefined],
    ['below minimum', { type: 'number', minimum: 18 }, 17.9, 'Must be at least 18'],
    ['maximum is inclusive', { type: 'integer', maximum: 10 }, 10, undefined],
    ['above maximum', { type: 'integer', maximum: 10 }, 11, 'Must be at most 10'],
    ['negative bounds', { type: 'number', minimum: -5, maximum: -1 }, 0, 'Must be at most -1'],
    ['minLength met', { type: 'string', minLength: 3 }, 'abc', undefined],
    ['too short', { type: 'string', minLength: 3 }, 'ab', 'Must be at least 3 characters'],
    ['singular character', { type: 'string', minLength: 1 }, '', 'Must be at least 1 character'],
    ['too long', { type: 'string', maxLength: 2 }, 'abc', 'Must be at most 2 characters'],
    ['string refuses a number', { type: 'string' }, 5, 'Must be text'],
    ['pattern matches', { type: 'string', pattern: '^[A-Z]{3}$' }, 'ABC', undefined],
    ['pattern fails', { type: 'string', pattern: '^[A-Z]{3}$' }, 'abc', 'Must match the pattern ^[A-Z]{3}$'],
    ['pattern is a search, not a full match', { type: 'string', pattern: 'x' }, 'axb', undefined],
    ['legacy-syntax pattern still validates', { type: 'string', pattern: String.raw`^[a-z\_]+$` }, 'a_b', undefined],
    [
      'legacy-syntax pattern still refuses',
      { type: 'string', pattern: String.raw`^[a-z\_]+$` },
      'a-b',
      String.raw`Must match the pattern ^[a-z\_]+$`,
    ],
    ['boolean refuses a string', { type: 'boolean' }, 'true', 'Must be true or false'],
    ['boolean accepts false', { type: 'boolean' }, false, undefined],
    ['enum member', { type: 'string', enum: ['a', 'b'] }, 'b', undefined],
    ['enum non-member', { type: 'string', enum: ['a', 'b'] }, 'c', 'Must be one of the listed options'],
    ['oneOf label is not a value', { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] }, 'Red', 'Must be one of the listed options'],
    [
      'legacy enumNames label is not a value',
      { type: 'string', enum: ['r'], enumNames: ['Red'] },
      'Red',
      'Must be one of the listed options',
    ],
  ];
  for (const [name, prop, value, message] of cases) {
    void it(name, () => assert.equal(check(prop, value), message));
  }

  const multi = { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 2, maxItems: 2 };
  const arrayCases: [string, Record<string, unknown>, unknown, string | undefined][] = [
    ['multi within bounds', multi, ['a', 'c'], undefined],
    ['multi too few', multi, ['a'], 'Pick at least 2'],
    ['multi too many', multi, ['a', 'b', 'c'], 'Pick at most 2'],
    ['multi unknown option', multi, ['a', 'z'], 'Contains an option that is not in the list'],
    ['multi duplicate option', multi, ['a', 'a'], 'Each option can be picked only once'],
    ['multi not an array', multi, 'a', 'Must be a list of options'],
    ['multi non-string item', multi, ['a', 1], 'Contains an option that is not in the list'],
    ['titled multi by value', { type: 'array', items: { anyOf: [{ const: 'x', title: 'X!' }] } }, ['x'], undefined],
    [
      'titled multi by label',
      { type: 'array', items: { anyOf: [{ const: 'x', title: 'X!' }] } },
      ['X!'],
      'Contains an option that is not in the list',
    ],
  ];
  for (const [name, prop, value, message] of arrayCases) {
    void it(name, () => assert.equal(check(prop, value), message));
  }
});

void describe('validateAnswer: form-level behaviour', () => {
  const f = form({ name: { type: 'string' }, age: { type: 'integer', maximum: 10 }, ok: { type: 'boolean' } }, ['name', 'ok']);

  void it('reports each missing required field as "Required"', () => {
    assert.deepEqual(validateAnswer(f, {}), { valid: false, errors: { name: { code: 'required' }, ok: { code: 'required' } } });
    assert.equal(say({ code: 'required' }), 'Required');
  });

  void it('treats undefined values as absent', () => {
    assert.deepEqual(validateAnswer(f, { name: 'x', ok: true, age: undefined }), { valid: true, errors: {} });
  });

  void it('reports unexpected keys at form level under ""', () => {
    const r = validateAnswer(f, { name: 'x', ok: true, admin: true });
    assert.equal(r.valid, false);
    assert.deepEqual(r.errors[''], { code: 'unexpectedFields', keys: ['admin'] });
    assert.match(say(r.errors['']) ?? '', /Unexpected field “admin”/);
  });

  void it('keys errors by field, one message each', () => {
    const r = validateAnswer(f, { name: 3, age: 11.5, ok: true });
    assert.deepEqual(Object.keys(r.errors).sort(), ['age', 'name']);
    assert.equal(typeof say(r.errors['age']), 'string');
  });

  void it('does not let Object.prototype satisfy a required field named like a prototype member', () => {
    const g = form({ constructor: { type: 'string' }, toString: { type: 'string' } }, ['constructor', 'toString']);
    assert.deepEqual(validateAnswer(g, {}).errors, { constructor: { code: 'required' }, toString: { code: 'required' } });
    assert.equal(validateAnswer(g, { constructor: 'a', toString: 'b' }).valid, true);
  });

  void it('handles keys that need JSON-pointer escaping', () => {
    const g = form({ 'a/b~c': { type: 'integer', maximum: 1 } });
    assert.deepEqual(validateAnswer(g, { 'a/b~c': 2 }).errors, { 'a/b~c': { code: 'maximum', limit: 1 } });
  });

  void it('works on hand-built forms and many distinct forms (cache eviction and engine rotation)', () => {
    const first = form({ n: { type: 'integer', maximum: 0 } });
    for (let i = 0; i < VALIDATOR_CACHE_SIZE * 4; i++) {
      const g = form({ n: { type: 'integer', maximum: i } });
      assert.equal(validateAnswer(g, { n: i }).valid, true);
      assert.deepEqual(validateAnswer(g, { n: i + 1 }).errors['n'], { code: 'maximum', limit: i });
    }
    assert.deepEqual(validateAnswer(first, { n: 1 }).errors['n'], { code: 'maximum', limit: 0 });
  });

  void it('compiles the schema derived from the fields, refusing extra keys', () => {
    assert.deepEqual(answerSchema(form({ c: { type: 'string', oneOf: [{ const: 'x', title: 'X' }] } }, ['c'])), {
      type: 'object',
      properties: { c: { type: 'string', enum: ['x'] } },
      required: ['c'],
      additionalProperties: false,
    });
  });
});

void describe('buildReply', () => {
  const f = form(
    {
      name: { type: 'string', minLength: 2 },
      nick: { type: 'string', minLength: 2 },
      color: { type: 'string', enum: ['red', 'blue'] },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
      picks: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      age: { type: 'integer' },
    },
    ['name', 'picks'],
  );

  void it('omits optional fields left undefined, "" or []', () => {
    assert.deepEqual(buildReply(f, { name: 'Al', nick: '', color: '', tags: [], picks: ['a'], age: undefined }), {
      ok: true,
      content: { name: 'Al', picks: ['a'] },
    });
  });

  void it('keeps [] for a required multi-select without minItems', () => {
    assert.deepEqual(buildReply(f, { name: 'Al', picks: [] }), { ok: true, content: { name: 'Al', picks: [] } });
  });

  void it('refuses [] for a required multi-select with minItems', () => {
    const g = form({ m: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 1 } }, ['m']);
    assert.deepEqual(buildReply(g, { m: [] }), { ok: false, errors: { m: { code: 'minItems', limit: 1 } } });
  });

  void it('treats "" in a required text field as missing', () => {
    assert.deepEqual(buildReply(f, { name: '', picks: [] }), { ok: false, errors: { name: { code: 'required' } } });
  });

  void it('reports missing required fields', () => {
    assert.deepEqual(buildReply(f, {}), { ok: false, errors: { name: { code: 'required' }, picks: { code: 'required' } } });
  });

  void it('drops keys that are not in the schema, own or inherited', () => {
    const values = Object.assign(Object.create({ age: 3 }) as Record<string, AnswerValue>, { name: 'Al', picks: [], admin: true });
    assert.deepEqual(buildReply(f, values), { ok: true, content: { name: 'Al', picks: [] } });
  });

  void it('does not coerce numeric strings', () => {
    const r = buildReply(f, { name: 'Al', picks: [], age: '42' });
    assert.equal(r.ok ? '' : say(r.errors['age']), 'Must be a whole number');
    assert.deepEqual(r, { ok: false, errors: { age: { code: 'type', expected: 'integer' } } });
  });

  void it('copies arrays so later edits cannot change the reply', () => {
    const picks = ['a'];
    const r = buildReply(f, { name: 'Al', picks });
    picks.push('b');
    assert.deepEqual(r.ok && r.content['picks'], ['a']);
  });

  void it('never returns ok with content that fails validation (random values)', () => {
    // Per-field pools mixing valid, empty and invalid values, so both outcomes occur often.
    const pools: Record<string, (AnswerValue | undefined)[]> = {
      name: ['Al', 'Bea', '', 'x', undefined, 3],
      nick: [undefined, '', 'Cy', 'z', true],
      color: ['red', 'blue', '', 'green', undefined],
      tags: [[], ['a'], ['a', 'b'], ['a', 'a'], ['z'], undefined],
      picks: [[], ['b'], ['a', 'b'], ['q'], undefined, 'a'],
      age: [undefined, 7, 1.5, -2, '4'],
    };
    let seed = 7;
    const next = (): number => (seed = (seed * 48271) % 2147483647);
    let oks = 0;
    for (let i = 0; i < 2000; i++) {
      const values: Record<string, AnswerValue | undefined> = {};
      for (const field of f.fields) {
        const pool = pools[field.key] ?? [];
        values[field.key] = pool[next() % pool.length];
      }
      const r = buildReply(f, values);
      if (r.ok) {
        oks++;
        assert.equal(validateAnswer(f, r.content).valid, true);
        for (const key of Object.keys(r.content)) assert.ok(f.fields.some((x) => x.key === key));
      } else {
        assert.ok(Object.keys(r.errors).length > 0);
      }
    }
    assert.ok(oks > 20 && oks < 1980, `both outcomes occur (${oks} ok)`);
  });
});

void describe('validateField', () => {
  const f = form(
    { name: { type: 'string', minLength: 2 }, age: { type: 'integer', maximum: 10 }, note: { type: 'string', minLength: 5 } },
    ['name', 'age'],
  );

  void it('returns the message for that field only', () => {
    assert.equal(say(validateField(f, 'age', 11)), 'Must be at most 10');
    assert.equal(validateField(f, 'age', 3), undefined, 'missing "name" does not leak into "age"');
  });

  void it('says "Required" for an empty required field, nothing for an empty optional one', () => {
    assert.equal(say(validateField(f, 'name', '')), 'Required');
    assert.equal(say(validateField(f, 'name', undefined)), 'Required');
    assert.equal(validateField(f, 'note', ''), undefined);
    assert.equal(say(validateField(f, 'note', 'abc')), 'Must be at least 5 characters');
  });

  void it('agrees with validateAnswer', () => {
    for (const v of [0, 10, 11, -4, 2.5]) {
      assert.deepEqual(validateField(f, 'age', v), validateAnswer(f, { name: 'ok', age: v }).errors['age']);
    }
  });

  void it('names an unknown field', () => {
    assert.match(say(validateField(f, 'nope', 'x')) ?? '', /Unknown field “nope”/);
  });
});

void describe('parseFieldInput', () => {
  const num = field({ type: 'number' });
  const int = field({ type: 'integer' });
  const cases: [string, Field, string, AnswerValue | undefined | RegExp][] = [
    ['empty number', num, '', undefined],
    ['empty text', field({ type: 'string' }), '', undefined],
    ['text kept verbatim', field({ type: 'string' }), ' a b ', ' a b '],
    ['integer', num, '12', 12],
    ['negative decimal', num, '-3.5', -3.5],
    ['explicit plus', num, '+4', 4],
    ['leading dot', num, '.5', 0.5],
    ['exponent', num, '1e3', 1000],
    ['surrounding spaces', num, ' 7 ', 7],
    ['minus zero becomes zero', num, '-0', 0],
    ['trailing letters', num, '12abc', /Must be a number/],
    ['only spaces', num, ' ', /Must be a number/],
    ['Infinity', num, 'Infinity', /Must be a number/],
    ['NaN', num, 'NaN', /Must be a number/],
    ['hex', num, '0x10', /Must be a number/],
    ['binary', num, '0b1', /Must be a number/],
    ['thousands separator', num, '1,000', /Must be a number/],
    ['trailing dot', num, '1.', /Must be a number/],
    ['double sign', num, '--1', /Must be a number/],
    ['overflow', num, '1e999', /too large/],
    ['integer ok', int, '42', 42],
    ['integer written as 3.0', int, '3.0', 3],
    ['integer via exponent', int, '2e2', 200],
    ['integer refuses fraction', int, '3.5', /whole number/],
    ['integer refuses garbage', int, '3x', /whole number/],
    ['integer beyond safe range', int, '9007199254740993', /too large to be exact/],
    ['boolean yes', field({ type: 'boolean' }), 'Yes', true],
    ['boolean false', field({ type: 'boolean' }), 'false', false],
    ['boolean garbage', field({ type: 'boolean' }), 'maybe', /true or false/],
  ];
  for (const [name, f, raw, expected] of cases) {
    void it(name, () => {
      const r = parseFieldInput(f, raw);
      if (expected instanceof RegExp) {
        assert.equal(r.ok, false);
        assert.match(r.ok ? '' : (say(r.issue) ?? ''), expected);
      } else {
        assert.deepEqual(r, { ok: true, value: expected });
      }
    });
  }

  const single = field({
    type: 'string',
    oneOf: [
      { const: 'r', title: 'Red' },
      { const: 'g', title: 'Green' },
    ],
  });
  void it('single-select matches value, label, then a unique case-insensitive label', () => {
    assert.deepEqual(parseFieldInput(single, 'r'), { ok: true, value: 'r' });
    assert.deepEqual(parseFieldInput(single, 'Green'), { ok: true, value: 'g' });
    assert.deepEqual(parseFieldInput(single, ' green '), { ok: true, value: 'g' });
  });

  void it('single-select refuses other text and lists the options', () => {
    const r = parseFieldInput(single, 'blue');
    assert.equal(r.ok, false);
    assert.deepEqual(r.ok ? undefined : r.issue, { code: 'noSuchOption', options: ['Red', 'Green'], more: false, part: undefined });
    assert.match(r.ok ? '' : (say(r.issue) ?? ''), /Must be one of: Red, Green/);
  });

  const multi = field({
    type: 'array',
    items: {
      anyOf: [
        { const: 'a', title: 'Alpha' },
        { const: 'b', title: 'Beta' },
      ],
    },
  });
  void it('multi-select takes a comma-separated list by value or label, without duplicates', () => {
    assert.deepEqual(parseFieldInput(multi, 'a, Beta, alpha'), { ok: true, value: ['a', 'b'] });
  });

  void it('multi-select names the unknown item', () => {
    const r = parseFieldInput(multi, 'a, Gamma');
    assert.match(r.ok ? '' : (say(r.issue) ?? ''), /“Gamma” is not one of: Alpha, Beta/);
  });
});

void describe('defaultValues', () => {
  const f = form({
    s: { type: 'string', default: 'hi' },
    n: { type: 'number', default: 2.5 },
    b: { type: 'boolean', default: false },
    c: { type: 'string', enum: ['x', 'y'], default: 'y' },
    m: { type: 'array', items: { enum: ['a', 'b'] }, default: ['b'] },
    none: { type: 'string' },
  });

  void it('pre-fills every default and leaves the rest undefined', () => {
    assert.deepEqual(defaultValues(f), { s: 'hi', n: 2.5, b: false, c: 'y', m: ['b'], none: undefined });
  });

  void it('returns a copy of array defaults', () => {
    const values = defaultValues(f);
    (values['m'] as string[]).push('a');
    assert.deepEqual(defaultValues(f)['m'], ['b']);
  });

  void it('defaults make a valid reply', () => {
    assert.equal(buildReply(f, defaultValues(f)).ok, true);
  });
});
