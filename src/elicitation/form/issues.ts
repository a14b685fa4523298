/**
 * What is wrong with an answer, as a code with the values needed to word it. The validator and
 * the InputBox parser return these; `issueText` (./sentences.ts) words them, in the user's
 * language for the widgets and in English for server authors.
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
