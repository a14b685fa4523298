/**
 * The audit file says who asked what (and, with includeValues, what was answered), so it is
 * readable by the user only: written through the real AuditLog into a temporary storage folder.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type * as vscode from 'vscode';
import { AuditLog } from '../../src/audit/auditLog';
import type { Settings } from '../../src/config/settings';
import { askerFor } from '../../src/elicitation/asker';
import type { FinishedElicitation } from '../../src/elicitation/outcome';
import type { Logger } from '../../src/util/log';

const root = mkdtempSync(path.join(tmpdir(), 'audit-mode-'));
const posix = process.platform !== 'win32';

const finished: FinishedElicitation = {
  id: 'e1',
  at: new Date(),
  asker: askerFor('github', undefined),
  mode: 'form',
  message: 'Please sign in',
  fieldKeys: ['user', 'password'],
  secretKeys: ['password'],
  action: 'accept',
  decidedBy: 'user',
  durationMs: 12,
  content: { user: 'ada', password: 'hunter2' },
};

function auditLogIn(dir: string, warnings: string[]): AuditLog {
  // AuditLog reads only the storage folder's path from the context, two settings and the logger's warn.
  const context = { storageUri: { fsPath: dir }, globalStorageUri: { fsPath: dir } } as unknown as vscode.ExtensionContext;
  const settings = (): Settings => ({ auditEnabled: true, auditIncludeValues: false }) as Settings;
  const log = { warn: (m: string) => warnings.push(m) } as unknown as Logger;
  return new AuditLog(context, settings, log);
}

const mode = (p: string): number => statSync(p).mode & 0o777;

void describe('audit file permissions', { skip: !posix && 'POSIX file modes' }, () => {
  after(() => rmSync(root, { recursive: true, force: true }));

  void it('creates the storage folder 0700 and the audit file 0600', async () => {
    const dir = path.join(root, 'fresh', 'workspaceStorage');
    const warnings: string[] = [];
    const audit = auditLogIn(dir, warnings);
    audit.write(finished);
    await audit.flush();
    assert.deepEqual(warnings, []);
    assert.ok(readFileSync(audit.file, 'utf8').includes('"server":"github"'), 'the record was written');
    assert.equal(mode(dir).toString(8), '700');
    assert.equal(mode(audit.file).toString(8), '600');
  });

  void it('tightens an audit file left readable by others before appending to it', async () => {
    const dir = path.join(root, 'existing');
    await mkdir(dir, { recursive: true });
    const file = path.join(dir, 'audit.jsonl');
    writeFileSync(file, '{"server":"older"}\n', { mode: 0o644 });
    assert.equal(mode(file).toString(8), '644', 'precondition: the old file is world-readable');
    const warnings: string[] = [];
    const audit = auditLogIn(dir, warnings);
    audit.write(finished);
    await audit.flush();
    assert.deepEqual(warnings, []);
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    assert.equal(lines.length, 2, 'the new record was appended to the old one');
    assert.equal(mode(file).toString(8), '600');
  });

  void it('on start, tightens a storage folder and audit files an older version left open (0755, 0644) before anything is written', async () => {
    const dir = path.join(root, 'older', 'workspaceStorage');
    await mkdir(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = path.join(dir, 'audit.jsonl');
    writeFileSync(file, '{"server":"older"}\n', { mode: 0o644 });
    writeFileSync(`${file}.1`, '{"server":"oldest"}\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    chmodSync(`${file}.1`, 0o644);
    assert.deepEqual(
      [mode(dir), mode(file), mode(`${file}.1`)].map((m) => m.toString(8)),
      ['755', '644', '644'],
      'precondition',
    );
    const warnings: string[] = [];
    const audit = auditLogIn(dir, warnings);
    // Nothing written: starting is enough.
    await audit.flush();
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      [mode(dir), mode(file), mode(`${file}.1`)].map((m) => m.toString(8)),
      ['700', '600', '600'],
    );
    assert.equal(readFileSync(file, 'utf8'), '{"server":"older"}\n', 'the old records are kept as they were');
  });

  void it('on start, creates nothing where there is no storage folder yet, and never loosens a tighter mode', async () => {
    const missing = path.join(root, 'none', 'workspaceStorage');
    await auditLogIn(missing, []).flush();
    assert.equal(existsSync(missing), false);
    const dir = path.join(root, 'tight');
    await mkdir(dir, { recursive: true });
    chmodSync(dir, 0o500);
    await auditLogIn(dir, []).flush();
    assert.equal(mode(dir).toString(8), '500');
    chmodSync(dir, 0o700);
  });
});
