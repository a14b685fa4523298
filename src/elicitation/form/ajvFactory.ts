/**
 * The one place an Ajv engine is built (a unit test keeps it that way): the answer validator, Run
 * Tool's JSON arguments and the SDK shims' output-schema check all judge JSON with the same
 * options, the same formats and the same `pattern` syntax.
 */
import Ajv from 'ajv';
import type { CodeOptions } from 'ajv';
import addFormats from 'ajv-formats';

export type { default as Ajv } from 'ajv';

/**
 * Compiles a server `pattern` the way the validator runs it: with the `u` flag when the pattern
 * allows it, otherwise without, because servers often send escapes such as `\_` or `\:` that only
 * legacy (non-unicode) syntax accepts. Throws `SyntaxError` when neither works.
 */
export function compilePattern(source: string, flags = 'u'): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (err) {
    if (!flags.includes('u')) throw err;
    return new RegExp(source, flags.replace('u', ''));
  }
}

const regExpEngine: NonNullable<CodeOptions['regExp']> = Object.assign((source: string, flags: string) => compilePattern(source, flags), {
  code: 'compilePattern',
});

/**
 * A fresh engine. Schemas come from servers, so: not strict (unknown keywords are ignored, not
 * fatal), no meta-schema check (a schema naming another draft still compiles), every error
 * reported. ownProperties: a field named `toString` must not be satisfied by Object.prototype.
 * strictNumbers: NaN and Infinity are not JSON numbers.
 */
export function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    validateSchema: false,
    strictNumbers: true,
    ownProperties: true,
    code: { regExp: regExpEngine },
  });
  addFormats(ajv);
  return ajv;
}

/** A server's schema without its `$schema`: the engine is draft-07, and a 2020-12 dialect URI would be an unknown reference. */
export function withoutDialect(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
