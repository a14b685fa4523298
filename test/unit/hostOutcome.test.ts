// How an in-host run is counted (scripts/lib/hostOutcome.mjs): a run that never printed its mocha
// summary did not finish and fails, even when the workbench reported exit 0 (it does when the
// extension host goes away mid-suite).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostOutcome } from '../../scripts/lib/hostOutcome.mjs';

describe('hostOutcome: what one in-host run counts as', () => {
  it('a finished run counts its summary', () => {
    assert.deepEqual(hostOutcome('  ✔ a\nMOCHA_SUMMARY {"passes":12,"failures":2,"pending":0}\n', 1), {
      passed: 12,
      failed: 2,
      finished: true,
    });
    assert.deepEqual(hostOutcome('MOCHA_SUMMARY {"passes":3,"failures":0,"pending":0}', 0), { passed: 3, failed: 0, finished: true });
  });

  it('a summary with no failures but a failing exit is still a failure', () => {
    assert.deepEqual(hostOutcome('MOCHA_SUMMARY {"passes":3,"failures":0,"pending":0}', 124), { passed: 3, failed: 1, finished: true });
  });

  it('no summary: the suite did not finish, a failure even with exit 0 (the extension host went away)', () => {
    const log = '  ✔ first test\n  ✔ second test\n[remote-connection][ExtensionHost] received socket close event\n';
    assert.deepEqual(hostOutcome(log, 0), { passed: 0, failed: 1, finished: false });
    assert.deepEqual(hostOutcome(log, 124), { passed: 0, failed: 1, finished: false });
  });
});
