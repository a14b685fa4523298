/**
 * What makes two questions "the same question" for a remembered answer: the asking server's name,
 * the exact message, and the requested schema as canonical JSON. Pure; no `vscode`.
 */
import { createHash } from 'node:crypto';

/**
 * JSON with every object's keys sorted (recursively), so a schema the server sends with its keys
 * in another order is the same schema, while any change of a value, a key or an array's order is
 * not. Values JSON cannot hold (undefined, functions) are dropped as `JSON.stringify` drops them.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines own properties, so a "__proto__" key stays an ordinary key.
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}

/**
 * The fingerprint of one question: SHA-256 over the server, the message exactly as sent (no
 * trimming or whitespace folding: "Delete  all?" is another question than "Delete all?") and the
 * canonical schema. The three parts are framed as one JSON array, so no split of the same
 * characters between message and schema can produce the same input.
 */
export function questionFingerprint(server: string, message: string, requestedSchema: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([server, message, canonicalJson(requestedSchema)]))
    .digest('hex');
}
