/**
 * What is wrong with an answer, as a code with the values needed to word it. The validator and
 * the InputBox parser return these; the UI words them in the user's language
 * (`src/ui/wording/formText.ts`); {@link issueEnglish} words them for server authors.
 */

/** The kind of value a field expects, for `type` issues. */
export type ExpectedType = 'text' | 'number' | 'integer' | 'boolean' | 'option' | 'options';

export type ValidationIssue =
  | { readonly code: 'required' }
  | { readonly code: 'type'; readonly expected: ExpectedType }
  | { readonly code: 'minimum' | 'maximum' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems'; readonly limit: number }
  /** `format` is the schema's format name (`email`, `uri`, `date`, `date-time`, or another). */
  | { readonly code: 'format'; readonly format: string }
  /** `pattern` is the server's pattern, sanitised for display; `undefined` when too long to show. */
  | { readonly code: 'pattern'; readonly pattern: string | undefined }
  /** Not one of a single-select's options. */
  | { readonly code: 'enum' }
  /** A multi-select answer holds a value that is not an option. */
  | { readonly code: 'notInList' }
  | { readonly code: 'uniqueItems' }
  /** The check ran out of time: the server's pattern backtracks without bound. */
  | { readonly code: 'tooComplex' }
  /** Form level: keys the form does not have (sanitised). */
  | { readonly code: 'unexpectedFields'; readonly keys: readonly string[] }
  /** `validateField` was asked about a key the form does not have (sanitised). */
  | { readonly code: 'unknownField'; readonly key: string }
  /** InputBox text that is not a number; `integer` when a whole number was expected. */
  | { readonly code: 'notANumber'; readonly integer: boolean }
  | { readonly code: 'numberTooLarge' }
  | { readonly code: 'fraction' }
  | { readonly code: 'inexact' }
  /** InputBox text matching no option; `part` is the piece of a comma-separated list that failed. */
  | { readonly code: 'noSuchOption'; readonly options: readonly string[]; readonly more: boolean; readonly part: string | undefined }
  /** Anything ajv reports that the codes above do not cover, with ajv's own (English) message. */
  | { readonly code: 'other'; readonly detail: string };

/**
 * The issue in English, for server authors: a -32602 reason (a default that breaks its own
 * constraints) and the log. Servers get English whatever the user's language, so this stays
 * here; the widgets word the same issues in the user's language in `src/ui/wording/formText.ts`.
 */
export function issueEnglish(issue: ValidationIssue): string {
  switch (issue.code) {
    case 'required':
      return 'Required';
    case 'type':
      return {
        text: 'Must be text',
        number: 'Must be a number',
        integer: 'Must be a whole number',
        boolean: 'Must be true or false',
        option: 'Must be one of the listed options',
        options: 'Must be a list of options',
      }[issue.expected];
    case 'minimum':
    case 'maximum':
      return `Must be ${issue.code === 'minimum' ? 'at least' : 'at most'} ${issue.limit}`;
    case 'minLength':
    case 'maxLength':
      return `Must be ${issue.code === 'minLength' ? 'at least' : 'at most'} ${issue.limit} ${issue.limit === 1 ? 'character' : 'characters'}`;
    case 'minItems':
    case 'maxItems':
      return `Pick ${issue.code === 'minItems' ? 'at least' : 'at most'} ${issue.limit}`;
    case 'format':
      return FORMAT_ENGLISH[issue.format] ?? 'Has the wrong format';
    case 'pattern':
      return issue.pattern === undefined ? 'Does not match the required pattern' : `Must match the pattern ${issue.pattern}`;
    case 'enum':
      return 'Must be one of the listed options';
    case 'notInList':
      return 'Contains an option that is not in the list';
    case 'uniqueItems':
      return 'Each option can be picked only once';
    case 'tooComplex':
      return "Could not be checked in time: the server's pattern is too complex";
    case 'unexpectedFields':
      return issue.keys.map((k) => `Unexpected field “${k}”`).join('; ');
    case 'unknownField':
      return `Unknown field “${issue.key}”`;
    case 'notANumber':
      return issue.integer ? 'Must be a whole number, such as 42' : 'Must be a number, such as 42 or 3.5';
    case 'numberTooLarge':
      return 'Number is too large';
    case 'fraction':
      return 'Must be a whole number, without a fractional part';
    case 'inexact':
      return 'Number is too large to be exact';
    case 'noSuchOption': {
      const list = issue.options.join(', ') + (issue.more ? ', …' : '');
      return issue.part === undefined ? `Must be one of: ${list}` : `“${issue.part}” is not one of: ${list}`;
    }
    case 'other':
      return issue.detail;
  }
}

const FORMAT_ENGLISH: Readonly<Record<string, string>> = {
  email: 'Must be a valid email address',
  uri: 'Must be a valid URI, such as https://example.com/path',
  date: 'Must be a valid date (YYYY-MM-DD)',
  'date-time': 'Must be a valid date and time, such as 2024-05-01T12:00:00Z',
};
