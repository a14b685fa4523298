import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { isWorkspaceDefined, mayStart } from '../../src/config/parse/trust';
import { redactSecrets } from '../../src/util/redact';

describe('workspace trust gate', () => {
  const cases: [string, Parameters<typeof isWorkspaceDefined>[0], boolean, boolean][] = [
    ['mcp.json server, untrusted', { kind: 'workspaceFile' }, false, false],
    ['mcp.json server, trusted', { kind: 'workspaceFile' }, true, true],
    ['workspace setting, untrusted', { kind: 'setting', scope: 'workspace' }, false, false],
    ['folder setting, untrusted', { kind: 'setting', scope: 'workspaceFolder' }, false, false],
    ['user setting, untrusted', { kind: 'setting', scope: 'user' }, false, true],
    ['user setting, trusted', { kind: 'setting', scope: 'user' }, true, true],
  ];
  for (const [name, source, trusted, expected] of cases) {
    it(name, () => assert.equal(mayStart({ workspaceDefined: isWorkspaceDefined(source) }, trusted), expected));
  }
});

describe('log redaction', () => {
  it('redacts registered secrets wherever they appear', () => {
    assert.equal(
      redactSecrets('env TOKEN=s3cr3t-value and again s3cr3t-value', ['s3cr3t-value']),
      'env TOKEN=[redacted] and again [redacted]',
    );
  });
  it('redacts credential-looking JSON keys and header values in traced messages', () => {
    const line = JSON.stringify({
      headers: { Authorization: 'Bearer abc.def', 'X-Api-Key': 'k-123', Accept: 'text/plain' },
      password: 'pw',
      other: 'visible',
    });
    const out = redactSecrets(line, []);
    assert.ok(!out.includes('abc.def') && !out.includes('k-123') && !out.includes('"pw"'), out);
    assert.ok(out.includes('text/plain') && out.includes('visible'), 'unrelated values stay readable');
  });
  it('leaves text without secrets unchanged', () => {
    assert.equal(redactSecrets('[demo] running over stdio', ['unused-secret']), '[demo] running over stdio');
  });
});
