/** Builders for the unit tests: a requested schema, and the form model it normalises to. */
import assert from 'node:assert/strict';
import { normaliseRequestedSchema, type SchemaNote } from '../../../src/elicitation/form/schema';
import { schemaNoteText } from '../../../src/elicitation/form/sentences';
import { english } from '../../../src/shared/localize';
import type { FormModel } from '../../../src/shared/fieldModel';

/** A requestedSchema with these properties; `required` only when given. */
export function schemaOf(properties: Record<string, unknown>, required?: unknown): Record<string, unknown> {
  return required === undefined ? { type: 'object', properties } : { type: 'object', properties, required };
}

/**
 * The normalised form and its schema notes, as codes and as the log words them (`warnings`);
 * fails the test when the schema is rejected.
 */
export function formOf(schema: unknown): { form: FormModel; warnings: string[]; notes: SchemaNote[] } {
  const r = normaliseRequestedSchema(schema);
  if (!r.ok) assert.fail(`expected ok, got: ${r.error}`);
  return { form: r.form, warnings: r.notes.map((n) => schemaNoteText(n, english)), notes: r.notes };
}

/** The form model for these properties; fails the test when the schema is rejected. */
export function form(properties: Record<string, unknown>, required?: string[]): FormModel {
  return formOf(schemaOf(properties, required)).form;
}
