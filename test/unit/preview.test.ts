import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { checkElicitationPayload, type PreviewProblem } from '../../src/elicitation/form/preview';
import { formWarningText } from '../../src/ui/wording/formText';
import { schemaNoteText } from '../../src/elicitation/form/sentences';
import { urlReasonText } from '../../src/ui/wording/urlReasons';
import { english } from './support/localize';

/** A problem in English, as the command words it (-32602 reasons are English already). */
function text(p: PreviewProblem): string {
  switch (p.note.kind) {
    case 'reason':
      return p.note.text;
    case 'notJson':
      return `line ${p.note.line}, column ${p.note.column}: ${p.note.detail}`;
    case 'notRequest':
      return 'not a request';
    case 'schema':
      return schemaNoteText(p.note.note, english);
    case 'form':
      return formWarningText(p.note.warning, english);
    case 'url':
      return `url: ${urlReasonText(p.note.reason, english, undefined)}`;
  }
}

// The two form examples of the spec (elicitation-draft-with-url-mode.md), verbatim.
const SIMPLE = `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"mode":"form","message":"Please provide your GitHub username","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`;
const STRUCTURED = `{"jsonrpc":"2.0","id":2,"method":"elicitation/create","params":{"mode":"form","message":"Please provide your contact information","requestedSchema":{"type":"object","properties":{"name":{"type":"string","description":"Your full name"},"email":{"type":"string","format":"email","description":"Your email address"},"age":{"type":"number","minimum":18,"description":"Your age"}},"required":["name","email"]}}}`;

describe('preview: checkElicitationPayload', () => {
  it('accepts the spec example requests and builds their forms', () => {
    const a = checkElicitationPayload(SIMPLE);
    assert.equal(a.kind, 'form');
    assert.deepEqual(a.kind === 'form' && a.form?.fields.map((f) => f.key), ['name']);
    const b = checkElicitationPayload(STRUCTURED);
    assert.deepEqual(b.kind === 'form' && b.form?.fields.map((f) => [f.key, f.kind, f.required]), [
      ['name', 'string', true],
      ['email', 'string', true],
      ['age', 'number', false],
    ]);
    assert.deepEqual(b.kind === 'form' && b.violations, []);
  });

  it('accepts bare params and a bare requestedSchema (with comments)', () => {
    const params = checkElicitationPayload('{"message":"m","requestedSchema":{"type":"object","properties":{"x":{"type":"boolean"}}}}');
    assert.equal(params.kind === 'form' && params.form?.fields[0]?.kind, 'boolean');
    const bare = checkElicitationPayload('// a schema\n{"type":"object","properties":{"n":{"type":"integer","minimum":1}},}');
    assert.equal(bare.kind === 'form' && bare.form?.fields[0]?.kind, 'integer');
  });

  it('lists every violation of a deliberately broken request, each with its property and reason', () => {
    const broken = JSON.stringify({
      method: 'elicitation/create',
      params: {
        message: 'Broken',
        requestedSchema: {
          type: 'object',
          properties: {
            address: { type: 'object', properties: { street: { type: 'string' } } },
            tags: { type: 'array', items: { type: 'object' } },
            age: { type: 'integer', minimum: 10, maximum: 5 },
            ok: { type: 'string' },
          },
        },
      },
    });
    const r = checkElicitationPayload(broken);
    assert.equal(r.kind, 'form');
    const props = r.violations.map((v) => v.property);
    assert.deepEqual([...new Set(props)].sort(), ['address', 'age', 'tags']);
    for (const v of r.violations) assert.match(text(v), new RegExp(`properties\\.${v.property ?? ''}`));
    assert.equal(r.kind === 'form' && r.form, undefined, 'no form is rendered for a request the client would reject');
  });

  it('warns about URLs in a form message and secret-looking fields', () => {
    const r = checkElicitationPayload(
      '{"message":"Log in at https://evil.example/login","requestedSchema":{"type":"object","properties":{"password":{"type":"string"}}}}',
    );
    assert.equal(r.kind === 'form' && r.violations.length, 0);
    const all = r.kind === 'form' ? r.warnings.map(text).join('\n') : '';
    assert.match(all, /link \(https:\/\/evil\.example\/login\)/);
    assert.match(all, /secret/i);
    assert.deepEqual(r.kind === 'form' && r.userWarnings.map((w) => w.code), ['linkInMessage', 'secretField']);
  });

  it('lists server-author lint (enumNames, non-string titles, twin labels) for the author, not in what the user sees', () => {
    const r = checkElicitationPayload(
      JSON.stringify({
        message: 'Pick',
        requestedSchema: {
          type: 'object',
          properties: {
            color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
            size: {
              type: 'string',
              title: 7,
              oneOf: [
                { const: 's', title: 'Same' },
                { const: 'm', title: 'Same' },
              ],
            },
          },
        },
      }),
    );
    assert.equal(r.kind, 'form');
    if (r.kind !== 'form') return;
    assert.deepEqual(r.violations, []);
    const lint = r.warnings.filter((w) => w.note.kind === 'schema');
    assert.deepEqual(
      lint.map((w) => [w.property, w.note.kind === 'schema' && w.note.note.code]),
      [
        ['color', 'enumNamesDeprecated'],
        ['size', 'notAString'],
        ['size', 'duplicateLabel'],
      ],
    );
    assert.match(text(lint[0] as PreviewProblem), /enumNames is deprecated; use oneOf with const and title/);
    assert.deepEqual(r.userWarnings, [], 'nothing here is a risk to the person answering');
  });

  it('checks url mode: missing elicitationId is a violation, a javascript: URL is blocked', () => {
    const r = checkElicitationPayload('{"mode":"url","message":"m","url":"javascript:alert(1)"}');
    assert.equal(r.kind, 'url');
    const all = r.violations.map(text).join('\n');
    assert.match(all, /elicitationId/);
    assert.match(all, /url:/);
    assert.ok(r.violations.some((v) => v.note.kind === 'url' && v.note.reason.code === 'scheme'));
  });

  it('reports invalid JSON with its position, and unknown shapes', () => {
    const r = checkElicitationPayload('{"message": ');
    assert.equal(r.kind, 'invalid');
    assert.deepEqual(r.violations[0]?.note.kind === 'notJson' && r.violations[0].note.line, 1);
    assert.equal(checkElicitationPayload('[1,2]').kind, 'invalid');
  });
});
