/**
 * Per-property rules for form-mode `requestedSchema`: turns one property schema into a {@link Field}
 * or fails with a message naming the property path and the reason. Defaults are type-checked here;
 * whether they satisfy their constraints is checked by the validator in `schema.ts`.
 */
import type { Field, FieldOption, StringFormat } from '../../shared/fieldModel';
import { looksSecret } from '../safety/text';
import { compilePattern } from './ajvFactory';

/** Most options one single- or multi-select may offer. */
export const MAX_OPTIONS = 1000;
/** Longest `pattern` accepted, in characters; long patterns are costly to compile and to run. */
export const MAX_PATTERN_CHARS = 1000;
/** The string formats form mode supports (spec: email, uri, date, date-time). */
export const SUPPORTED_FORMATS: readonly StringFormat[] = ['email', 'uri', 'date', 'date-time'];

/** A schema problem; its message is the user-facing error `normaliseRequestedSchema` returns. */
export class SchemaError extends Error {
  constructor(path: string, reason: string) {
    super(`${path}: ${reason}`);
    this.name = 'SchemaError';
  }
}

/**
 * Lint for the server's author, not a risk to the person answering: the form is still shown.
 * `path` is `requestedSchema.properties.<key>`.
 */
export type SchemaNote =
  | { readonly code: 'enumNamesDeprecated'; readonly path: string }
  /** `keyword` is where the non-string text was (`title`, `description`, `oneOf[2].title`…). */
  | { readonly code: 'notAString'; readonly path: string; readonly keyword: string }
  /** Several options show the same label (`label`, as JSON) but send different values. */
  | { readonly code: 'duplicateLabel'; readonly path: string; readonly label: string };

type Warn = (note: SchemaNote) => void;

/** A plain JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A JSON-ish rendering of a value for messages, short enough to stay readable. */
export function show(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** `requestedSchema.properties.name`, or `requestedSchema.properties["odd key"]` when quoting is needed. */
export function propertyPath(key: string): string {
  const shown = key.length > 60 ? `${key.slice(0, 57)}…` : key;
  return /^[A-Za-z_$][\w$-]*$/.test(shown) ? `requestedSchema.properties.${shown}` : `requestedSchema.properties[${JSON.stringify(shown)}]`;
}

function has(obj: Record<string, unknown>, name: string): boolean {
  return Object.hasOwn(obj, name);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  return Array.isArray(v) ? 'array' : typeof v;
}

const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'];

/** Fails if `$ref` (or its dynamic variants) appears anywhere inside the property schema. */
function rejectRefs(root: unknown, path: string): void {
  // Iterative, so hostile nesting thousands deep cannot overflow the stack.
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...(node as unknown[]));
    } else if (isRecord(node)) {
      const ref = REF_KEYWORDS.find((k) => has(node, k));
      if (ref !== undefined) throw new SchemaError(path, `${ref} is not allowed in form mode; inline the field instead`);
      stack.push(...Object.values(node));
    }
  }
}

const COMPOSITION_KEYWORDS = ['allOf', 'anyOf', 'not', 'if', 'then', 'else'];

function optionalNumber(prop: Record<string, unknown>, name: string, path: string): number | undefined {
  const v = prop[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new SchemaError(path, `${name} must be a number (got ${show(v)})`);
  return v;
}

function optionalCount(prop: Record<string, unknown>, name: string, path: string): number | undefined {
  const v = prop[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) {
    throw new SchemaError(path, `${name} must be a non-negative integer (got ${show(v)})`);
  }
  return v;
}

function checkOrder(min: number | undefined, max: number | undefined, names: string, path: string): void {
  if (min !== undefined && max !== undefined && min > max) {
    throw new SchemaError(path, `contradictory constraints: ${names.replace('%min', String(min)).replace('%max', String(max))}`);
  }
}

function displayText(prop: Record<string, unknown>, name: string, path: string, warn: Warn): string | undefined {
  const v = prop[name];
  if (v === undefined || typeof v === 'string') return v;
  warn({ code: 'notAString', path, keyword: name });
  return undefined;
}

/** Reads `enum` (+ legacy `enumNames`) or a list of `{ const, title }` entries into options. */
function readOptions(list: unknown, names: unknown, keyword: string, path: string, warn: Warn): FieldOption[] {
  if (!Array.isArray(list)) throw new SchemaError(path, `${keyword} must be an array (got ${typeName(list)})`);
  if (list.length === 0) throw new SchemaError(path, `${keyword} must list at least one option`);
  if (list.length > MAX_OPTIONS) throw new SchemaError(path, `too many options in ${keyword} (${list.length} > ${MAX_OPTIONS})`);
  const titled = keyword.endsWith('oneOf') || keyword.endsWith('anyOf');
  const options: FieldOption[] = [];
  const seen = new Set<string>();
  list.forEach((entry: unknown, i) => {
    let value: unknown = entry;
    let label: string | undefined;
    if (titled) {
      if (!isRecord(entry) || typeof entry['const'] !== 'string') {
        throw new SchemaError(path, `${keyword}[${i}] must be an object with a string const (got ${show(entry)})`);
      }
      value = entry['const'];
      if (typeof entry['title'] === 'string') label = entry['title'].trim() === '' ? undefined : entry['title'];
      else if (entry['title'] !== undefined) warn({ code: 'notAString', path, keyword: `${keyword}[${i}].title` });
    } else if (typeof entry !== 'string') {
      throw new SchemaError(path, `${keyword} values must be strings (${keyword}[${i}] is ${typeName(entry)})`);
    }
    const v = value as string;
    if (seen.has(v)) throw new SchemaError(path, `${keyword} has a duplicate value ${show(v)}`);
    seen.add(v);
    options.push({ value: v, label: label ?? v });
  });
  const labelled = names === undefined ? options : withEnumNames(options, names, path, warn);
  // Two options that look the same but send different values would let a server mislead.
  const labels = new Set<string>();
  const twin = labelled.find((o) => labels.size === labels.add(o.label).size);
  if (twin !== undefined) warn({ code: 'duplicateLabel', path, label: show(twin.label) });
  return labelled;
}

function withEnumNames(options: FieldOption[], names: unknown, path: string, warn: Warn): FieldOption[] {
  warn({ code: 'enumNamesDeprecated', path });
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string')) {
    throw new SchemaError(path, 'enumNames must be an array of strings');
  }
  if (names.length !== options.length) {
    throw new SchemaError(path, `enumNames has ${names.length} entries but enum has ${options.length}`);
  }
  return options.map((o, i) => {
    const name = names[i] as string;
    return { value: o.value, label: name.trim() === '' ? o.value : name };
  });
}

function stringDefault(prop: Record<string, unknown>, path: string): string | undefined {
  const d = prop['default'];
  if (d !== undefined && typeof d !== 'string') throw new SchemaError(path, `default must be a string (got ${show(d)})`);
  return d;
}

interface Common {
  readonly key: string;
  readonly title: string;
  readonly description: string | undefined;
  readonly required: boolean;
  readonly secretLike: boolean;
}

function singleSelect(common: Common, prop: Record<string, unknown>, path: string, warn: Warn): Field {
  if (has(prop, 'enum') && has(prop, 'oneOf')) throw new SchemaError(path, 'has both enum and oneOf; use one of them');
  const options = has(prop, 'oneOf')
    ? readOptions(prop['oneOf'], undefined, 'oneOf', path, warn)
    : readOptions(prop['enum'], prop['enumNames'], 'enum', path, warn);
  return { ...common, kind: 'singleSelect', options, default: stringDefault(prop, path) };
}

function stringField(common: Common, prop: Record<string, unknown>, path: string): Field {
  const minLength = optionalCount(prop, 'minLength', path);
  const maxLength = optionalCount(prop, 'maxLength', path);
  checkOrder(minLength, maxLength, 'minLength %min > maxLength %max', path);
  const format = prop['format'];
  if (format !== undefined && !SUPPORTED_FORMATS.includes(format as StringFormat)) {
    throw new SchemaError(path, `format ${show(format)} is not supported (supported: ${SUPPORTED_FORMATS.join(', ')})`);
  }
  const pattern = prop['pattern'];
  if (pattern !== undefined) {
    if (typeof pattern !== 'string') throw new SchemaError(path, `pattern must be a string (got ${show(pattern)})`);
    if (pattern.length > MAX_PATTERN_CHARS) {
      throw new SchemaError(path, `pattern is too long (${pattern.length} > ${MAX_PATTERN_CHARS} characters)`);
    }
    try {
      compilePattern(pattern);
    } catch (err) {
      throw new SchemaError(path, `pattern is not a valid regular expression (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  return {
    ...common,
    kind: 'string',
    minLength,
    maxLength,
    format: format as StringFormat | undefined,
    pattern,
    default: stringDefault(prop, path),
  };
}

function numberField(common: Common, kind: 'number' | 'integer', prop: Record<string, unknown>, path: string): Field {
  const minimum = optionalNumber(prop, 'minimum', path);
  const maximum = optionalNumber(prop, 'maximum', path);
  checkOrder(minimum, maximum, 'minimum %min > maximum %max', path);
  if (kind === 'integer' && minimum !== undefined && maximum !== undefined && Math.ceil(minimum) > Math.floor(maximum)) {
    throw new SchemaError(path, `contradictory constraints: no whole number lies between minimum ${minimum} and maximum ${maximum}`);
  }
  const d = prop['default'];
  if (d !== undefined && (typeof d !== 'number' || !Number.isFinite(d))) {
    throw new SchemaError(path, `default must be a number (got ${show(d)})`);
  }
  return { ...common, kind, minimum, maximum, default: d };
}

function multiSelect(common: Common, prop: Record<string, unknown>, path: string, warn: Warn): Field {
  const items = prop['items'];
  if (!isRecord(items)) throw new SchemaError(path, 'items must be an object listing the options with enum or anyOf');
  if (items['type'] === 'object' || has(items, 'properties')) throw new SchemaError(path, 'arrays of objects are not allowed in form mode');
  if (items['type'] !== undefined && items['type'] !== 'string') {
    throw new SchemaError(path, `arrays must be of string options in form mode (items.type is ${show(items['type'])})`);
  }
  if (has(items, 'enum') === has(items, 'anyOf')) {
    throw new SchemaError(
      path,
      has(items, 'enum')
        ? 'items has both enum and anyOf; use one of them'
        : 'items must be a string enum (items.enum or items.anyOf); free-form arrays are not allowed in form mode',
    );
  }
  const options = has(items, 'enum')
    ? readOptions(items['enum'], undefined, 'items.enum', path, warn)
    : readOptions(items['anyOf'], undefined, 'items.anyOf', path, warn);
  const minItems = optionalCount(prop, 'minItems', path);
  const maxItems = optionalCount(prop, 'maxItems', path);
  checkOrder(minItems, maxItems, 'minItems %min > maxItems %max', path);
  if (minItems !== undefined && minItems > options.length) {
    throw new SchemaError(path, `contradictory constraints: minItems ${minItems} > the ${options.length} options offered`);
  }
  const d = prop['default'];
  if (d !== undefined && (!Array.isArray(d) || d.some((x) => typeof x !== 'string'))) {
    throw new SchemaError(path, `default must be an array of strings (got ${show(d)})`);
  }
  return { ...common, kind: 'multiSelect', options, minItems, maxItems, default: d as string[] | undefined };
}

/**
 * Normalises one property schema. Throws {@link SchemaError} naming `requestedSchema.properties.<key>`
 * and the reason; pushes non-fatal notes through `warn`.
 */
export function normaliseProperty(key: string, prop: unknown, required: boolean, warn: Warn): Field {
  const path = propertyPath(key);
  if (!isRecord(prop)) throw new SchemaError(path, `must be a schema object (got ${typeName(prop)})`);
  rejectRefs(prop, path);
  const composed = COMPOSITION_KEYWORDS.find((k) => has(prop, k));
  if (composed !== undefined) throw new SchemaError(path, `${composed} is not allowed in form mode`);
  const type = prop['type'];
  if (type === 'object' || (type === undefined && has(prop, 'properties'))) {
    throw new SchemaError(path, 'nested objects are not allowed in form mode');
  }
  if (type === undefined) {
    throw new SchemaError(
      path,
      has(prop, 'enum') || has(prop, 'oneOf') ? 'type is missing (a single-select must declare type "string")' : 'type is missing',
    );
  }
  if (typeof type !== 'string') throw new SchemaError(path, `type must be a single string (got ${show(type)})`);
  const title = displayText(prop, 'title', path, warn);
  const description = displayText(prop, 'description', path, warn);
  const common: Common = {
    key,
    title: title !== undefined && title.trim() !== '' ? title : key,
    description,
    required,
    secretLike: looksSecret(key, title, description),
  };
  const selectLike = has(prop, 'enum') || has(prop, 'oneOf');
  if (selectLike && type !== 'string') {
    throw new SchemaError(path, `${has(prop, 'enum') ? 'enum' : 'oneOf'} is only allowed on type "string" (got type ${show(type)})`);
  }
  switch (type) {
    case 'string':
      return selectLike ? singleSelect(common, prop, path, warn) : stringField(common, prop, path);
    case 'number':
    case 'integer':
      return numberField(common, type, prop, path);
    case 'boolean': {
      const d = prop['default'];
      if (d !== undefined && typeof d !== 'boolean') throw new SchemaError(path, `default must be a boolean (got ${show(d)})`);
      return { ...common, kind: 'boolean', default: d };
    }
    case 'array':
      return multiSelect(common, prop, path, warn);
    default:
      throw new SchemaError(path, `unsupported type ${show(type)} (supported: string, number, integer, boolean, array)`);
  }
}
