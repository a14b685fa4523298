import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_FIELDS, MAX_KEY_CHARS, MAX_OPTIONS, normaliseRequestedSchema } from '../../src/elicitation/form/schema';
import { buildReply } from '../../src/elicitation/form/validator';
import type { Field } from '../../src/shared/fieldModel';
import { formOf, schemaOf } from './support/form';

function fieldOf(prop: unknown, required = false): Field {
  const { form } = formOf(schemaOf({ f: prop }, required ? ['f'] : undefined));
  const field = form.fields[0];
  assert.ok(field);
  return field;
}

function errorOf(schema: unknown): string {
  const r = normaliseRequestedSchema(schema);
  if (r.ok) assert.fail('expected a rejection');
  return r.error;
}

void describe('normaliseRequestedSchema: accepted shapes', () => {
  void it('normalises the spec example and keeps declaration order and required flags', () => {
    const raw = schemaOf(
      {
        name: { type: 'string', description: 'Your full name' },
        email: { type: 'string', format: 'email', description: 'Your email address' },
        age: { type: 'number', minimum: 18, description: 'Your age' },
      },
      ['name', 'email'],
    );
    const { form, warnings } = formOf(raw);
    assert.deepEqual(
      form.fields.map((f) => [f.key, f.kind, f.required]),
      [
        ['name', 'string', true],
        ['email', 'string', true],
        ['age', 'number', false],
      ],
    );
    assert.equal(form.schema, raw, 'form.schema is the object as received');
    assert.deepEqual(warnings, []);
  });

  void it('maps every string keyword', () => {
    assert.deepEqual(
      fieldOf({
        type: 'string',
        title: 'Code',
        description: 'd',
        minLength: 2,
        maxLength: 10,
        format: 'email',
        pattern: '^a',
        default: 'ab@c.de',
      }),
      {
        key: 'f',
        title: 'Code',
        description: 'd',
        required: false,
        secretLike: false,
        kind: 'string',
        minLength: 2,
        maxLength: 10,
        format: 'email',
        pattern: '^a',
        default: 'ab@c.de',
      },
    );
  });

  for (const format of ['email', 'uri', 'date', 'date-time']) {
    void it(`accepts format ${format}`, () => {
      const f = fieldOf({ type: 'string', format });
      assert.equal(f.kind === 'string' ? f.format : undefined, format);
    });
  }

  void it('title falls back to the key; a blank title counts as none', () => {
    assert.equal(fieldOf({ type: 'string' }).title, 'f');
    assert.equal(fieldOf({ type: 'string', title: '  ' }).title, 'f');
  });

  void it('keeps number and integer kinds with bounds and defaults', () => {
    assert.deepEqual(fieldOf({ type: 'number', minimum: -1.5, maximum: 2.5, default: 0.5 }), {
      key: 'f',
      title: 'f',
      description: undefined,
      required: false,
      secretLike: false,
      kind: 'number',
      minimum: -1.5,
      maximum: 2.5,
      default: 0.5,
    });
    const i = fieldOf({ type: 'integer', minimum: 1, default: 3 }, true);
    assert.equal(i.kind, 'integer');
    assert.equal(i.required, true);
  });

  void it('keeps boolean defaults', () => {
    const f = fieldOf({ type: 'boolean', default: false });
    assert.equal(f.kind, 'boolean');
    assert.equal(f.default, false);
  });

  void it('untitled enum becomes a single-select whose labels are the values', () => {
    const f = fieldOf({ type: 'string', enum: ['red', 'green'], default: 'green' });
    assert.equal(f.kind, 'singleSelect');
    assert.deepEqual(f.kind === 'singleSelect' && f.options, [
      { value: 'red', label: 'red' },
      { value: 'green', label: 'green' },
    ]);
    assert.equal(f.default, 'green');
  });

  void it('titled oneOf becomes a single-select with titles as labels (missing title falls back to const)', () => {
    const f = fieldOf({ type: 'string', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g' }] });
    assert.deepEqual(f.kind === 'singleSelect' && f.options, [
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'g' },
    ]);
  });

  void it('blank option titles and enumNames fall back to the value', () => {
    const titled = fieldOf({ type: 'string', oneOf: [{ const: 'r', title: ' ' }] });
    assert.deepEqual(titled.kind === 'singleSelect' && titled.options, [{ value: 'r', label: 'r' }]);
    const legacy = fieldOf({ type: 'string', enum: ['r'], enumNames: [''] });
    assert.deepEqual(legacy.kind === 'singleSelect' && legacy.options, [{ value: 'r', label: 'r' }]);
  });

  void it('warns when legacy enumNames give two options the same label', () => {
    const { warnings, notes } = formOf(schemaOf({ c: { type: 'string', enum: ['a', 'b'], enumNames: ['Same', 'Same'] } }));
    assert.equal(warnings.length, 2);
    assert.deepEqual(notes[1], { code: 'duplicateLabel', path: 'requestedSchema.properties.c', label: '"Same"' });
    assert.match(warnings[1] ?? '', /requestedSchema\.properties\.c: several options are labelled "Same"/);
  });

  void it('legacy enum + enumNames is accepted with a deprecation warning', () => {
    const { form, warnings } = formOf(schemaOf({ c: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] } }));
    const f = form.fields[0];
    assert.deepEqual(f?.kind === 'singleSelect' && f.options, [
      { value: 'r', label: 'Red' },
      { value: 'g', label: 'Green' },
    ]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /requestedSchema\.properties\.c: enumNames is deprecated/);
    assert.deepEqual(formOf(schemaOf({ c: { type: 'string', enum: ['r'], enumNames: ['Red'] } })).notes, [
      { code: 'enumNamesDeprecated', path: 'requestedSchema.properties.c' },
    ]);
  });

  void it('untitled multi-select (items.enum) with bounds and default', () => {
    const f = fieldOf({ type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2, default: ['a'] });
    assert.equal(f.kind, 'multiSelect');
    if (f.kind !== 'multiSelect') return;
    assert.deepEqual(
      f.options.map((o) => o.value),
      ['a', 'b', 'c'],
    );
    assert.equal(f.minItems, 1);
    assert.equal(f.maxItems, 2);
    assert.deepEqual(f.default, ['a']);
  });

  void it('titled multi-select (items.anyOf) without items.type', () => {
    const f = fieldOf({
      type: 'array',
      items: {
        anyOf: [
          { const: 'a', title: 'Alpha' },
          { const: 'b', title: 'Beta' },
        ],
      },
    });
    assert.deepEqual(f.kind === 'multiSelect' && f.options, [
      { value: 'a', label: 'Alpha' },
      { value: 'b', label: 'Beta' },
    ]);
  });

  void it('maxItems above the option count is fine', () => {
    assert.equal(fieldOf({ type: 'array', items: { type: 'string', enum: ['a'] }, maxItems: 5 }).kind, 'multiSelect');
  });

  void it('ignores unknown keywords, top-level and per property', () => {
    const { form } = formOf({
      type: 'object',
      $schema: 'x',
      additionalProperties: true,
      properties: { a: { type: 'string', 'x-ui': 1, examples: ['q'] } },
    });
    assert.equal(form.fields.length, 1);
  });

  void it('fills secretLike from the key, title and description', () => {
    const { form } = formOf(
      schemaOf({ apiKey: { type: 'string' }, nick: { type: 'string', description: 'Your password' }, city: { type: 'string' } }),
    );
    assert.deepEqual(
      form.fields.map((f) => f.secretLike),
      [true, true, false],
    );
  });

  void it('accepts a pattern that is only valid without the unicode flag', () => {
    const f = fieldOf({ type: 'string', pattern: String.raw`^[a-z\_]+$` });
    assert.equal(f.kind === 'string' && f.pattern, String.raw`^[a-z\_]+$`);
  });

  void it('accepts exactly the limits', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_FIELDS }, (_, i) => [`f${i}`, { type: 'boolean' }]));
    assert.equal(formOf(schemaOf(many)).form.fields.length, MAX_FIELDS);
    const options = Array.from({ length: MAX_OPTIONS }, (_, i) => `o${i}`);
    assert.equal(fieldOf({ type: 'string', enum: options }).kind, 'singleSelect');
    assert.equal(formOf(schemaOf({ ['k'.repeat(MAX_KEY_CHARS)]: { type: 'string' } })).form.fields.length, 1);
  });

  void it('warns (does not fail) on non-string titles and duplicate labels', () => {
    const { form, warnings } = formOf(
      schemaOf({
        a: {
          type: 'string',
          title: 5,
          oneOf: [
            { const: 'x', title: 'Same' },
            { const: 'y', title: 'Same' },
          ],
        },
      }),
    );
    assert.equal(form.fields[0]?.title, 'a');
    assert.equal(warnings.length, 2);
    assert.ok(warnings.some((w) => w.includes('title is not a string')));
    assert.ok(warnings.some((w) => w.includes('several options are labelled "Same"')));
  });

  void it('accepts a form with no fields (a confirmation) and its only reply is {}', () => {
    for (const schema of [schemaOf({}), { type: 'object', properties: {}, required: [] }]) {
      const r = normaliseRequestedSchema(schema);
      assert.ok(r.ok, JSON.stringify(r));
      assert.deepEqual(r.form.fields, []);
      assert.deepEqual(r.notes, []);
      assert.deepEqual(buildReply(r.form, {}), { ok: true, content: {} });
      // Nothing may be smuggled into the reply of a confirmation.
      assert.deepEqual(buildReply(r.form, { extra: 'x' }), { ok: true, content: {} });
    }
  });

  void it('accepts valid defaults for every kind', () => {
    const { form } = formOf(
      schemaOf({
        s: { type: 'string', minLength: 2, pattern: '^[a-z]+$', default: 'ok' },
        d: { type: 'string', format: 'date', default: '2024-02-29' },
        n: { type: 'integer', minimum: 0, maximum: 10, default: 10 },
        b: { type: 'boolean', default: true },
        e: { type: 'string', oneOf: [{ const: 'x', title: 'X' }], default: 'x' },
        m: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1, default: ['b'] },
      }),
    );
    assert.deepEqual(
      form.fields.map((f) => f.default),
      ['ok', '2024-02-29', 10, true, 'x', ['b']],
    );
  });
});

/** [case, schema, expected path (as it appears in the message), expected reason fragment] */
const REJECTIONS: [string, unknown, string, RegExp][] = [
  ['null schema', null, 'requestedSchema', /must be an object schema/],
  ['array schema', [], 'requestedSchema', /must be an object schema/],
  ['string schema', 'object', 'requestedSchema', /must be an object schema/],
  ['top-level type string', { type: 'string', properties: {} }, 'requestedSchema.type', /must be "object"/],
  ['top-level type missing', { properties: { a: { type: 'string' } } }, 'requestedSchema.type', /must be "object"/],
  ['properties missing', { type: 'object' }, 'requestedSchema.properties', /must be an object/],
  ['properties is an array', { type: 'object', properties: [] }, 'requestedSchema.properties', /must be an object/],
  [
    'required names a field of an empty form',
    { type: 'object', properties: {}, required: ['go'] },
    'requestedSchema.required',
    /not in properties/,
  ],
  ['top-level $ref', { type: 'object', properties: { a: { type: 'string' } }, $ref: '#/x' }, 'requestedSchema', /\$ref is not allowed/],
  ['top-level allOf', { type: 'object', properties: { a: { type: 'string' } }, allOf: [] }, 'requestedSchema', /allOf is not allowed/],
  ['top-level anyOf', { type: 'object', properties: { a: { type: 'string' } }, anyOf: [] }, 'requestedSchema', /anyOf is not allowed/],
  ['top-level oneOf', { type: 'object', properties: { a: { type: 'string' } }, oneOf: [] }, 'requestedSchema', /oneOf is not allowed/],
  [
    'nested object',
    schemaOf({ address: { type: 'object', properties: { street: { type: 'string' } } } }),
    'requestedSchema.properties.address',
    /nested objects are not allowed in form mode/,
  ],
  [
    'nested object without type',
    schemaOf({ address: { properties: {} } }),
    'requestedSchema.properties.address',
    /nested objects are not allowed/,
  ],
  [
    'array of objects',
    schemaOf({ people: { type: 'array', items: { type: 'object', properties: {} } } }),
    'requestedSchema.properties.people',
    /arrays of objects are not allowed/,
  ],
  [
    'array of numbers',
    schemaOf({ nums: { type: 'array', items: { type: 'number' } } }),
    'requestedSchema.properties.nums',
    /arrays must be of string options/,
  ],
  [
    'free-form string array',
    schemaOf({ tags: { type: 'array', items: { type: 'string' } } }),
    'requestedSchema.properties.tags',
    /free-form arrays are not allowed/,
  ],
  ['array without items', schemaOf({ tags: { type: 'array' } }), 'requestedSchema.properties.tags', /items must be an object/],
  [
    'items with enum and anyOf',
    schemaOf({ t: { type: 'array', items: { enum: ['a'], anyOf: [{ const: 'a' }] } } }),
    'requestedSchema.properties.t',
    /both enum and anyOf/,
  ],
  ['$ref in a property', schemaOf({ a: { $ref: '#/defs/x' } }), 'requestedSchema.properties.a', /\$ref is not allowed/],
  [
    '$ref deep in a property',
    schemaOf({ a: { type: 'array', items: { anyOf: [{ $ref: '#/x' }] } } }),
    'requestedSchema.properties.a',
    /\$ref is not allowed/,
  ],
  ['property allOf', schemaOf({ a: { type: 'string', allOf: [] } }), 'requestedSchema.properties.a', /allOf is not allowed/],
  [
    'property anyOf (nullable)',
    schemaOf({ a: { anyOf: [{ type: 'string' }, { type: 'null' }] } }),
    'requestedSchema.properties.a',
    /anyOf is not allowed/,
  ],
  ['missing type', schemaOf({ a: { title: 'A' } }), 'requestedSchema.properties.a', /type is missing/],
  [
    'typeless enum',
    schemaOf({ a: { enum: ['x'] } }),
    'requestedSchema.properties.a',
    /type is missing \(a single-select must declare type "string"\)/,
  ],
  [
    'typeless oneOf',
    schemaOf({ a: { oneOf: [{ const: 'x', title: 'X' }] } }),
    'requestedSchema.properties.a',
    /single-select must declare type "string"/,
  ],
  [
    'unknown type',
    schemaOf({ a: { type: 'null' } }),
    'requestedSchema.properties.a',
    /unsupported type "null" \(supported: string, number, integer, boolean, array\)/,
  ],
  ['misspelt type', schemaOf({ a: { type: 'text' } }), 'requestedSchema.properties.a', /unsupported type "text"/],
  ['type as array', schemaOf({ a: { type: ['string', 'null'] } }), 'requestedSchema.properties.a', /type must be a single string/],
  ['property not an object', schemaOf({ a: 'string' }), 'requestedSchema.properties.a', /must be a schema object/],
  [
    'enum on a number',
    schemaOf({ a: { type: 'number', enum: [1, 2] } }),
    'requestedSchema.properties.a',
    /enum is only allowed on type "string"/,
  ],
  [
    'minimum as a string',
    schemaOf({ age: { type: 'number', minimum: '3' } }),
    'requestedSchema.properties.age',
    /minimum must be a number \(got "3"\)/,
  ],
  ['maximum as null', schemaOf({ age: { type: 'integer', maximum: null } }), 'requestedSchema.properties.age', /maximum must be a number/],
  [
    'negative maxLength',
    schemaOf({ n: { type: 'string', maxLength: -1 } }),
    'requestedSchema.properties.n',
    /maxLength must be a non-negative integer \(got -1\)/,
  ],
  [
    'fractional minLength',
    schemaOf({ n: { type: 'string', minLength: 1.5 } }),
    'requestedSchema.properties.n',
    /minLength must be a non-negative integer/,
  ],
  [
    'string maxLength',
    schemaOf({ n: { type: 'string', maxLength: '10' } }),
    'requestedSchema.properties.n',
    /maxLength must be a non-negative integer/,
  ],
  [
    'fractional minItems',
    schemaOf({ m: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 0.5 } }),
    'requestedSchema.properties.m',
    /minItems must be a non-negative integer/,
  ],
  [
    'negative maxItems',
    schemaOf({ m: { type: 'array', items: { enum: ['a'] }, maxItems: -2 } }),
    'requestedSchema.properties.m',
    /maxItems must be a non-negative integer/,
  ],
  [
    'minLength > maxLength',
    schemaOf({ n: { type: 'string', minLength: 5, maxLength: 2 } }),
    'requestedSchema.properties.n',
    /contradictory constraints: minLength 5 > maxLength 2/,
  ],
  [
    'minimum > maximum',
    schemaOf({ n: { type: 'number', minimum: 10, maximum: 1 } }),
    'requestedSchema.properties.n',
    /contradictory constraints: minimum 10 > maximum 1/,
  ],
  [
    'no integer in range',
    schemaOf({ n: { type: 'integer', minimum: 1.2, maximum: 1.8 } }),
    'requestedSchema.properties.n',
    /no whole number lies between/,
  ],
  [
    'minItems > maxItems',
    schemaOf({ m: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 3, maxItems: 1 } }),
    'requestedSchema.properties.m',
    /minItems 3 > maxItems 1/,
  ],
  [
    'minItems > option count',
    schemaOf({ m: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 3 } }),
    'requestedSchema.properties.m',
    /minItems 3 > the 2 options offered/,
  ],
  [
    'invalid pattern',
    schemaOf({ p: { type: 'string', pattern: '([a-z' } }),
    'requestedSchema.properties.p',
    /pattern is not a valid regular expression/,
  ],
  ['pattern not a string', schemaOf({ p: { type: 'string', pattern: 5 } }), 'requestedSchema.properties.p', /pattern must be a string/],
  [
    'unknown format',
    schemaOf({ phone: { type: 'string', format: 'phone' } }),
    'requestedSchema.properties.phone',
    /format "phone" is not supported \(supported: email, uri, date, date-time\)/,
  ],
  ['required not an array', schemaOf({ a: { type: 'string' } }, 'a'), 'requestedSchema.required', /must be an array of property names/],
  [
    'required with a number',
    schemaOf({ a: { type: 'string' } }, ['a', 1]),
    'requestedSchema.required',
    /must be an array of property names/,
  ],
  [
    'required names an absent key',
    schemaOf({ a: { type: 'string' } }, ['a', 'b']),
    'requestedSchema.required',
    /names "b", which is not in properties/,
  ],
  [
    'enum duplicate',
    schemaOf({ c: { type: 'string', enum: ['a', 'b', 'a'] } }),
    'requestedSchema.properties.c',
    /enum has a duplicate value "a"/,
  ],
  [
    'enum non-string',
    schemaOf({ c: { type: 'string', enum: ['a', 2] } }),
    'requestedSchema.properties.c',
    /enum values must be strings \(enum\[1\] is number\)/,
  ],
  ['enum empty', schemaOf({ c: { type: 'string', enum: [] } }), 'requestedSchema.properties.c', /enum must list at least one option/],
  ['enum not an array', schemaOf({ c: { type: 'string', enum: 'a' } }), 'requestedSchema.properties.c', /enum must be an array/],
  [
    'enumNames too short',
    schemaOf({ c: { type: 'string', enum: ['a', 'b'], enumNames: ['A'] } }),
    'requestedSchema.properties.c',
    /enumNames has 1 entries but enum has 2/,
  ],
  [
    'enumNames not strings',
    schemaOf({ c: { type: 'string', enum: ['a'], enumNames: [1] } }),
    'requestedSchema.properties.c',
    /enumNames must be an array of strings/,
  ],
  [
    'oneOf without const',
    schemaOf({ c: { type: 'string', oneOf: [{ title: 'A' }] } }),
    'requestedSchema.properties.c',
    /oneOf\[0\] must be an object with a string const/,
  ],
  [
    'oneOf numeric const',
    schemaOf({ c: { type: 'string', oneOf: [{ const: 'a' }, { const: 1, title: 'One' }] } }),
    'requestedSchema.properties.c',
    /oneOf\[1\] must be an object with a string const/,
  ],
  [
    'oneOf duplicate const',
    schemaOf({ c: { type: 'string', oneOf: [{ const: 'a' }, { const: 'a' }] } }),
    'requestedSchema.properties.c',
    /oneOf has a duplicate value "a"/,
  ],
  [
    'enum and oneOf together',
    schemaOf({ c: { type: 'string', enum: ['a'], oneOf: [{ const: 'a' }] } }),
    'requestedSchema.properties.c',
    /both enum and oneOf/,
  ],
  [
    'items.anyOf without const',
    schemaOf({ m: { type: 'array', items: { anyOf: [{ title: 'x' }] } } }),
    'requestedSchema.properties.m',
    /items\.anyOf\[0\] must be an object with a string const/,
  ],
  [
    'items.enum duplicate',
    schemaOf({ m: { type: 'array', items: { enum: ['a', 'a'] } } }),
    'requestedSchema.properties.m',
    /items\.enum has a duplicate value/,
  ],
  [
    'string default wrong type',
    schemaOf({ s: { type: 'string', default: 5 } }),
    'requestedSchema.properties.s',
    /default must be a string \(got 5\)/,
  ],
  [
    'number default wrong type',
    schemaOf({ n: { type: 'number', default: '5' } }),
    'requestedSchema.properties.n',
    /default must be a number \(got "5"\)/,
  ],
  [
    'boolean default wrong type',
    schemaOf({ b: { type: 'boolean', default: 'true' } }),
    'requestedSchema.properties.b',
    /default must be a boolean/,
  ],
  [
    'multi default not an array',
    schemaOf({ m: { type: 'array', items: { enum: ['a'] }, default: 'a' } }),
    'requestedSchema.properties.m',
    /default must be an array of strings/,
  ],
  [
    'default above maximum',
    schemaOf({ age: { type: 'integer', maximum: 120, default: 150 } }),
    'requestedSchema.properties.age',
    /default 150 breaks the field's own constraints \(Must be at most 120\)/,
  ],
  [
    'integer default fractional',
    schemaOf({ n: { type: 'integer', default: 1.5 } }),
    'requestedSchema.properties.n',
    /default 1.5 .*Must be a whole number/,
  ],
  [
    'default not in enum',
    schemaOf({ c: { type: 'string', enum: ['a', 'b'], default: 'z' } }),
    'requestedSchema.properties.c',
    /default "z" .*Must be one of the listed options/,
  ],
  [
    'multi default not in options',
    schemaOf({ m: { type: 'array', items: { enum: ['a'] }, default: ['b'] } }),
    'requestedSchema.properties.m',
    /default \["b"\] .*not in the list/,
  ],
  [
    'multi default too many',
    schemaOf({ m: { type: 'array', items: { enum: ['a', 'b'] }, maxItems: 1, default: ['a', 'b'] } }),
    'requestedSchema.properties.m',
    /Pick at most 1/,
  ],
  [
    'default fails pattern',
    schemaOf({ z: { type: 'string', pattern: '^[0-9]+$', default: 'abc' } }),
    'requestedSchema.properties.z',
    /default "abc" .*Must match the pattern/,
  ],
  [
    'default fails format',
    schemaOf({ e: { type: 'string', format: 'email', default: 'nope' } }),
    'requestedSchema.properties.e',
    /default "nope" .*valid email address/,
  ],
  [
    'default impossible date',
    schemaOf({ d: { type: 'string', format: 'date', default: '2024-02-30' } }),
    'requestedSchema.properties.d',
    /valid date/,
  ],
  [
    'default too short',
    schemaOf({ s: { type: 'string', minLength: 3, default: 'ab' } }),
    'requestedSchema.properties.s',
    /Must be at least 3 characters/,
  ],
  [
    'too many fields',
    schemaOf(Object.fromEntries(Array.from({ length: MAX_FIELDS + 1 }, (_, i) => [`f${i}`, { type: 'string' }]))),
    'requestedSchema.properties',
    /too many fields \(101 > 100\)/,
  ],
  [
    'too many options',
    schemaOf({ c: { type: 'string', enum: Array.from({ length: MAX_OPTIONS + 1 }, (_, i) => `o${i}`) } }),
    'requestedSchema.properties.c',
    /too many options in enum \(1001 > 1000\)/,
  ],
  [
    'too many multi options',
    schemaOf({ m: { type: 'array', items: { enum: Array.from({ length: MAX_OPTIONS + 1 }, (_, i) => `o${i}`) } } }),
    'requestedSchema.properties.m',
    /too many options in items\.enum/,
  ],
  [
    'key too long',
    schemaOf({ ['k'.repeat(MAX_KEY_CHARS + 1)]: { type: 'string' } }),
    'requestedSchema.properties["kkk',
    /property name too long \(201 > 200 characters\)/,
  ],
  ['empty key', schemaOf({ '': { type: 'string' } }), 'requestedSchema.properties[""]', /must not be empty/],
  [
    '__proto__ key',
    JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}'),
    'requestedSchema.properties.__proto__',
    /reserved/,
  ],
];

void describe('normaliseRequestedSchema: rejections name the property and the reason', () => {
  for (const [name, schema, path, reason] of REJECTIONS) {
    void it(name, () => {
      const error = errorOf(schema);
      assert.ok(error.startsWith(path), `"${error}" should start with "${path}"`);
      assert.match(error, reason);
    });
  }

  void it('quotes odd keys in the path', () => {
    assert.match(errorOf(schemaOf({ 'first name': { type: 'object' } })), /^requestedSchema\.properties\["first name"\]: nested objects/);
  });

  void it('rejects hostile nesting without overflowing the stack', () => {
    let deep: unknown = { $ref: '#' };
    for (let i = 0; i < 20000; i++) deep = { items: deep };
    assert.match(errorOf(schemaOf({ a: deep })), /\$ref is not allowed/);
  });

  void it('never throws, whatever it is given', () => {
    for (const input of [undefined, 0, true, Symbol('x'), () => 1, new Date(), schemaOf({ a: undefined })]) {
      assert.equal(normaliseRequestedSchema(input).ok, false);
    }
  });
});
