/**
 * The one place an Ajv engine is built (a unit test keeps it that way): the answer validator, Run
 * Tool's JSON arguments and the SDK shims' output-schema check all judge JSON with the same
 * options, the same formats and the same `pattern` syntax.
 */
import type * as AjvModule from 'ajv';
import type { CodeOptions, default as Ajv, Logger } from 'ajv';
import type * as AjvFormats from 'ajv-formats';
import { sdkConsole } from '../../util/sdkConsole';

export type { default as Ajv } from 'ajv';

/**
 * Ajv with its formats (dist/ajv.js, about 130 KB) is loaded when the first schema is compiled:
 * a form, Run Tool's arguments or a tool's output schema. Activation does not need it, so it is
 * never read when no server asks for anything (test/unit/lazyLoads.test.ts checks the bundle).
 */
let engine: { Ajv: typeof Ajv; addFormats: typeof AjvFormats.default } | undefined;

function ajvEngine(): { Ajv: typeof Ajv; addFormats: typeof AjvFormats.default } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; `import()` would make every caller async
  engine ??= { Ajv: (require('ajv') as typeof AjvModule).default, addFormats: (require('ajv-formats') as typeof AjvFormats).default };
  return engine;
}

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
 * Where ajv's own lines go: without a `logger` it writes to the global console, which the extension
 * host keeps in its own log, unredacted and shared with every other extension. Those lines quote
 * the server's schema (`unknown format "…" ignored in schema at path "#/properties/…"`, and on a
 * failed compile the generated code with the schema's constants), so they take the route the MCP
 * SDK's console lines take to our redacting log (util/sdkConsole.ts).
 */
const ajvLogger: Logger = {
  log: (...args: unknown[]) => once(args, () => sdkConsole.info('[ajv]', ...args)),
  warn: (...args: unknown[]) => once(args, () => sdkConsole.warn('[ajv]', ...args)),
  error: (...args: unknown[]) => once(args, () => sdkConsole.error('[ajv]', ...args)),
};

/**
 * The lines said during the compile under way. ajv generates a keyword's code more than once in one
 * compile (a `type`-guarded keyword such as `format` is visited twice), and says its warning each
 * time; a compile is synchronous, so the set is emptied at the next microtask and a later compile of
 * the same schema is logged again.
 */
const saidThisCompile = new Set<string>();

function once(args: readonly unknown[], say: () => void): void {
  const key = args.map(String).join(' ');
  if (saidThisCompile.has(key)) return;
  if (saidThisCompile.size === 0) queueMicrotask(() => saidThisCompile.clear());
  saidThisCompile.add(key);
  say();
}

/**
 * A fresh engine. Schemas come from servers, so: not strict (unknown keywords are ignored, not
 * fatal), no meta-schema check (a schema naming another draft still compiles), every error
 * reported. ownProperties: a field named `toString` must not be satisfied by Object.prototype.
 * strictNumbers: NaN and Infinity are not JSON numbers. What ajv has to say goes to our log (ajvLogger).
 */
export function createAjv(): Ajv {
  const { Ajv, addFormats } = ajvEngine();
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    validateSchema: false,
    strictNumbers: true,
    ownProperties: true,
    code: { regExp: regExpEngine },
    logger: ajvLogger,
  });
  addFormats(ajv);
  return ajv;
}

/** A server's schema without its `$schema`: the engine is draft-07, and a 2020-12 dialect URI would be an unknown reference. */
export function withoutDialect(schema: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
