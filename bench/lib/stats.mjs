// Summary statistics for `npm run bench`. Percentiles are nearest-rank on the sorted samples: with
// 30 samples, p95 is the 29th value, i.e. the second-worst run, not an interpolation.

/** @typedef {{ n: number, median: number, p95: number, min: number, max: number, mean: number }} Summary */

/**
 * @param {(number | undefined)[]} values  non-finite ones are left out
 * @returns {Summary}
 */
export function summarise(values) {
  const v = /** @type {number[]} */ (values.filter((x) => Number.isFinite(x))).sort((a, b) => a - b);
  if (v.length === 0) return { n: 0, median: NaN, p95: NaN, min: NaN, max: NaN, mean: NaN };
  /** The value at rank `i` (clamped): `v` is not empty here. */
  const at = (/** @type {number} */ i) => /** @type {number} */ (v[Math.min(v.length - 1, Math.max(0, i))]);
  const rank = (/** @type {number} */ p) => at(Math.ceil((p / 100) * v.length) - 1);
  const mid = Math.floor(v.length / 2);
  const median = v.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
  return { n: v.length, median, p95: rank(95), min: at(0), max: at(v.length - 1), mean: v.reduce((a, b) => a + b, 0) / v.length };
}

export const fmt = (/** @type {number | undefined} */ x, digits = 0) => (x !== undefined && Number.isFinite(x) ? x.toFixed(digits) : '–');
export const kib = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(0)} KB`;
export const mib = (/** @type {number} */ bytes) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
export const mark = (/** @type {boolean | undefined} */ ok) => (ok === undefined ? '' : ok ? '✓' : '✗');

/** @typedef {{ measure: string, result: string, target: string, ok?: boolean }} Row */

/** @param {Row[]} rows */
export function markdownTable(rows) {
  const lines = ['| Measure | Result | Target | |', '|---|---|---|:-:|'];
  for (const r of rows) lines.push(`| ${r.measure} | ${r.result} | ${r.target} | ${mark(r.ok)} |`);
  return lines.join('\n');
}
