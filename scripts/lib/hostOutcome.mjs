// What one in-host run counts as: the mocha summary the suite prints when it finishes
// (test/integration/index.ts), judged together with the exit code the workbench reported.
import { parseJson } from './json.mjs';

/**
 * Passed and failed tests of one run. A run that printed no summary did not finish: the extension
 * host died, the connection to it was lost, or the suite timed out. That is a failure whatever the
 * exit code says: when the extension host goes away mid-suite the workbench still reports 0, and
 * counting that as "0 failed" would let a crash pass CI with the tests it never ran.
 * @param {string} log what the suite wrote
 * @param {number} exitCode what the workbench reported (124: the suite timed out)
 * @returns {{ passed: number, failed: number, finished: boolean }}
 */
export function hostOutcome(log, exitCode) {
  const m = /MOCHA_SUMMARY (\{.*\})/.exec(log)?.[1];
  if (!m) return { passed: 0, failed: 1, finished: false };
  const summary = /** @type {{ passes: number, failures: number }} */ (parseJson(m));
  return { passed: summary.passes, failed: exitCode !== 0 && summary.failures === 0 ? 1 : summary.failures, finished: true };
}
