/**
 * How an API caller is told from its stack, in plain Node: the rule over a list of frames, and
 * the real stack, where a `vm` script named after another extension's file borrows nothing.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { callingExtension, callStackFrames, isFileCode, type InstalledExtension } from '../../src/api/caller';

const anyFrame = { genuine: () => true, caseInsensitive: false };
const frames = (...files: string[]): { file: string }[] => files.map((file) => ({ file }));

void describe('the API caller', () => {
  const exts = [
    { id: 'pub.outer', folder: '/exts/pub.outer' },
    { id: 'pub.outer-plus', folder: '/exts/pub.outer-plus' },
    { id: 'pub.nested', folder: '/exts/pub.outer/node_modules/nested' },
  ];

  void it('is the first extension frame outside the API module, innermost first', () => {
    const got = callingExtension(
      frames('/ours/dist/extension.js', '/host/extensionHostProcess.js', '/exts/pub.outer-plus/main.js', '/exts/pub.outer/main.js'),
      ['/ours/dist/extension.js'],
      exts,
      anyFrame,
    );
    assert.equal(got?.id, 'pub.outer-plus', 'a folder that merely starts like another is not inside it');
  });

  void it('prefers the deepest folder when extensions nest', () => {
    assert.equal(callingExtension(frames('/exts/pub.outer/node_modules/nested/x.js'), [], exts, anyFrame)?.id, 'pub.nested');
  });

  void it('is nobody when no frame belongs to an extension', () => {
    assert.equal(
      callingExtension(frames('/ours/dist/extension.js', 'node:internal/timers'), ['/ours/dist/extension.js'], exts, anyFrame),
      undefined,
    );
  });

  void it('passes over a frame whose code is not its file’s', () => {
    const got = callingExtension(frames('/exts/pub.outer-plus/main.js', '/exts/pub.outer/main.js'), [], exts, {
      caseInsensitive: false,
      genuine: (f) => f.file !== '/exts/pub.outer-plus/main.js',
    });
    assert.equal(got?.id, 'pub.outer');
  });

  void it("is read from the real stack: this test file is on it, and the host's formatter is left in place", () => {
    const formatter = (): string => 'custom';
    const original: unknown = Reflect.get(Error, 'prepareStackTrace');
    Error.prepareStackTrace = formatter;
    try {
      const files = callStackFrames().map((f) => f.file);
      assert.ok(
        files.some((f) => f.endsWith('caller.test.ts')),
        files.join('\n'),
      );
      assert.equal(Reflect.get(Error, 'prepareStackTrace'), formatter);
    } finally {
      Reflect.set(Error, 'prepareStackTrace', original);
    }
  });
});

void describe('an extension that names another extension’s file for its own code', () => {
  // Two installed extensions on disk: a victim, and one that runs a `vm` script under the
  // victim's file name, so the stack's innermost extension frame names the victim.
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-caller-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const victim: InstalledExtension = { id: 'good.victim', folder: path.join(root, 'good.victim') };
  const borrower: InstalledExtension = { id: 'evil.borrower', folder: path.join(root, 'evil.borrower') };
  mkdirSync(victim.folder);
  mkdirSync(borrower.folder);
  const victimFile = path.join(victim.folder, 'extension.js');
  writeFileSync(victimFile, 'exports.activate = () => undefined;\n');
  const borrowerFile = path.join(borrower.folder, 'extension.js');
  writeFileSync(
    borrowerFile,
    [
      "const vm = require('node:vm');",
      // `call` runs inside a script that says it is the victim's file.
      "exports.asVictim = (call, file) => vm.runInThisContext('(call) => call()', { filename: file })(call);",
      // The same, with the script's own code calling later (a timer), so no frame of the borrower is left.
      "exports.laterAsVictim = (call, file) => new Promise((r) => vm.runInThisContext('(call, r) => setTimeout(() => r(call()), 0)', { filename: file })(call, r));",
      "exports.byEval = (call) => eval('call()//# sourceURL=' + " + JSON.stringify(victimFile) + ');',
      'exports.direct = (call) => call();',
      '',
    ].join('\n'),
  );
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS file on disk, as an extension is loaded
  const evil = require(borrowerFile) as {
    asVictim<T>(call: () => T, file: string): T;
    laterAsVictim<T>(call: () => T, file: string): Promise<T>;
    byEval<T>(call: () => T): T;
    direct<T>(call: () => T): T;
  };
  const who = (): string | undefined => callingExtension(callStackFrames(), [], [victim, borrower], { caseInsensitive: false })?.id;

  void it('is itself, not the victim: the vm script’s code is not the victim’s file', () => {
    assert.equal(evil.asVictim(who, victimFile), 'evil.borrower');
  });

  void it('is nobody when only the vm script is on the stack', async () => {
    assert.equal(await evil.laterAsVictim(who, victimFile), undefined);
  });

  void it('is itself through eval with a sourceURL comment naming the victim', () => {
    assert.equal(evil.byEval(who), 'evil.borrower');
  });

  void it('is itself when it calls from its own file', () => {
    assert.equal(evil.direct(who), 'evil.borrower');
  });

  void it('the file check: a file loaded from disk is its own code; another hash, or none, is not', () => {
    const frame = evil.direct(() => callStackFrames().find((f) => f.file === borrowerFile));
    assert.ok(frame?.scriptHash, 'the runtime hashes scripts');
    assert.equal(isFileCode(frame), true);
    assert.equal(isFileCode({ file: borrowerFile, scriptHash: 'a'.repeat(64) }), false);
    assert.equal(isFileCode({ file: borrowerFile }), false, 'no hash from the runtime: not taken on trust');
  });
});
