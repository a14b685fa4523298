import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeIgnoredKeys } from '../../src/config/parse/definitions';

// The keys a routed server loses are named before Route and when it starts; the names come from a
// file the workspace may have written, so only plain ones are shown and the rest are counted.
describe('describeIgnoredKeys', () => {
  it('lists plain keys in order', () => {
    assert.equal(describeIgnoredKeys(['dev.debug', 'sandbox']), 'dev.debug, sandbox');
  });
  it('counts keys that are not plain instead of showing them', () => {
    assert.equal(describeIgnoredKeys(['dev.debug', '[x](command:evil)', 'a'.repeat(41)]), 'dev.debug, 2 other');
  });
  it('nothing to say when nothing is ignored', () => {
    assert.equal(describeIgnoredKeys(undefined), undefined);
    assert.equal(describeIgnoredKeys([]), undefined);
  });
});
