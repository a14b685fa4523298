/**
 * The result check of a spec request, built once per era codec and method instead of on every
 * request. No `vscode` import.
 *
 * SDK behaviour worked around here (@modelcontextprotocol/client 2.4.0): `Protocol.request()`
 * without a result schema calls `codecResultValidator(codec, method)` on every request, which
 * finds out whether the method exists in the era by validating `undefined` against the method's
 * result schema and formatting zod's error text (`String(parsed.error)`), then wraps
 * `codec.validateResult` in a new Standard Schema object. The probe costs more than checking the
 * real result (about 10 to 20 µs against 1 to 10 µs in plain Node), and its answer never changes
 * for a codec and method. The upstream fix belongs in `codecResultValidator` (packages/core):
 * build the validator once per codec and method. The check made here is the SDK's, word for word;
 * test/unit/sdkShape.test.ts holds it to the SDK's own on a result it rejects.
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';

/** The part of the SDK's era codec (`WireCodec`) a result check uses. */
export interface ResultCodec {
  validateResult(
    method: string,
    raw: unknown,
  ): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string; readonly message?: string };
}

export class ResultChecks {
  private readonly checks = new Map<ResultCodec, Map<string, StandardSchemaV1 | undefined>>();

  /** The check for `method`'s result in `codec`'s era; undefined when the era has no such method. */
  for(codec: ResultCodec, method: string): StandardSchemaV1 | undefined {
    let byMethod = this.checks.get(codec);
    if (!byMethod) this.checks.set(codec, (byMethod = new Map<string, StandardSchemaV1 | undefined>()));
    if (byMethod.has(method)) return byMethod.get(method);
    const check = resultCheck(codec, method);
    byMethod.set(method, check);
    return check;
  }
}

/** What the SDK's `codecResultValidator` returns, built once. */
function resultCheck(codec: ResultCodec, method: string): StandardSchemaV1 | undefined {
  const probe = codec.validateResult(method, undefined);
  if (!probe.ok && probe.reason === 'not-in-era') return undefined;
  return {
    '~standard': {
      version: 1,
      vendor: 'mcp-wire-codec',
      validate(value) {
        const outcome = codec.validateResult(method, value);
        if (outcome.ok) return { value: outcome.value };
        return { issues: [{ message: outcome.reason === 'invalid' ? (outcome.message ?? '') : `not-in-era: ${method}` }] };
      },
    },
  };
}
