// A valid answer to any form a fixture asks: every property of the requested schema filled with a
// value its type, format, enum and bounds accept (so a server's own validation never fails the call).

/**
 * @typedef {{
 *   type?: string, format?: string, enum?: unknown[], oneOf?: { const?: unknown }[], anyOf?: { const?: unknown }[],
 *   minimum?: number, maximum?: number, minItems?: number, default?: unknown,
 *   items?: { enum?: unknown[], anyOf?: { const?: unknown }[] },
 * }} Property
 */

/** @param {{ const?: unknown }[] | undefined} options */
const firstConst = (options) => options?.find((o) => o.const !== undefined)?.const;

/** @param {Property} p @returns {unknown} */
export function valueFor(p) {
  if (p.enum?.length) return p.enum[0];
  const c = firstConst(p.oneOf) ?? firstConst(p.anyOf);
  if (c !== undefined) return c;
  switch (p.type) {
    case 'boolean':
      return true;
    case 'integer':
      return Math.min(Math.max(p.minimum ?? 2, 2), p.maximum ?? 2);
    case 'number':
      return Math.min(Math.max(p.minimum ?? 2.5, 2.5), p.maximum ?? 2.5);
    case 'array': {
      const options = p.items?.enum ?? p.items?.anyOf?.map((o) => o.const) ?? [];
      return options.slice(0, Math.max(1, p.minItems ?? 1));
    }
    default:
      return p.format === 'email'
        ? 'ada@example.com'
        : p.format === 'uri'
          ? 'https://example.com/'
          : p.format === 'date'
            ? '2000-01-02'
            : p.format === 'date-time'
              ? '2000-01-02T03:04:05Z'
              : 'Ada';
  }
}

/**
 * @param {unknown} requestedSchema
 * @returns {Record<string, unknown>}
 */
export function answerFor(requestedSchema) {
  const props = /** @type {{ properties?: Record<string, Property> }} */ (requestedSchema ?? {}).properties ?? {};
  return Object.fromEntries(Object.entries(props).map(([k, p]) => [k, valueFor(p)]));
}
