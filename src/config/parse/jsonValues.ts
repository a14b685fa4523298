/** Shape checks for parsed JSON values, shared by the mcp.json readers. */

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A key's value only when the object has it itself (never one from its prototype, such as `constructor`). */
export const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
