/**
 * One input per field kind, and how to read it back as an answer value. Reading is deliberately
 * loose: the host runs the one validator, so a control reports what the user entered (even when
 * it is wrong) rather than silently dropping it.
 */
import type {
  AnswerValue,
  BooleanField,
  Field,
  MultiSelectField,
  NumberField,
  SingleSelectField,
  StringField,
} from '../src/shared/fieldModel';
import type { FormInit } from '../src/shared/webviewMessages';
import { el } from './dom';

type Strings = FormInit['strings'];

export interface Control {
  /** `single`: one element labelled by `<label for>`; `check`: a checkbox with its label after it; `group`: a fieldset of options. */
  readonly layout: 'single' | 'check' | 'group';
  /** The input/select/textarea, or the container of a group's options. */
  readonly element: HTMLElement;
  /** Moves focus into the control (used to jump to the first invalid field). */
  focus(): void;
  read(): AnswerValue | undefined;
}

/** Single-selects with this many options or fewer are radio buttons, so every choice is visible at once. */
const MAX_RADIOS = 5;
/** Above this many characters a string gets a multi-line box. */
const TEXTAREA_MIN_LENGTH = 200;

export function createControl(field: Field, id: string, strings: Strings, initial: AnswerValue | undefined): Control {
  switch (field.kind) {
    case 'string':
      return stringControl(field, id, initial);
    case 'number':
    case 'integer':
      return numberControl(field, id, initial);
    case 'boolean':
      return booleanControl(field, id, strings, initial);
    case 'singleSelect':
      return field.options.length <= MAX_RADIOS ? radioControl(field, id, strings, initial) : selectControl(field, id, strings, initial);
    case 'multiSelect':
      return multiControl(field, id, initial);
  }
}

function inputType(f: StringField): string {
  if (f.format === 'email') return 'email';
  if (f.format === 'uri') return 'url';
  if (f.format === 'date') return 'date';
  // date-time stays a text box: datetime-local has no seconds or zone, and the wire needs RFC 3339.
  if (f.format === 'date-time') return 'text';
  return f.secretLike ? 'password' : 'text';
}

function stringControl(f: StringField, id: string, initial: AnswerValue | undefined): Control {
  const common = {
    id,
    name: id,
    maxlength: f.maxLength === undefined ? undefined : String(f.maxLength),
    autocomplete: 'off',
    spellcheck: f.format === undefined && !f.secretLike ? undefined : 'false',
  };
  const input =
    f.maxLength !== undefined && f.maxLength > TEXTAREA_MIN_LENGTH && f.format === undefined && !f.secretLike
      ? el('textarea', { ...common, rows: '4' })
      : el('input', {
          ...common,
          type: inputType(f),
          placeholder: f.format === 'date-time' ? 'YYYY-MM-DDTHH:MM:SSZ' : undefined,
        });
  if (typeof initial === 'string') input.value = initial;
  // Empty means "not answered": an optional field is then omitted rather than sent as "".
  return { layout: 'single', element: input, focus: () => input.focus(), read: () => (input.value === '' ? undefined : input.value) };
}

function numberControl(f: NumberField, id: string, initial: AnswerValue | undefined): Control {
  const input = el('input', {
    id,
    name: id,
    type: 'number',
    inputmode: f.kind === 'integer' ? 'numeric' : 'decimal',
    step: f.kind === 'integer' ? '1' : 'any',
    min: f.minimum === undefined ? undefined : String(f.minimum),
    max: f.maximum === undefined ? undefined : String(f.maximum),
  });
  if (typeof initial === 'number') input.value = String(initial);
  const read = (): AnswerValue | undefined => {
    // The browser reports unparsable text as an empty value plus `badInput`; send a string the
    // validator will reject instead of omitting the field, or "12abc" would pass as "not answered".
    if (input.validity.badInput) return 'NaN';
    if (input.value === '') return undefined;
    const n = Number(input.value);
    return Number.isFinite(n) ? n : input.value;
  };
  return { layout: 'single', element: input, focus: () => input.focus(), read };
}

/**
 * A required boolean without a default becomes a Yes/No radio pair with nothing selected, so the
 * user must choose; a checkbox would silently answer "no". Otherwise a checkbox, which answers
 * nothing until it is toggled when the field has no value yet.
 */
function booleanControl(f: BooleanField, id: string, strings: Strings, initial: AnswerValue | undefined): Control {
  if (f.required && f.default === undefined) {
    const group = radios(id, [strings.yes, strings.no], typeof initial === 'boolean' ? (initial ? 0 : 1) : undefined);
    return {
      ...group,
      read: () => {
        const i = group.checkedIndex();
        return i === undefined ? undefined : i === 0;
      },
    };
  }
  const input = el('input', { id, name: id, type: 'checkbox' });
  let answered = typeof initial === 'boolean';
  input.checked = initial === true;
  input.addEventListener('change', () => (answered = true));
  return { layout: 'check', element: input, focus: () => input.focus(), read: () => (answered ? input.checked : undefined) };
}

interface RadioGroup {
  readonly layout: 'group';
  readonly element: HTMLElement;
  focus(): void;
  checkedIndex(): number | undefined;
}

/** Radio values are indexes: option values are server strings (possibly "") and never touch the DOM. */
function radios(id: string, labels: readonly string[], selected: number | undefined): RadioGroup {
  const inputs = labels.map((_, i) =>
    el('input', { type: 'radio', id: `${id}-${i}`, name: id, value: String(i), checked: i === selected }),
  );
  const element = el(
    'div',
    { class: 'options' },
    ...labels.map((label, i) => el('label', { class: 'option', for: `${id}-${i}` }, inputs[i], el('span', {}, label))),
  );
  const checkedIndex = (): number | undefined => {
    const i = inputs.findIndex((r) => r.checked);
    return i < 0 ? undefined : i;
  };
  // Focus the chosen radio, as the browser's own tab order does.
  const focus = (): void => (inputs[checkedIndex() ?? 0] ?? element).focus();
  return { layout: 'group', element, focus, checkedIndex };
}

function radioControl(f: SingleSelectField, id: string, strings: Strings, initial: AnswerValue | undefined): Control {
  const labels = f.options.map((o) => o.label);
  // An optional choice needs a way back to "no answer" once a radio is picked: a last "not set" radio.
  if (!f.required) labels.push(strings.unset);
  const known = f.options.findIndex((o) => o.value === initial);
  const group = radios(id, labels, known >= 0 ? known : f.required ? undefined : f.options.length);
  return { ...group, read: () => f.options[group.checkedIndex() ?? -1]?.value };
}

function selectControl(f: SingleSelectField, id: string, strings: Strings, initial: AnswerValue | undefined): Control {
  const select = el('select', { id, name: id });
  const known = typeof initial === 'string' && f.options.some((o) => o.value === initial);
  // The empty choice lets an optional field stay unanswered, and stops a required one without a
  // default from looking pre-answered with whatever option happens to come first.
  if (!f.required || f.default === undefined || !known) {
    select.append(el('option', { value: '' }, strings.choose));
  }
  for (const [i, o] of f.options.entries()) {
    // Values travel through the index: option values are server strings and may be "".
    select.append(el('option', { value: String(i), selected: known && o.value === initial }, o.label));
  }
  const read = (): AnswerValue | undefined => (select.value === '' ? undefined : f.options[Number(select.value)]?.value);
  return { layout: 'single', element: select, focus: () => select.focus(), read };
}

function multiControl(f: MultiSelectField, id: string, initial: AnswerValue | undefined): Control {
  const chosen = new Set(Array.isArray(initial) ? initial : []);
  const boxes = f.options.map((o, i) => el('input', { type: 'checkbox', id: `${id}-${i}`, name: id, checked: chosen.has(o.value) }));
  const element = el(
    'div',
    { class: 'options' },
    ...f.options.map((o, i) => el('label', { class: 'option', for: `${id}-${i}` }, boxes[i], el('span', {}, o.label))),
  );
  const read = (): AnswerValue | undefined => {
    const picked = f.options.filter((_, i) => boxes[i]?.checked).map((o) => o.value);
    // A required list may legitimately be empty (minItems 0); an optional empty one is simply not answered.
    return picked.length === 0 && !f.required ? undefined : picked;
  };
  return { layout: 'group', element, focus: () => (boxes[0] ?? element).focus(), read };
}
