/**
 * A person filling a form: every field gets a valid value (the first option, the minimum, a name),
 * so a test that answers any server's form in the user's place needs no knowledge of its schema.
 */
import type { FormAnswer, FormPrompt } from '../../src/elicitation/presenter';
import type { AnswerValue, Field } from '../../src/shared/fieldModel';

export function validValue(field: Field): AnswerValue {
  switch (field.kind) {
    case 'string':
      return field.format === 'email' ? 'ada@example.com' : field.format === 'date' ? '2026-12-03' : 'Ada';
    case 'number':
    case 'integer':
      return field.minimum ?? 7;
    case 'boolean':
      return true;
    case 'singleSelect':
      return field.options[0]?.value ?? '';
    case 'multiSelect':
      return field.options.slice(0, Math.max(1, field.minItems ?? 1)).map((o) => o.value);
  }
}

export function acceptAll(p: FormPrompt): FormAnswer {
  return { action: 'accept', content: Object.fromEntries(p.form.fields.map((f) => [f.key, validValue(f)])) };
}
