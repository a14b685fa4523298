/**
 * The field model: what a form-mode `requestedSchema` means once normalised.
 * Every renderer (InputBox, QuickPick, multi-step quick input, webview form, form preview)
 * works from this model and never from raw server JSON.
 */

/** JSON value types a form reply may carry (spec: string | number | boolean | string[]). */
export type AnswerValue = string | number | boolean | string[];

/** The reply's `content` object, keyed by schema property name. */
export type AnswerContent = Record<string, AnswerValue>;

export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

export interface FieldOption {
  /** The value sent on the wire (`const` or `enum` member). */
  readonly value: string;
  /** What the user sees; equals `value` for untitled enums. */
  readonly label: string;
}

interface FieldBase {
  /** Property name in `requestedSchema.properties`. */
  readonly key: string;
  /** `title`, or the key when the schema gives none. */
  readonly title: string;
  readonly description: string | undefined;
  readonly required: boolean;
  /** True when the key or its texts look like a secret (password, token, API key, card number…). */
  readonly secretLike: boolean;
}

export interface StringField extends FieldBase {
  readonly kind: 'string';
  readonly default: string | undefined;
  readonly minLength: number | undefined;
  readonly maxLength: number | undefined;
  readonly format: StringFormat | undefined;
  readonly pattern: string | undefined;
}

export interface NumberField extends FieldBase {
  /** `integer` fields accept whole numbers only. */
  readonly kind: 'number' | 'integer';
  readonly default: number | undefined;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
}

export interface BooleanField extends FieldBase {
  readonly kind: 'boolean';
  readonly default: boolean | undefined;
}

export interface SingleSelectField extends FieldBase {
  readonly kind: 'singleSelect';
  readonly default: string | undefined;
  readonly options: readonly FieldOption[];
}

export interface MultiSelectField extends FieldBase {
  readonly kind: 'multiSelect';
  readonly default: readonly string[] | undefined;
  readonly options: readonly FieldOption[];
  readonly minItems: number | undefined;
  readonly maxItems: number | undefined;
}

export type Field = StringField | NumberField | BooleanField | SingleSelectField | MultiSelectField;
export type FieldKind = Field['kind'];

/** A whole normalised form: fields in the order the server declared them. */
export interface FormModel {
  readonly fields: readonly Field[];
  /** The schema as received (after validation), used to compile the answer validator. */
  readonly schema: Readonly<Record<string, unknown>>;
}
