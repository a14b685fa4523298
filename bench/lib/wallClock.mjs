// The clock of the benchmark's latency figures, shared by every process that stamps one: the bench
// servers, the extension host (bench/host/clock.ts), the harness and, through page.evaluate, the
// page. A sample subtracts stamps of two processes, so the clock has to be one they share.
// Date.now() is, but it counts whole milliseconds, which is 6 to 10 % of a 10 to 16 ms figure.
// `performance.timeOrigin + performance.now()` is monotonic and sub-millisecond; each process
// aligns it with the system clock once, when it starts (a page: when it navigates), so two
// processes agree only as well as those alignments do. `systemClockOffset` measures that.

/** Wall-clock-aligned, sub-millisecond time in ms. */
export const now = () => performance.timeOrigin + performance.now();

/**
 * How far this process's `performance.timeOrigin + performance.now()` is ahead of the system
 * clock, in ms. It waits for Date.now() to tick to a new millisecond, when the system clock is
 * exactly at that value, and reads the high-resolution clock at once. The system clock is one for
 * all processes, so two processes' offsets differ by their skew, without a round trip between
 * them. Self-contained, because page.evaluate runs it in the page.
 *
 * The result is the mean over `edges` ticks, leaving out reads more than 0.25 ms from their median
 * (the process was preempted between the two reads). A mean, not the median, because a page's
 * performance.now() is coarsened to 100 µs with a random threshold: each read is one of two
 * values 0.1 ms apart, and only their mean comes close to the true offset.
 * @param {number} [edges]
 * @returns {number}
 */
export function systemClockOffset(edges = 25) {
  /** @type {number[]} */
  const offsets = [];
  for (let i = 0; i < edges; i++) {
    const start = Date.now();
    let wall = start;
    let high = 0;
    // Busy-waits at most 1 ms per edge: a timer would add its own delay between the two reads.
    while (wall === start) {
      wall = Date.now();
      high = performance.timeOrigin + performance.now();
    }
    offsets.push(high - wall);
  }
  const sorted = [...offsets].sort((a, b) => a - b);
  const median = /** @type {number} */ (sorted[Math.floor(sorted.length / 2)]);
  const kept = offsets.filter((o) => Math.abs(o - median) <= 0.25);
  return kept.reduce((a, b) => a + b, 0) / kept.length;
}
