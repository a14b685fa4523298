/**
 * Normalises a form-mode `requestedSchema` (a flat object of primitive properties) into the
 * {@link FormModel} every renderer works from, or rejects it with a reason naming the property.
 */
import type { Field, FormModel } from '../../shared/fieldModel';
import { isRecord, normaliseProperty, propertyPath, SchemaError, show, type SchemaNote } from './schemaRules';
import { issueText } from './sentences';
import { english } from '../../shared/localize';
import { validateAnswer } from './validator';
import { messageAsksSecret } from '../../shared/secretNames';

export type { SchemaNote } from './schemaRules';

export { MAX_OPTIONS, MAX_PATTERN_CHARS, SUPPORTED_FORMATS } from './schemaRules';

/** Most fields one form may ask for. */
export const MAX_FIELDS = 100;
/** Longest property name accepted, in characters. */
export const MAX_KEY_CHARS = 200;

/**
 * Outcome of {@link normaliseRequestedSchema}. `error` is the -32602 reason, in English, for the
 * server's author; `notes` are lint for that author too (log and preview, not the person answering).
 */
export type NormaliseResult = { ok: true; form: FormModel; notes: SchemaNote[] } | { ok: false; error: string };

// These change what a valid answer is in ways a flat form cannot show, so ignoring them would
// let us accept answers the server will refuse.
const TOP_LEVEL_FORBIDDEN = ['$ref', '$dynamicRef', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'];

// `__proto__` would turn assignments into prototype changes; `''` is the form-level error key.
function checkKey(key: string): void {
  const path = propertyPath(key);
  if (key === '') throw new SchemaError(path, 'property name must not be empty');
  if (key === '__proto__') throw new SchemaError(path, 'property name "__proto__" is reserved');
  if (key.length > MAX_KEY_CHARS) throw new SchemaError(path, `property name too long (${key.length} > ${MAX_KEY_CHARS} characters)`);
}

function readRequired(schema: Record<string, unknown>, properties: Record<string, unknown>): Set<string> {
  const required = schema['required'];
  if (required === undefined) return new Set();
  if (!Array.isArray(required) || required.some((r) => typeof r !== 'string')) {
    throw new SchemaError('requestedSchema.required', `must be an array of property names (got ${show(required)})`);
  }
  const names = required as string[];
  const missing = names.find((r) => !Object.hasOwn(properties, r));
  if (missing !== undefined) throw new SchemaError('requestedSchema.required', `names ${show(missing)}, which is not in properties`);
  return new Set(names);
}

// Defaults must pass the same validator the answer will, so a pre-filled form is never invalid
// until the user touches it. One compile per form, and the compiled validator is then cached.
function checkDefaults(form: FormModel): void {
  const withDefault = form.fields.filter((f) => f.default !== undefined);
  if (withDefault.length === 0) return;
  const errors = validateAnswer(form, Object.fromEntries(withDefault.map((f) => [f.key, f.default]))).errors;
  for (const field of withDefault) {
    const issue = Object.hasOwn(errors, field.key) ? errors[field.key] : undefined;
    if (issue !== undefined) {
      throw new SchemaError(
        propertyPath(field.key),
        `default ${show(field.default)} breaks the field's own constraints (${issueText(issue, english)})`,
      );
    }
  }
}

/**
 * A form with one typed field is often named for nothing (`value`, `code`) while its message says
 * what it is ("Enter the 6-digit code we texted you"): the message then makes the field secret.
 */
function secretByMessage(fields: Field[], message: string | undefined): Field[] {
  const only = fields.length === 1 ? fields[0] : undefined;
  if (only === undefined || only.secretLike || message === undefined) return fields;
  if (only.kind !== 'string' && only.kind !== 'number' && only.kind !== 'integer') return fields;
  return messageAsksSecret(message) ? [{ ...only, secretLike: true }] : fields;
}

function normalise(schema: unknown, notes: SchemaNote[], message: string | undefined): FormModel {
  if (!isRecord(schema)) throw new SchemaError('requestedSchema', `must be an object schema (got ${show(schema)})`);
  if (schema['type'] !== 'object') throw new SchemaError('requestedSchema.type', `must be "object" (got ${show(schema['type'])})`);
  const forbidden = TOP_LEVEL_FORBIDDEN.find((k) => Object.hasOwn(schema, k));
  if (forbidden !== undefined) throw new SchemaError('requestedSchema', `${forbidden} is not allowed in form mode`);
  const properties = schema['properties'];
  if (!isRecord(properties)) throw new SchemaError('requestedSchema.properties', `must be an object (got ${show(properties)})`);
  const keys = Object.keys(properties);
  // No fields is valid in both protocol revisions: the request is a confirmation ("Proceed?"),
  // answered accept with `{}`, decline or cancel.
  if (keys.length > MAX_FIELDS) throw new SchemaError('requestedSchema.properties', `too many fields (${keys.length} > ${MAX_FIELDS})`);
  keys.forEach(checkKey);
  const required = readRequired(schema, properties);
  const warn = (note: SchemaNote): void => {
    notes.push(note);
  };
  const fields = secretByMessage(
    keys.map((key) => normaliseProperty(key, properties[key], required.has(key), warn)),
    message,
  );
  const form: FormModel = { fields, schema };
  checkDefaults(form);
  return form;
}

/**
 * Validates and normalises a form-mode `requestedSchema`. Accepts string (minLength, maxLength,
 * format, pattern), number/integer (minimum, maximum), boolean, single-select (`enum`, titled
 * `oneOf`, legacy `enum` + `enumNames`) and multi-select (`array` of `items.enum` or `items.anyOf`,
 * minItems, maxItems) properties, each with an optional `default`; unknown keywords are ignored.
 * Errors read `requestedSchema.properties.<key>: <reason>`. `form.schema` is the object as received;
 * titles, descriptions and labels are raw server text (sanitise before display). `message`, the
 * request's own text, takes part in the secret rule of a one-field form.
 */
export function normaliseRequestedSchema(schema: unknown, message?: string): NormaliseResult {
  const notes: SchemaNote[] = [];
  try {
    return { ok: true, form: normalise(schema, notes, message), notes };
  } catch (err) {
    if (err instanceof SchemaError) return { ok: false, error: err.message };
    // Anything else is our bug or an engine limit; still refuse rather than render a half-checked form.
    return { ok: false, error: `requestedSchema: could not be processed (${err instanceof Error ? err.message : String(err)})` };
  }
}
