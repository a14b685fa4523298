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
/**
 * A row's verdict: `true` met, `false` missed, `'undecided'` when the figure's 95 % interval
 * contains the target, so this run cannot tell which side it is on (printed `?`).
 * @typedef {boolean | 'undecided'} Verdict
 */

export const mark = (/** @type {Verdict | undefined} */ ok) => (ok === undefined ? '' : ok === 'undecided' ? '?' : ok ? '✓' : '✗');

/** @typedef {{ measure: string, result: string, target: string, ok?: Verdict }} Row */

/** @param {number[]} values  finite, not empty */
export const median = (values) => summarise(values).median;

/**
 * A seeded generator (mulberry32): the same samples give the same interval on every recomputation,
 * so a results.json can be checked against its table.
 * @param {number} seed
 */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Percentile bootstrap interval of `statistic` over samples grouped by independent run. Each
 * iteration draws as many runs as there are, with replacement, and then, within each drawn run,
 * each arm's samples with replacement (a two-level bootstrap). So the interval covers both the
 * spread between runs (the workbench's drawing time moves from one code-server to the next) and
 * the spread within one. With a single run it is the ordinary bootstrap.
 * @template {Record<string, number[]>} R
 * @param {R[]} runs  one entry per independent run; each arm (e.g. `ours`, `baseline`) its samples
 * @param {(runs: R[]) => number} statistic
 * @param {{ iterations?: number, level?: number, seed?: number }} [opts]
 * @returns {{ low: number, high: number, level: number }}
 */
export function bootstrapInterval(runs, statistic, { iterations = 4000, level = 0.95, seed = 27 } = {}) {
  const rand = seeded(seed);
  const pick = (/** @type {number} */ n) => Math.floor(rand() * n);
  /** @type {number[]} */
  const stats = [];
  for (let i = 0; i < iterations; i++) {
    const drawn = runs.map(() => {
      const run = /** @type {R} */ (runs[pick(runs.length)]);
      return /** @type {R} */ (
        Object.fromEntries(Object.entries(run).map(([arm, v]) => [arm, v.map(() => /** @type {number} */ (v[pick(v.length)]))]))
      );
    });
    const x = statistic(drawn);
    if (Number.isFinite(x)) stats.push(x);
  }
  const s = summarise(stats);
  if (s.n === 0) return { low: NaN, high: NaN, level };
  stats.sort((a, b) => a - b);
  const at = (/** @type {number} */ q) =>
    /** @type {number} */ (stats[Math.min(stats.length - 1, Math.max(0, Math.floor(q * stats.length)))]);
  return { low: at((1 - level) / 2), high: at(1 - (1 - level) / 2), level };
}

/**
 * ✓ when the whole interval is within the target, ✗ when none of it is, undecided otherwise.
 * @param {{ low: number, high: number }} interval
 * @param {number} target  an upper bound: the figure should be at most this (`strict`: below it)
 * @param {boolean} [strict]
 * @returns {Verdict}
 */
export function verdictAtMost(interval, target, strict = false) {
  const within = (/** @type {number} */ x) => (strict ? x < target : x <= target);
  if (!Number.isFinite(interval.low) || !Number.isFinite(interval.high)) return false;
  if (within(interval.high)) return true;
  if (!within(interval.low)) return false;
  return 'undecided';
}

/** `[low–high]`, the way the table prints an interval. */
export const fmtInterval = (/** @type {{ low: number, high: number }} */ i, digits = 2) => `${fmt(i.low, digits)}–${fmt(i.high, digits)}`;

/** @param {Row[]} rows */
export function markdownTable(rows) {
  const lines = ['| Measure | Result | Target | |', '|---|---|---|:-:|'];
  for (const r of rows) lines.push(`| ${r.measure} | ${r.result} | ${r.target} | ${mark(r.ok)} |`);
  return lines.join('\n');
}
