/**
 * Checks an `elicitation/create` payload the way the broker would, for server authors: a whole
 * JSON-RPC request, its `params`, or a bare `requestedSchema`. Unlike the broker, which stops at
 * the first problem (one -32602 is enough for a server), this lists every violation. No `vscode`.
 */
import { parseJsonc } from '../../config/parse/jsonc';
import type { FormModel } from '../../shared/fieldModel';
import { normaliseRequestedSchema } from './schema';
import { formWarnings } from '../safety/text';
import { analyseUrl } from '../safety/url';

export interface PreviewProblem {
  readonly message: string;
  /** The property the problem is about, when there is one; used to place a diagnostic. */
  readonly property?: string;
}

export type PreviewResult =
  | { readonly kind: 'form'; readonly message: string; readonly form: FormModel | undefined; readonly violations: readonly PreviewProblem[]; readonly warnings: readonly PreviewProblem[] }
  | { readonly kind: 'url'; readonly message: string; readonly url: string; readonly violations: readonly PreviewProblem[]; readonly warnings: readonly PreviewProblem[] }
  | { readonly kind: 'invalid'; readonly violations: readonly PreviewProblem[] };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Which of the three accepted shapes `value` is, as params. */
function asParams(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  if (value['method'] === 'elicitation/create' || 'jsonrpc' in value) return isRecord(value['params']) ? value['params'] : undefined;
  if ('requestedSchema' in value || 'mode' in value || 'message' in value) return value;
  if (value['type'] === 'object' || 'properties' in value) return { message: '(no message: a bare requestedSchema)', requestedSchema: value };
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
      if (!one.ok) problems.push({ message: one.error, property: key });
    }
  }
  // A top-level problem (bad `required`, too many fields…) shows only in the whole-schema check.
  if (!problems.some((p) => p.message === whole.error)) {
    const property = propertyOf(whole.error);
    problems.unshift(property ? { message: whole.error, property } : { message: whole.error });
  }
  return problems;
}

export function checkElicitationPayload(text: string): PreviewResult {
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { kind: 'invalid', violations: [{ message: `Not valid JSON (line ${parsed.error.line}, column ${parsed.error.column}): ${parsed.error.message}` }] };
  const params = asParams(parsed.value);
  if (!params) {
    return { kind: 'invalid', violations: [{ message: 'Expected an elicitation/create request, its params, or a requestedSchema (an object schema with "properties").' }] };
  }
  const violations: PreviewProblem[] = [];
  const message = typeof params['message'] === 'string' ? params['message'] : '';
  if (typeof params['message'] !== 'string') violations.push({ message: 'message: must be a string' });
  const mode = params['mode'] ?? 'form';
  if (mode === 'url') {
    const url = typeof params['url'] === 'string' ? params['url'] : '';
    if (typeof params['url'] !== 'string') violations.push({ message: 'url: must be a string in url mode' });
    if (typeof params['elicitationId'] !== 'string' || params['elicitationId'] === '') violations.push({ message: 'elicitationId: must be a non-empty string in url mode' });
    const analysis = analyseUrl(url);
    const warnings: PreviewProblem[] = [];
    for (const r of analysis.reasons) (r.severity === 'block' ? violations : warnings).push({ message: `url: ${r.message}` });
    return { kind: 'url', message, url, violations, warnings };
  }
  if (mode !== 'form') {
    violations.push({ message: `mode: unsupported elicitation mode ${JSON.stringify(mode)} ("form" or "url")` });
    return { kind: 'invalid', violations };
  }
  violations.push(...schemaViolations(params['requestedSchema']));
  const normalised = normaliseRequestedSchema(params['requestedSchema']);
  const form = normalised.ok ? normalised.form : undefined;
  const warnings: PreviewProblem[] = normalised.ok ? [...normalised.warnings, ...formWarnings(message, normalised.form)].map((w) => ({ message: w })) : [];
  return { kind: 'form', message, form: violations.length === 0 ? form : undefined, violations, warnings };
}
