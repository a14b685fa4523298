/**
 * One form row: label, description, control, hint and inline error, wired for assistive tech
 * (`aria-describedby` points at the description, hint and error; `aria-invalid` follows the error).
 */
import type { AnswerValue, Field } from '../src/shared/fieldModel';
import type { FormInit } from '../src/shared/webviewMessages';
import { createControl } from './controls';
import { el, fmt } from './dom';

type Strings = FormInit['strings'];

export interface FieldView {
  readonly field: Field;
  readonly root: HTMLElement;
  read(): AnswerValue | undefined;
  focus(): void;
  /** Shows or clears the inline error. */
  setError(message: string | undefined): void;
}

/** Format and range hints, in the user's language, so constraints are visible before any error. */
export function hintFor(field: Field, s: Strings): string | undefined {
  const parts: string[] = [];
  switch (field.kind) {
    case 'string': {
      // No hint for `date`: it gets the browser's date picker, which shows the date in the user's
      // locale (12/01/2026), so "YYYY-MM-DD" next to it would only contradict what is on screen.
      const byFormat = { email: s.formatEmail, uri: s.formatUri, date: undefined, 'date-time': s.formatDateTime } as const;
      const hint = field.format === undefined ? undefined : byFormat[field.format];
      if (hint !== undefined) parts.push(hint);
      break;
    }
    case 'number':
    case 'integer': {
      if (field.kind === 'integer') parts.push(s.wholeNumber);
      const { minimum: lo, maximum: hi } = field;
      if (lo !== undefined && hi !== undefined) parts.push(fmt(s.numberRange, lo, hi));
      else if (lo !== undefined) parts.push(fmt(s.numberMin, lo));
      else if (hi !== undefined) parts.push(fmt(s.numberMax, hi));
      break;
    }
    case 'multiSelect': {
      const { minItems: lo, maxItems: hi } = field;
      if (lo !== undefined && lo > 0 && hi !== undefined) parts.push(fmt(s.selectBetween, lo, hi));
      else if (lo !== undefined && lo > 0) parts.push(fmt(s.selectAtLeast, lo));
      else if (hi !== undefined) parts.push(fmt(s.selectAtMost, hi));
      break;
    }
    case 'boolean':
    case 'singleSelect':
      break;
  }
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

function requiredMarker(field: Field, s: Strings, group: boolean): (Node | undefined)[] {
  if (!field.required) return [];
  // The star is for sighted users; assistive tech gets `aria-required` on single controls, and
  // for groups (where aria-required is not always honoured) a visually hidden word in the legend.
  return [
    el('span', { class: 'required', 'aria-hidden': 'true', title: s.required }, '*'),
    group ? el('span', { class: 'sr-only' }, ` (${s.required})`) : undefined,
  ];
}

export function createFieldView(field: Field, index: number, s: Strings, initial: AnswerValue | undefined): FieldView {
  // Ids come from the position, never from the key: keys are server text.
  const id = `field-${index}`;
  const control = createControl(field, id, s, initial);
  const hintText = hintFor(field, s);
  const desc =
    field.description === undefined || field.description === ''
      ? undefined
      : el('div', { class: 'field-desc', id: `${id}-desc` }, field.description);
  const hint = hintText === undefined ? undefined : el('div', { class: 'field-hint', id: `${id}-hint` }, hintText);
  const error = el('div', { class: 'field-error', id: `${id}-error`, hidden: true });
  const describedBy = [desc?.id, hint?.id, error.id].filter((x): x is string => x !== undefined).join(' ');

  let root: HTMLElement;
  let invalidTarget: HTMLElement;
  if (control.layout === 'group') {
    const isRadio = field.kind === 'singleSelect' || field.kind === 'boolean';
    root = el(
      'fieldset',
      {
        class: `field group kind-${field.kind}`,
        role: isRadio ? 'radiogroup' : undefined,
        'aria-required': isRadio && field.required ? 'true' : undefined,
        'aria-describedby': describedBy,
      },
      el('legend', { class: 'field-label' }, field.title, ...requiredMarker(field, s, true)),
      desc,
      control.element,
      hint,
      error,
    );
    invalidTarget = root;
  } else {
    const c = control.element;
    c.setAttribute('aria-describedby', describedBy);
    if (field.required) c.setAttribute('aria-required', 'true');
    const label = el('label', { class: 'field-label', for: id }, field.title, ...requiredMarker(field, s, false));
    root =
      control.layout === 'check'
        ? el('div', { class: `field kind-${field.kind}` }, el('div', { class: 'check-row' }, c, label), desc, hint, error)
        : el('div', { class: `field kind-${field.kind}` }, label, desc, c, hint, error);
    invalidTarget = c;
  }

  return {
    field,
    root,
    read: () => control.read(),
    focus: () => control.focus(),
    setError(message) {
      const show = message !== undefined && message !== '';
      error.textContent = show ? message : '';
      error.hidden = !show;
      root.classList.toggle('invalid', show);
      if (show) invalidTarget.setAttribute('aria-invalid', 'true');
      else invalidTarget.removeAttribute('aria-invalid');
    },
  };
}
