/**
 * Checks an `elicitation/create` payload the way the broker would, for server authors: a whole
 * JSON-RPC request, its `params`, or a bare `requestedSchema`. Unlike the broker, which stops at
 * the first problem (one -32602 is enough for a server), this lists every violation. No `vscode`.
 */
import { parseJsonc } from '../../config/parse/jsonc';
import type { FormModel } from '../../shared/fieldModel';
import { normaliseRequestedSchema, type SchemaNote } from './schema';
import { formWarnings, type FormWarning } from '../safety/text';
import { analyseUrl, type UrlReason } from '../safety/url';

/** What a problem is; the command words it (a -32602 reason stays as servers get it, in English). */
export type PreviewNote =
  | { readonly kind: 'reason'; readonly text: string }
  | { readonly kind: 'notJson'; readonly line: number; readonly column: number; readonly detail: string }
  | { readonly kind: 'notRequest' }
  | { readonly kind: 'schema'; readonly note: SchemaNote }
  | { readonly kind: 'form'; readonly warning: FormWarning }
  | { readonly kind: 'url'; readonly reason: UrlReason };

export interface PreviewProblem {
  readonly note: PreviewNote;
  /** The property the problem is about, when there is one; used to place a diagnostic. */
  readonly property?: string;
}

export type PreviewResult =
  /** `warnings` are all notes (lint and the user's warnings); `userWarnings` only what the person answering would see. */
  | {
      readonly kind: 'form';
      readonly message: string;
      readonly form: FormModel | undefined;
      readonly violations: readonly PreviewProblem[];
      readonly warnings: readonly PreviewProblem[];
      readonly userWarnings: readonly FormWarning[];
    }
  | {
      readonly kind: 'url';
      readonly message: string;
      readonly url: string;
      readonly violations: readonly PreviewProblem[];
      readonly warnings: readonly PreviewProblem[];
    }
  | { readonly kind: 'invalid'; readonly violations: readonly PreviewProblem[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which of the three accepted shapes `value` is, as params. */
function asParams(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  if (value['method'] === 'elicitation/create' || 'jsonrpc' in value) return isRecord(value['params']) ? value['params'] : undefined;
  if ('requestedSchema' in value || 'mode' in value || 'message' in value) return value;
  if (value['type'] === 'object' || 'properties' in value) return { message: '', requestedSchema: value };
  return undefined;
}

function propertyOf(error: string): string | undefined {
  return /^requestedSchema\.properties\.([^:.[\s]+)/.exec(error)?.[1];
}

/** Every schema violation: the whole schema first, then each property on its own to find the rest. */
function schemaViolations(schema: unknown): PreviewProblem[] {
  const whole = normaliseRequestedSchema(schema);
  if (whole.ok) return [];
  const problems: PreviewProblem[] = [];
  const props = isRecord(schema) && isRecord(schema['properties']) ? schema['properties'] : undefined;
  if (props) {
    const required = isRecord(schema) && Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
    for (const [key, prop] of Object.entries(props)) {
      const one = normaliseRequestedSchema({ type: 'object', properties: { [key]: prop }, required: required.includes(key) ? [key] : [] });
      if (!one.ok) problems.push({ note: reason(one.error), property: key });
    }
  }
  // A top-level problem (bad `required`, too many fields…) shows only in the whole-schema check.
  if (!problems.some((p) => p.note.kind === 'reason' && p.note.text === whole.error)) {
    const property = propertyOf(whole.error);
    problems.unshift(property ? { note: reason(whole.error), property } : { note: reason(whole.error) });
  }
  return problems;
}

function reason(text: string): PreviewNote {
  return { kind: 'reason', text };
}

/**
 * Checks the text of an `elicitation/create` payload. A bare `requestedSchema` gets `message: ''`.
 * Form warnings list the schema notes first (lint for the author), then what the user would see.
 */
export function checkElicitationPayload(text: string): PreviewResult {
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    return {
      kind: 'invalid',
      violations: [{ note: { kind: 'notJson', line: parsed.error.line, column: parsed.error.column, detail: parsed.error.message } }],
    };
  }
  const params = asParams(parsed.value);
  if (!params) return { kind: 'invalid', violations: [{ note: { kind: 'notRequest' } }] };
  const violations: PreviewProblem[] = [];
  const message = typeof params['message'] === 'string' ? params['message'] : '';
  if (typeof params['message'] !== 'string') violations.push({ note: reason('message: must be a string') });
  const mode = params['mode'] ?? 'form';
  if (mode === 'url') {
    const url = typeof params['url'] === 'string' ? params['url'] : '';
    if (typeof params['url'] !== 'string') violations.push({ note: reason('url: must be a string in url mode') });
    if (typeof params['elicitationId'] !== 'string' || params['elicitationId'] === '') {
      violations.push({ note: reason('elicitationId: must be a non-empty string in url mode') });
    }
    const analysis = analyseUrl(url);
    const warnings: PreviewProblem[] = [];
    for (const r of analysis.reasons) (r.severity === 'block' ? violations : warnings).push({ note: { kind: 'url', reason: r } });
    return { kind: 'url', message, url, violations, warnings };
  }
  if (mode !== 'form') {
    violations.push({ note: reason(`mode: unsupported elicitation mode ${JSON.stringify(mode)} ("form" or "url")`) });
    return { kind: 'invalid', violations };
  }
  violations.push(...schemaViolations(params['requestedSchema']));
  const normalised = normaliseRequestedSchema(params['requestedSchema'], message);
  const form = normalised.ok ? normalised.form : undefined;
  const userWarnings = normalised.ok ? formWarnings(message, normalised.form) : [];
  const warnings: PreviewProblem[] = normalised.ok
    ? [
        ...normalised.notes.map((note): PreviewProblem => ({ note: { kind: 'schema', note }, ...propertyAt(note.path) })),
        ...userWarnings.map((warning): PreviewProblem => ({ note: { kind: 'form', warning } })),
      ]
    : [];
  return { kind: 'form', message, form: violations.length === 0 ? form : undefined, violations, warnings, userWarnings };
}

function propertyAt(path: string): { property?: string } {
  const property = propertyOf(path);
  return property === undefined ? {} : { property };
}
