/**
 * The one answer validator. The InputBox `validateInput`, the webview and the final check before
 * replying all call these functions, so a value is judged the same way everywhere. Built on ajv with
 * ajv-formats (the engine comes from ajvFactory.ts); compiled validators are cached.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, type Ajv } from './ajvFactory';
import { Script, createContext } from 'node:vm';
import type { AnswerContent, AnswerValue, Field, FieldOption, FormModel } from '../../shared/fieldModel';
import { sanitiseForDisplay } from '../safety/text';
import type { ExpectedType, ValidationIssue } from './issues';

export type { ValidationIssue } from './issues';
export { compilePattern } from './ajvFactory';

/** How many compiled validators are kept, keyed by their schema (least recently used goes first). */
export const VALIDATOR_CACHE_SIZE = 64;
// Ajv keeps every compiled schema's constants in its instance scope; starting a fresh instance
// now and then bounds that growth. Validators compiled earlier keep working.
const COMPILES_PER_AJV = 200;

let ajv: Ajv | undefined;
let compilesOnAjv = 0;
const byForm = new WeakMap<FormModel, ValidateFunction>();
const bySchema = new Map<string, ValidateFunction>();

function compile(schema: Record<string, unknown>): ValidateFunction {
  if (ajv === undefined || compilesOnAjv >= COMPILES_PER_AJV) {
    ajv = createAjv();
    compilesOnAjv = 0;
  }
  compilesOnAjv++;
  const fn = ajv.compile(schema);
  ajv.removeSchema(schema);
  return fn;
}

function fieldSchema(field: Field): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  const put = (name: string, v: unknown): void => {
    if (v !== undefined) s[name] = v;
  };
  switch (field.kind) {
    case 'string':
      s['type'] = 'string';
      put('minLength', field.minLength);
      put('maxLength', field.maxLength);
      put('format', field.format);
      put('pattern', field.pattern);
      break;
    case 'number':
    case 'integer':
      s['type'] = field.kind;
      put('minimum', field.minimum);
      put('maximum', field.maximum);
      break;
    case 'boolean':
      s['type'] = 'boolean';
      break;
    case 'singleSelect':
      s['type'] = 'string';
      s['enum'] = field.options.map((o) => o.value);
      break;
    case 'multiSelect':
      s['type'] = 'array';
      s['items'] = { type: 'string', enum: field.options.map((o) => o.value) };
      s['uniqueItems'] = true;
      put('minItems', field.minItems);
      put('maxItems', field.maxItems);
      break;
  }
  return s;
}

/**
 * The JSON Schema the validator compiles for a form, derived from its fields (not from the raw
 * `form.schema`) so that validation checks exactly what the UI renders. Extra keys are refused.
 */
export function answerSchema(form: FormModel): Record<string, unknown> {
  return {
    type: 'object',
    properties: Object.fromEntries(form.fields.map((f) => [f.key, fieldSchema(f)])),
    required: form.fields.filter((f) => f.required).map((f) => f.key),
    additionalProperties: false,
  };
}

function validatorFor(form: FormModel): ValidateFunction {
  const cached = byForm.get(form);
  if (cached !== undefined) return cached;
  const schema = answerSchema(form);
  const key = JSON.stringify(schema);
  let fn = bySchema.get(key);
  if (fn === undefined) {
    fn = compile(schema);
  } else {
    bySchema.delete(key);
  }
  bySchema.set(key, fn);
  if (bySchema.size > VALIDATOR_CACHE_SIZE) {
    const oldest = bySchema.keys().next();
    if (oldest.done !== true) bySchema.delete(oldest.value);
  }
  byForm.set(form, fn);
  return fn;
}

/**
 * Longest one validation may run. A server's `pattern` can backtrack exponentially (`^(a+)+$`
 * against `aaaa…!` takes seconds at 28 characters and hours at 40), and validation runs in the
 * extension host on every keystroke and on the defaults when a request arrives.
 */
export const VALIDATION_BUDGET_MS = 250;
/** The issue of a value whose check ran out of time (its pattern is pathological). */
export const TOO_COMPLEX: ValidationIssue = { code: 'tooComplex' };

// A vm timeout interrupts any JavaScript on the stack, regular expressions included, so one
// validation is bounded however the server wrote its patterns. One context, reused: cheap per call.
const bounded = new Script('run()');
const boundedContext = createContext({ run: (): unknown => undefined });

/** Inputs (as JSON) each validator ran out of time on twice in a row; they fail fast from then on. */
const tooComplex = new WeakMap<ValidateFunction, Set<string>>();
/** How many slow inputs are remembered per validator (a flood of distinct ones still costs the budget each). */
const TOO_COMPLEX_REMEMBERED = 32;

function runOnce(validate: ValidateFunction, data: unknown): boolean | 'timeout' {
  boundedContext['run'] = () => validate(data);
  try {
    return bounded.runInContext(boundedContext, { timeout: VALIDATION_BUDGET_MS }) === true;
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    throw err;
  } finally {
    boundedContext['run'] = () => undefined;
  }
}

function validateWithin(validate: ValidateFunction, data: unknown): boolean | 'timeout' {
  const key = JSON.stringify(data);
  const slow = tooComplex.get(validate);
  if (slow?.has(key)) return 'timeout';
  // The budget is wall-clock time: a GC pause or a busy machine can eat it once. Twice in a row
  // means the check itself is slow; remember the input, so a flood of the same request costs
  // nothing more.
  const first = runOnce(validate, data);
  if (first !== 'timeout') return first;
  const second = runOnce(validate, data);
  if (second === 'timeout') {
    const set = slow ?? new Set<string>();
    if (set.size >= TOO_COMPLEX_REMEMBERED) set.clear();
    tooComplex.set(validate, set.add(key));
  }
  return second;
}

function expectedType(field: Field | undefined): ExpectedType {
  switch (field?.kind) {
    case 'integer':
    case 'number':
    case 'boolean':
      return field.kind;
    case 'singleSelect':
      return 'option';
    case 'multiSelect':
      return 'options';
    default:
      return 'text';
  }
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

function issueFor(err: ErrorObject, field: Field | undefined, inItems: boolean): ValidationIssue {
  const p = err.params as Record<string, unknown>;
  if (inItems) return { code: 'notInList' };
  switch (err.keyword) {
    case 'required':
    case 'enum':
    case 'uniqueItems':
      return { code: err.keyword };
    case 'type':
      return { code: 'type', expected: expectedType(field) };
    case 'minimum':
    case 'maximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return { code: err.keyword, limit: num(p['limit']) };
    case 'format':
      return { code: 'format', format: String(p['format']) };
    case 'pattern': {
      const shown = sanitiseForDisplay(String(p['pattern']), 80);
      return { code: 'pattern', pattern: shown.truncated ? undefined : shown.text };
    }
    default:
      return { code: 'other', detail: err.message ?? 'invalid value' };
  }
}

function decodePointerSegment(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Validates reply content exactly as it would be sent. Errors are keyed by field key, `''` for
 * form-level problems (unexpected keys); one issue per field, for the UI to word.
 * Form values as typed, where `''` means "not answered", go through {@link buildReply} instead.
 */
export function validateAnswer(
  form: FormModel,
  content: Record<string, unknown>,
): { valid: boolean; errors: Record<string, ValidationIssue> } {
  const data = Object.fromEntries(Object.entries(content).filter(([, v]) => v !== undefined));
  const validate = validatorFor(form);
  const errors: Record<string, ValidationIssue> = {};
  // Only a server-written `pattern` can backtrack without bound (the format checks are fixed,
  // linear expressions), so only such forms pay for the time limit, and a busy machine cannot
  // make an ordinary form fail its own defaults.
  const verdict = form.fields.some((f) => f.kind === 'string' && f.pattern !== undefined)
    ? validateWithin(validate, data)
    : validate(data) === true;
  if (verdict === 'timeout') {
    // Which field was slow is unknown: every answered field, and the form, carry the issue.
    for (const key of Object.keys(data)) errors[key] = TOO_COMPLEX;
    errors[''] = TOO_COMPLEX;
    return { valid: false, errors };
  }
  if (verdict) return { valid: true, errors };
  const unexpected: string[] = [];
  let formLevel: ValidationIssue | undefined;
  for (const err of validate.errors ?? []) {
    if (err.keyword === 'additionalProperties') {
      const extra = String((err.params as Record<string, unknown>)['additionalProperty']);
      unexpected.push(sanitiseForDisplay(extra, 80).text);
      continue;
    }
    const segments = err.instancePath.split('/').slice(1).map(decodePointerSegment);
    const key = err.keyword === 'required' ? String((err.params as Record<string, unknown>)['missingProperty']) : segments[0];
    if (key === undefined) {
      formLevel ??= { code: 'other', detail: err.message ?? 'invalid answer' };
      continue;
    }
    if (Object.hasOwn(errors, key)) continue;
    errors[key] = issueFor(
      err,
      form.fields.find((f) => f.key === key),
      segments.length > 1,
    );
  }
  if (unexpected.length > 0) errors[''] = { code: 'unexpectedFields', keys: unexpected };
  else if (formLevel !== undefined) errors[''] = formLevel;
  return { valid: false, errors };
}

function isUnanswered(field: Field, value: AnswerValue | undefined): boolean {
  if (value === undefined) return true;
  if (value === '' && (field.kind === 'string' || field.kind === 'singleSelect')) return true;
  // A required multi-select may legitimately be empty (minItems permitting); an optional one is omitted.
  return field.kind === 'multiSelect' && !field.required && Array.isArray(value) && value.length === 0;
}

function collect(form: FormModel, values: Readonly<Record<string, AnswerValue | undefined>>, only?: string): [string, AnswerValue][] {
  const entries: [string, AnswerValue][] = [];
  for (const field of form.fields) {
    if (only !== undefined && field.key !== only) continue;
    const value = Object.hasOwn(values, field.key) ? values[field.key] : undefined;
    if (value === undefined || isUnanswered(field, value)) continue;
    entries.push([field.key, Array.isArray(value) ? [...value] : value]);
  }
  return entries;
}

/**
 * Turns the form's current values into reply `content`: keeps schema keys only, drops unanswered
 * fields (`undefined`; `''` for text and single-select; `[]` for an optional multi-select), coerces
 * nothing, then validates. Never returns `ok: true` with content that fails validation.
 */
export function buildReply(
  form: FormModel,
  values: Readonly<Record<string, AnswerValue | undefined>>,
): { ok: true; content: AnswerContent } | { ok: false; errors: Record<string, ValidationIssue> } {
  const content: AnswerContent = Object.fromEntries(collect(form, values));
  const result = validateAnswer(form, content);
  return result.valid ? { ok: true, content } : { ok: false, errors: result.errors };
}

/**
 * The live issue of one field, judged as {@link buildReply} would judge it (so an empty
 * required field is `required`), or `undefined` when the value is fine.
 */
export function validateField(form: FormModel, key: string, value: AnswerValue | undefined): ValidationIssue | undefined {
  if (!form.fields.some((f) => f.key === key)) return { code: 'unknownField', key: sanitiseForDisplay(key, 80).text };
  const content = Object.fromEntries(collect(form, Object.fromEntries([[key, value]]), key));
  const errors = validateAnswer(form, content).errors;
  return Object.hasOwn(errors, key) ? errors[key] : undefined;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function parseNumber(field: Field, raw: string): { ok: true; value: number } | { ok: false; issue: ValidationIssue } {
  const text = raw.trim();
  const integer = field.kind === 'integer';
  if (!DECIMAL.test(text)) return { ok: false, issue: { code: 'notANumber', integer } };
  const n = Number(text);
  if (!Number.isFinite(n)) return { ok: false, issue: { code: 'numberTooLarge' } };
  if (integer && !Number.isInteger(n)) return { ok: false, issue: { code: 'fraction' } };
  if (integer && !Number.isSafeInteger(n)) return { ok: false, issue: { code: 'inexact' } };
  return { ok: true, value: n === 0 ? 0 : n };
}

function matchOption(options: readonly FieldOption[], text: string): string | undefined {
  const exact = options.find((o) => o.value === text) ?? options.find((o) => o.label === text);
  if (exact !== undefined) return exact.value;
  const folded = text.trim().toLowerCase();
  const loose = options.filter((o) => o.value.toLowerCase() === folded || o.label.toLowerCase() === folded);
  return loose.length === 1 ? loose[0]?.value : undefined;
}

function noSuchOption(options: readonly FieldOption[], part: string | undefined): ValidationIssue {
  return {
    code: 'noSuchOption',
    options: options.slice(0, 5).map((o) => sanitiseForDisplay(o.label, 40).text),
    more: options.length > 5,
    part: part === undefined ? undefined : sanitiseForDisplay(part, 40).text,
  };
}

/**
 * Turns InputBox text into a typed value. `''` means "not answered" (`value: undefined`).
 * Numbers are parsed strictly (no `12abc`, blanks, `Infinity`, hex or thousands separators);
 * integer fields refuse fractions. Options match by value or label; multi-select takes a
 * comma-separated list. Constraints (bounds, lengths…) are left to {@link validateField}.
 */
export function parseFieldInput(
  field: Field,
  raw: string,
): { ok: true; value: AnswerValue | undefined } | { ok: false; issue: ValidationIssue } {
  if (raw === '') return { ok: true, value: undefined };
  switch (field.kind) {
    case 'string':
      return { ok: true, value: raw };
    case 'number':
    case 'integer':
      return parseNumber(field, raw);
    case 'boolean': {
      const t = raw.trim().toLowerCase();
      if (['true', 'yes', 'y', '1'].includes(t)) return { ok: true, value: true };
      if (['false', 'no', 'n', '0'].includes(t)) return { ok: true, value: false };
      return { ok: false, issue: { code: 'type', expected: 'boolean' } };
    }
    case 'singleSelect': {
      const value = matchOption(field.options, raw);
      return value === undefined ? { ok: false, issue: noSuchOption(field.options, undefined) } : { ok: true, value };
    }
    case 'multiSelect': {
      const picked: string[] = [];
      for (const part of raw
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '')) {
        const value = matchOption(field.options, part);
        if (value === undefined) {
          return { ok: false, issue: noSuchOption(field.options, part) };
        }
        if (!picked.includes(value)) picked.push(value);
      }
      return { ok: true, value: picked };
    }
  }
}

function defaultOf(field: Field): AnswerValue | undefined {
  if (field.kind !== 'multiSelect') return field.default;
  // A copy, so editing the pre-filled list never alters the model.
  return field.default === undefined ? undefined : [...field.default];
}

/** The values to pre-fill: each field's `default` (SEP-1034), `undefined` where there is none. */
export function defaultValues(form: FormModel): Record<string, AnswerValue | undefined> {
  return Object.fromEntries(form.fields.map((f) => [f.key, defaultOf(f)]));
}
