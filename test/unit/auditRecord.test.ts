import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildAuditRecord,
  MAX_AUDIT_MESSAGE,
  REDACTED,
  serialiseAuditLine,
  shouldRotate,
  stripUrl,
  type AuditInput,
} from '../../src/audit/auditRecord';
import { askerFor } from '../../src/elicitation/asker';

const base: AuditInput = {
  id: 'e1',
  at: new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6)),
  asker: askerFor('github', undefined),
  mode: 'form',
  message: 'Please sign in',
  fieldKeys: ['user', 'password', 'remember'],
  secretKeys: ['password'],
  action: 'accept',
  decidedBy: 'user',
  durationMs: 1234.6,
  content: { user: 'ada', password: 'hunter2', remember: true },
  includeValues: false,
};

void describe('buildAuditRecord', () => {
  void it('records the request without values by default', () => {
    const rec = buildAuditRecord(base);
    assert.deepEqual(rec, {
      time: '2025-01-02T03:04:05.006Z',
      server: 'github',
      mode: 'form',
      message: 'Please sign in',
      fields: ['user', 'password', 'remember'],
      action: 'accept',
      decidedBy: 'user',
      durationMs: 1235,
    });
    assert.ok(!serialiseAuditLine(rec).includes('hunter2'));
    assert.ok(!serialiseAuditLine(rec).includes('ada'));
  });

  void it('includes values when opted in, but never secret ones', () => {
    const rec = buildAuditRecord({ ...base, includeValues: true });
    assert.deepEqual(rec.content, { user: 'ada', password: REDACTED, remember: true });
    assert.ok(!serialiseAuditLine(rec).includes('hunter2'));
  });

  void it('redacts secret keys that are not among the schema fields too', () => {
    const rec = buildAuditRecord({
      ...base,
      includeValues: true,
      fieldKeys: [],
      content: { apiKey: 'k', note: 'n' },
      secretKeys: ['apiKey'],
    });
    assert.deepEqual(rec.content, { apiKey: REDACTED, note: 'n' });
  });

  void it('keeps a "__proto__" answer key as data', () => {
    const content = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    const rec = buildAuditRecord({ ...base, includeValues: true, content, secretKeys: ['__proto__'] });
    assert.ok(rec.content && Object.hasOwn(rec.content, '__proto__'));
    assert.equal(Object.getPrototypeOf(rec.content), Object.prototype);
    assert.ok(serialiseAuditLine(rec).includes(`"__proto__":"${REDACTED}"`));
  });

  void it('says which call, round and input request a 2026-07-28 round came from', () => {
    const rec = buildAuditRecord({ ...base, round: { call: 'deploy', round: 2, key: 'confirm', index: 1, total: 2 } });
    assert.equal(rec.call, 'deploy');
    assert.equal(rec.round, 2);
    assert.equal(rec.key, 'confirm');
    assert.equal(buildAuditRecord(base).round, undefined, 'a pushed request has none');
  });

  void it('omits content when there is none, even with values included', () => {
    const { content: _c, ...noContent } = base;
    const rec = buildAuditRecord({ ...noContent, action: 'decline', includeValues: true });
    assert.ok(!('content' in rec));
  });

  void it('a URL in the message loses its password and query, as in the log (issue 41)', () => {
    const rec = buildAuditRecord({ ...base, message: 'Migrate postgres://admin:hunter22@db.internal/app?token=t0k now?' });
    assert.equal(rec.message, 'Migrate postgres://admin:[redacted]@db.internal/app?[redacted] now?');
  });

  void it('strips the query string and fragment from url-mode URLs', () => {
    const rec = buildAuditRecord({
      ...base,
      mode: 'url',
      fieldKeys: [],
      url: 'https://login.example.com/oauth/authorize?client_id=x&state=secret#access_token=abc',
    });
    assert.equal(rec.url, 'https://login.example.com/oauth/authorize');
    assert.ok(!serialiseAuditLine(rec).includes('secret'));
    assert.ok(!serialiseAuditLine(rec).includes('abc'));
  });

  void it('says whether the browser opened a url-mode page the user chose to open, and nothing when it was not asked', () => {
    const url = {
      ...base,
      mode: 'url' as const,
      fieldKeys: [],
      secretKeys: [],
      url: 'https://auth.example.com/x',
      action: 'cancel' as const,
    };
    assert.equal(buildAuditRecord({ ...url, browser: 'notOpened' }).browser, 'notOpened');
    assert.equal(buildAuditRecord({ ...url, action: 'accept', browser: 'opened' }).browser, 'opened');
    assert.ok(!('browser' in buildAuditRecord(url)));
  });

  void it('truncates long messages to 500 characters', () => {
    const rec = buildAuditRecord({ ...base, message: 'x'.repeat(2000) });
    assert.equal(rec.message.length, MAX_AUDIT_MESSAGE);
    assert.ok(rec.message.endsWith('…'));
    assert.equal(buildAuditRecord({ ...base, message: 'y'.repeat(500) }).message, 'y'.repeat(500));
  });

  void it('does not split a surrogate pair when truncating', () => {
    const rec = buildAuditRecord({ ...base, message: `${'a'.repeat(498)}😀tail` });
    assert.equal(rec.message, `${'a'.repeat(498)}…`);
    assert.doesNotMatch(rec.message, /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/, 'no lone high surrogate');
  });

  void it('clamps a negative duration', () => {
    assert.equal(buildAuditRecord({ ...base, durationMs: -5 }).durationMs, 0);
  });
});

void describe('stripUrl', () => {
  void it('drops credentials, query and fragment', () => {
    assert.equal(stripUrl('https://user:pw@example.com:8443/a/b?c=d#e'), 'https://example.com:8443/a/b');
    assert.equal(stripUrl('http://example.com'), 'http://example.com/');
  });

  void it('cuts text that is not a URL at the first ? or #', () => {
    assert.equal(stripUrl('not a url?token=1'), 'not a url');
    assert.equal(stripUrl('weird#frag?x'), 'weird');
    assert.equal(stripUrl('plain'), 'plain');
  });
});

void describe('serialiseAuditLine', () => {
  void it('writes exactly one line that parses back', () => {
    const rec = buildAuditRecord({ ...base, message: 'line one\nline two\r\n{"forged":true}' });
    const line = serialiseAuditLine(rec);
    assert.ok(line.endsWith('\n'));
    assert.equal(line.indexOf('\n'), line.length - 1, 'server text cannot add lines');
    assert.deepEqual(JSON.parse(line), rec);
  });
});

void describe('shouldRotate', () => {
  void it('rotates when the line would cross the limit', () => {
    assert.equal(shouldRotate(100, 50, 200), false);
    assert.equal(shouldRotate(150, 50, 200), false);
    assert.equal(shouldRotate(151, 50, 200), true);
  });

  void it('defaults to 5 MiB', () => {
    assert.equal(shouldRotate(5 * 1024 * 1024 - 10, 10), false);
    assert.equal(shouldRotate(5 * 1024 * 1024 - 10, 11), true);
  });

  void it('never rotates an empty file, even for an oversized line', () => {
    assert.equal(shouldRotate(0, 10 * 1024 * 1024), false);
  });
});
