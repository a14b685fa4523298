// Summary statistics for `npm run bench`. Percentiles are nearest-rank on the sorted samples: with
// 30 samples, p95 is the 29th value, i.e. the second-worst run, not an interpolation.

/** @param {number[]} values */
export function summarise(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return { n: 0, median: NaN, p95: NaN, min: NaN, max: NaN, mean: NaN };
  const rank = (p) => v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
  const mid = Math.floor(v.length / 2);
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return { n: v.length, median, p95: rank(95), min: v[0], max: v[v.length - 1], mean: v.reduce((a, b) => a + b, 0) / v.length };
}

export const fmt = (x, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : '–');
export const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
export const mib = (bytes) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
export const mark = (ok) => (ok === undefined ? '' : ok ? '✓' : '✗');

/** @param {{ measure: string, result: string, target: string, ok?: boolean }[]} rows */
export function markdownTable(rows) {
  const lines = ['| Measure | Result | Target | |', '|---|---|---|:-:|'];
  for (const r of rows) lines.push(`| ${r.measure} | ${r.result} | ${r.target} | ${mark(r.ok)} |`);
  return lines.join('\n');
}
