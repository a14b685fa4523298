/**
 * Roots (issue 24 item 1) in plain Node: which folders a server sees, the flood limit, and a real
 * SDK server asking a Session for its roots and hearing when they change.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  narrowRoots,
  ROOTS_RATE,
  ROOTS_RATE_LIMITED_CODE,
  SessionRoots,
  type Folder,
  type RootsSource,
} from '../../src/servers/capabilities/roots';
import { Session } from '../../src/servers/session';
import { Emitter } from '../../src/util/emitter';
import { FakeLaunches, MemoryLog, RecordingSampler, RecordingSink, stdioDef } from './support/fakeLaunches';

const A: Folder = { uri: 'file:///work/a', name: 'a', fsPath: '/work/a' };
const B: Folder = { uri: 'file:///work/b', name: 'b', fsPath: '/work/b' };
const REMOTE: Folder = { uri: 'vscode-vfs://github/x/y', name: 'y' };

/** A source over a mutable table, as the host's WorkspaceRoots is over the workspace. */
class TableSource implements RootsSource {
  readonly changed = new Emitter<void>();
  readonly onDidChange = this.changed.event;
  folders: Folder[] = [A, B];
  narrowing: Record<string, unknown> = {};
  rootsFor(server: string): ReturnType<RootsSource['rootsFor']> {
    return narrowRoots(this.folders, true, this.narrowing[server]);
  }
}

void describe('narrowRoots', () => {
  void it('a trusted workspace offers every file folder, with its name; other schemes are left out', () => {
    assert.deepEqual(narrowRoots([A, REMOTE, B], true, undefined), [
      { uri: A.uri, name: 'a' },
      { uri: B.uri, name: 'b' },
    ]);
  });
  void it('an untrusted workspace offers nothing, whatever the setting', () => {
    assert.deepEqual(narrowRoots([A, B], false, undefined), []);
    assert.deepEqual(narrowRoots([A, B], false, ['a']), []);
  });
  void it('a setting narrows by folder path (a trailing separator or a `.` segment is fine), down to none', () => {
    assert.deepEqual(narrowRoots([A, B], true, ['/work/b']), [{ uri: B.uri, name: 'b' }]);
    assert.deepEqual(narrowRoots([A, B], true, ['/work/a/']), [{ uri: A.uri, name: 'a' }]);
    assert.deepEqual(narrowRoots([A, B], true, ['/work/./a']), [{ uri: A.uri, name: 'a' }]);
    assert.deepEqual(narrowRoots([A, B], true, []), []);
    assert.deepEqual(narrowRoots([A, B], true, ['/nope']), []);
  });
  void it('a folder name matches nothing: a .code-workspace file names its folders, so "docs" could be ~/.ssh', () => {
    // The user narrowed "filesystem" to their docs folder, by name; the workspace file calls ~/.ssh "docs".
    const ssh: Folder = { uri: 'file:///home/u/.ssh', name: 'docs', fsPath: '/home/u/.ssh' };
    assert.deepEqual(narrowRoots([ssh, A], true, ['docs']), []);
    assert.deepEqual(narrowRoots([ssh, A], true, ['a']), [], 'nor a relative path');
    assert.deepEqual(narrowRoots([ssh, A], true, ['/work/a']), [{ uri: A.uri, name: 'a' }]);
  });
  void it('Windows paths: compared normalised, in any case where the file system ignores it', () => {
    const W: Folder = { uri: 'file:///c%3A/work/a', name: 'a', fsPath: 'c:\\work\\a' };
    assert.deepEqual(narrowRoots([W], true, ['C:\\Work\\a\\'], true), [{ uri: W.uri, name: 'a' }]);
    assert.deepEqual(narrowRoots([W], true, ['C:\\Work\\a'], false), []);
  });
  void it('a malformed setting hides every folder rather than widening', () => {
    assert.deepEqual(narrowRoots([A, B], true, 'a'), []);
    assert.deepEqual(narrowRoots([A, B], true, { a: true }), []);
  });
});

void describe('SessionRoots', () => {
  void it('answers within the limit, then a JSON-RPC error until the bucket refills', () => {
    let now = 0;
    const roots = new SessionRoots({ server: 's', source: new TableSource(), notifyChanged: () => undefined, clock: () => now });
    for (let i = 0; i < ROOTS_RATE.requests; i++) assert.equal(roots.list().roots.length, 2);
    assert.throws(
      () => roots.list(),
      (e: unknown) => (e as { code?: unknown }).code === ROOTS_RATE_LIMITED_CODE && /rate limit/.test((e as Error).message),
    );
    now += (ROOTS_RATE.perSeconds * 1000) / ROOTS_RATE.requests;
    assert.equal(roots.list().roots.length, 2);
    roots.dispose();
  });

  void it('tells the server only about a change it can see, and nothing once disposed', () => {
    const source = new TableSource();
    source.narrowing = { s: ['/work/a'] };
    let told = 0;
    const roots = new SessionRoots({ server: 's', source, notifyChanged: () => told++ });
    source.folders = [A];
    source.changed.fire();
    assert.equal(told, 0, 'b went away, but s never saw b');
    source.narrowing = { s: [] };
    source.changed.fire();
    assert.equal(told, 1);
    roots.dispose();
    source.narrowing = {};
    source.changed.fire();
    assert.equal(told, 1);
  });
});

void describe('a Session offers roots to a real SDK server', () => {
  void it('declares roots with listChanged, answers roots/list, and sends list_changed on a visible change', async () => {
    const launches = new FakeLaunches();
    const source = new TableSource();
    const session = new Session(launches.create(stdioDef('one'), { stderr: () => undefined, warn: () => undefined }), {
      name: 'one',
      clientInfo: { name: 'test-host', version: '0.0.0' },
      sink: new RecordingSink(),
      sampler: new RecordingSampler(),
      log: new MemoryLog(),
      protocolVersion: undefined,
      roots: source,
    });
    await session.connect(5_000);
    const server = launches.last.server?.server;
    assert.ok(server);
    assert.deepEqual(server.getClientCapabilities()?.roots, { listChanged: true });
    assert.deepEqual(await server.listRoots(), {
      roots: [
        { uri: A.uri, name: 'a' },
        { uri: B.uri, name: 'b' },
      ],
    });
    const heard = new Promise<void>((resolve) => server.setNotificationHandler(RootsListChangedNotificationSchema, () => resolve()));
    source.narrowing = { one: ['/work/b'] };
    source.changed.fire();
    await heard;
    assert.deepEqual(await server.listRoots(), { roots: [{ uri: B.uri, name: 'b' }] });
    await session.dispose();
  });
});
