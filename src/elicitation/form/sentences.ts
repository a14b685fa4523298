/**
 * The form sentences both sides read, each written once: validation messages (the widgets show
 * them to the person answering; a -32602 reason shows them to the server's author) and schema
 * notes (Preview Elicitation Form lists them; the log gets them in English). Keyed by the issue's
 * or the note's `code`; the caller injects the language: `vscode.l10n` in the window,
 * {@link english} for the server and the log.
 */
import type { Localize } from '../../shared/localize';
import type { ValidationIssue } from './issues';
import type { SchemaNote } from './schemaRules';

/** For server authors: Preview Elicitation Form in the user's language, the log in English. */
export function schemaNoteText(n: SchemaNote, l10n: Localize): string {
  switch (n.code) {
    case 'enumNamesDeprecated':
      return l10n.t('{0}: enumNames is deprecated; use oneOf with const and title', n.path);
    case 'notAString':
      return l10n.t('{0}: {1} is not a string and is ignored', n.path, n.keyword);
    case 'duplicateLabel':
      return l10n.t('{0}: several options are labelled {1}', n.path, n.label);
  }
}

function typeText(expected: Extract<ValidationIssue, { code: 'type' }>['expected'], l10n: Localize): string {
  switch (expected) {
    case 'integer':
      return l10n.t('Must be a whole number');
    case 'number':
      return l10n.t('Must be a number');
    case 'boolean':
      return l10n.t('Must be true or false');
    case 'option':
      return l10n.t('Must be one of the listed options');
    case 'options':
      return l10n.t('Must be a list of options');
    case 'text':
      return l10n.t('Must be text');
  }
}

function formatText(format: string, l10n: Localize): string {
  switch (format) {
    case 'email':
      return l10n.t('Must be a valid email address');
    case 'uri':
      return l10n.t('Must be a valid URI, such as https://example.com/path');
    case 'date':
      return l10n.t('Must be a valid date (YYYY-MM-DD)');
    case 'date-time':
      return l10n.t('Must be a valid date and time, such as 2024-05-01T12:00:00Z');
    default:
      return l10n.t('Has the wrong format');
  }
}

/** Why a value is not accepted: a widget's message, or (in English) part of a -32602 reason. */
export function issueText(issue: ValidationIssue, l10n: Localize): string {
  switch (issue.code) {
    case 'required':
      return l10n.t('Required');
    case 'type':
      return typeText(issue.expected, l10n);
    case 'minimum':
      return l10n.t('Must be at least {0}', issue.limit);
    case 'maximum':
      return l10n.t('Must be at most {0}', issue.limit);
    case 'minLength':
      return issue.limit === 1 ? l10n.t('Must be at least 1 character') : l10n.t('Must be at least {0} characters', issue.limit);
    case 'maxLength':
      return issue.limit === 1 ? l10n.t('Must be at most 1 character') : l10n.t('Must be at most {0} characters', issue.limit);
    case 'minItems':
      return l10n.t('Pick at least {0}', issue.limit);
    case 'maxItems':
      return l10n.t('Pick at most {0}', issue.limit);
    case 'format':
      return formatText(issue.format, l10n);
    case 'pattern':
      return issue.pattern === undefined
        ? l10n.t('Does not match the required pattern')
        : l10n.t('Must match the pattern {0}', issue.pattern);
    case 'enum':
      return l10n.t('Must be one of the listed options');
    case 'notInList':
      return l10n.t('Contains an option that is not in the list');
    case 'uniqueItems':
      return l10n.t('Each option can be picked only once');
    case 'tooComplex':
      return l10n.t("Could not be checked in time: the server's pattern is too complex");
    case 'unexpectedFields':
      return issue.keys.map((k) => l10n.t('Unexpected field “{0}”', k)).join('; ');
    case 'unknownField':
      return l10n.t('Unknown field “{0}”', issue.key);
    case 'notANumber':
      return issue.integer ? l10n.t('Must be a whole number, such as 42') : l10n.t('Must be a number, such as 42 or 3.5');
    case 'numberTooLarge':
      return l10n.t('Number is too large');
    case 'fraction':
      return l10n.t('Must be a whole number, without a fractional part');
    case 'inexact':
      return l10n.t('Number is too large to be exact');
    case 'noSuchOption': {
      const list = issue.options.join(', ') + (issue.more ? ', …' : '');
      return issue.part === undefined ? l10n.t('Must be one of: {0}', list) : l10n.t('“{0}” is not one of: {1}', issue.part, list);
    }
    case 'other':
      return issue.detail;
  }
}

/** Every field's message, keyed like the validator's errors (`''` for the form). */
export function issueTexts(errors: Readonly<Record<string, ValidationIssue>>, l10n: Localize): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, issueText(v, l10n)]));
}
