/**
 * The gateway key reaches only this user's gateway (issue 41, item 2): the socket directory is
 * checked before every listen and replaced when it is no longer ours (socketDir.ts), the relay
 * checks the directory and the socket before it writes the key (stdioRelay.ts, privateDir.ts), the
 * sweep never takes a live window's directory, and the door caps connections that have not sent
 * the key (socketDoor.ts; what protects a Windows pipe, tested here on any platform).
 *
 * A socket "somebody else" put at the relay's path is played by a listener in this process (a
 * directory open to all, a planted symbolic link), and, when these tests run as root, by a real
 * second local user (made with `useradd`, run with `setpriv`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as net from 'node:net';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEY_ENV, SOCKET_ENV } from '../../src/gateway/relayEnv';
import { SocketDoor } from '../../src/gateway/socketDoor';
import { SocketDir, SocketHome, sweepStaleSocketDirs } from '../../src/gateway/socketDir';

const SECRET = 'unit-test-key-0123456789abcdefghijklmnopqrstu';
const RELAY = fileURLToPath(new URL('../../src/gateway/stdioRelay.ts', import.meta.url));
const unix = process.platform !== 'win32';
const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'vscode-like', version: '1' } } })}\n`;

/** Runs the relay as VS Code would, writing an initialize to it; resolves with its exit code and stderr. */
function runRelay(path: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const relay = spawn(process.execPath, ['--import', 'tsx', RELAY], {
      env: { ...process.env, [SOCKET_ENV]: path, [KEY_ENV]: SECRET },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    relay.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    relay.stdin.on('error', () => undefined);
    relay.stdin.write(INITIALIZE);
    // A relay that connected stays up until the other end closes: give it time to have written the key.
    const timer = setTimeout(() => relay.kill(), 5000);
    relay.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** A listener that records what anyone writes to it: the stranger's socket. */
async function strangerAt(path: string): Promise<{ received: () => string; close: () => Promise<void> }> {
  let received = '';
  const server = net.createServer((socket) => {
    socket.on('data', (d: Buffer) => {
      received += d.toString();
      // Once the key is in, a stranger would answer as the gateway; ending it lets the relay exit.
      if (received.includes('\n')) socket.end();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(path, () => r()));
  return { received: () => received, close: () => new Promise((r) => server.close(() => r())) };
}

/** What the door does with a raw connection that writes nothing: closed (and how soon), or still open after `waitMs`. */
function quietConnection(path: string, waitMs: number): Promise<{ socket: net.Socket; outcome: Promise<'closed' | 'open'> }> {
  return new Promise((resolveConnected) => {
    const socket = net.connect(path);
    socket.on('error', () => undefined);
    const outcome = new Promise<'closed' | 'open'>((resolve) => {
      const timer = setTimeout(() => resolve('open'), waitMs);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve('closed');
      });
    });
    socket.once('connect', () => resolveConnected({ socket, outcome }));
    socket.once('error', () => resolveConnected({ socket, outcome }));
  });
}

void describe(
  'the gateway key reaches only this user’s gateway',
  { skip: !unix && 'Unix sockets in a private directory; Windows pipes are covered by the cap' },
  () => {
    let parent: string;
    before(() => {
      parent = mkdtempSync(join(tmpdir(), 'gwdir-'));
    });
    after(() => rmSync(parent, { recursive: true, force: true }));

    void it('the relay sends nothing to a socket in a directory open to others, and exits with a reason VS Code shows', async () => {
      const dir = join(parent, 'mcp-gw-open');
      mkdirSync(dir);
      chmodSync(dir, 0o777);
      const stranger = await strangerAt(join(dir, '1.sock'));
      try {
        const { code, stderr } = await runRelay(join(dir, '1.sock'));
        assert.equal(stranger.received(), '', 'the stranger received nothing, the key least of all');
        assert.equal(code, 1, `the relay failed (stderr: ${stderr})`);
        assert.match(stderr, /refusing to send the gateway key to .*mcp-gw-open\/1\.sock: .*open to others \(mode 0777, not 0700\)/);
      } finally {
        await stranger.close();
      }
    });

    void it('the relay sends nothing through a symbolic link planted at the directory’s name', async () => {
      const elsewhere = mkdtempSync(join(parent, 'elsewhere-'));
      const stranger = await strangerAt(join(elsewhere, '1.sock'));
      const link = join(parent, 'mcp-gw-link');
      symlinkSync(elsewhere, link);
      try {
        const { code, stderr } = await runRelay(join(link, '1.sock'));
        assert.equal(stranger.received(), '');
        assert.equal(code, 1);
        assert.match(stderr, /mcp-gw-link is a symbolic link/);
      } finally {
        await stranger.close();
      }
    });

    void it('the relay sends nothing to a socket that is not a socket, and says the gateway is gone when nothing is there', async () => {
      const dir = await SocketDir.make(parent);
      try {
        writeFileSync(join(dir.path, '1.sock'), '');
        const notSocket = await runRelay(join(dir.path, '1.sock'));
        assert.match(notSocket.stderr, /1\.sock is not a socket/);
        const missing = await runRelay(join(dir.path, '2.sock'));
        assert.equal(missing.code, 1);
        assert.match(missing.stderr, /could not reach the gateway at .*2\.sock .*restart the server/);
      } finally {
        await dir.close();
      }
    });

    void it('a directory that is no longer ours is replaced before the next listen, and the door will not listen in one', async () => {
      const warnings: string[] = [];
      const home = new SocketHome({ info: () => undefined, warn: (m) => warnings.push(m), parent });
      try {
        const first = await home.nextPath();
        assert.ok(first);
        const taken = dirname(first);
        // What the probe did once the directory was gone: the same name, open to all.
        rmSync(taken, { recursive: true, force: true });
        mkdirSync(taken);
        chmodSync(taken, 0o777);
        await assert.rejects(
          SocketDoor.listen(join(taken, '2.sock'), { secret: SECRET, admitted: () => undefined, refused: () => undefined }),
          /not a private directory: .*open to others/,
        );
        const next = await home.nextPath();
        assert.ok(next);
        assert.notEqual(dirname(next), taken, 'a fresh directory');
        assert.equal(statSync(dirname(next)).mode & 0o777, 0o700);
        assert.ok(
          warnings.some((w) => /no longer private .*open to others.*making a new one/.test(w)),
          warnings.join('\n'),
        );
        assert.ok(existsSync(taken), 'the other directory is left to whoever made it');
      } finally {
        await home.close();
      }
    });

    void it('the sweep never takes a live window’s directory (even empty and old), nor a link or another’s; it takes a crashed one’s', async () => {
      const sweepParent = mkdtempSync(join(parent, 'sweep-'));
      const old = (Date.now() - 5 * 60_000) / 1000;
      const make = (name: string, age: number): string => {
        const d = join(sweepParent, name);
        mkdirSync(d, { mode: 0o700 });
        writeFileSync(join(d, '1.sock'), '');
        utimesSync(d, age, age);
        return d;
      };
      const crashed = make('mcp-gw-crashed', old);
      const young = make('mcp-gw-young', Date.now() / 1000);
      const other = make('something-else', old);
      // A live window whose endpoints all closed: no endpoint socket, over a minute old.
      const live = await SocketDir.make(sweepParent);
      utimesSync(live.path, old, old);
      const target = make('target-of-link', old);
      const link = join(sweepParent, 'mcp-gw-link');
      symlinkSync(target, link);
      try {
        assert.deepEqual(await sweepStaleSocketDirs(sweepParent), [crashed]);
        assert.equal(existsSync(crashed), false);
        for (const kept of [young, other, live.path, link, target]) assert.ok(existsSync(kept), kept);
        const next = live.nextPath();
        assert.equal(dirname(next), live.path, 'the live window goes on in its own directory');
      } finally {
        await live.close();
      }
      assert.equal(existsSync(live.path), false, 'a closed window removes its directory');
    });
  },
);

void describe('connections that have not sent the key are capped and time out fast (what guards a Windows pipe)', () => {
  let dir: string;
  let path: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gwcap-'));
    path = unix ? join(dir, '1.sock') : `\\\\.\\pipe\\mcp-gw-cap-test-${process.pid}`;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  void it('a connection that says nothing is closed within two seconds', async () => {
    const door = await SocketDoor.listen(path, { secret: SECRET, admitted: () => undefined, refused: () => undefined });
    try {
      const t0 = Date.now();
      const { outcome } = await quietConnection(path, 4000);
      assert.equal(await outcome, 'closed');
      assert.ok(Date.now() - t0 < 2500, `closed after ${Date.now() - t0} ms`);
    } finally {
      await door.close();
    }
  });

  void it('at most eight wait at once: the next is closed at once and refused, and the key still gets in', async () => {
    const refused: string[] = [];
    const admitted: unknown[] = [];
    const door = await SocketDoor.listen(path, {
      secret: SECRET,
      admitted: (socket, first) => {
        admitted.push(first);
        socket.destroy();
      },
      refused: (r) => refused.push(r),
      keyWaitMs: 60_000,
    });
    const quiet: net.Socket[] = [];
    try {
      for (let i = 0; i < 8; i++) quiet.push((await quietConnection(path, 0)).socket);
      const ninth = await quietConnection(path, 1000);
      assert.equal(await ninth.outcome, 'closed', 'the ninth is not kept waiting');
      assert.ok(refused.includes('more than 8 connections waiting to present the key'), refused.join('\n'));
      assert.ok(
        quiet.every((s) => !s.destroyed),
        'the first eight are still waiting',
      );
      // One of them presents the key: it leaves the waiting ones, and a new one may wait.
      quiet[0]?.write(`${SECRET}\n${INITIALIZE}`);
      const t0 = Date.now();
      while (admitted.length === 0) {
        assert.ok(Date.now() - t0 < 3000, 'admitted');
        await new Promise((r) => setTimeout(r, 10));
      }
      const tenth = await quietConnection(path, 300);
      assert.equal(await tenth.outcome, 'open', 'a place was free again');
      tenth.socket.destroy();
    } finally {
      for (const s of quiet) s.destroy();
      await door.close();
    }
  });
});

/** A second local user, when this runs as root on Linux with useradd and setpriv; why not, otherwise. */
function secondUser(): { uid: number; gid: number } | string {
  if (process.platform !== 'linux') return 'needs Linux';
  if (process.getuid?.() !== 0) return 'needs root, to add a second local user and run a process as it';
  const name = 'mcpgwprobe';
  if (spawnSync('id', ['-u', name]).status !== 0) {
    const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name]);
    if (made.status !== 0) return `useradd failed: ${made.stderr.toString()}`;
  }
  if (spawnSync('setpriv', ['--version']).status !== 0) return 'needs setpriv';
  const uid = Number(spawnSync('id', ['-u', name]).stdout.toString());
  const gid = Number(spawnSync('id', ['-g', name]).stdout.toString());
  return { uid, gid };
}

const other = secondUser();

void describe(
  'the socket case with a second local user (issue 41, item 2, as the issue ran it)',
  { skip: typeof other === 'string' && other },
  () => {
    void it('the other user re-makes the directory open to all and listens at the next path: our gateway moves, and the relay gives them nothing', async () => {
      assert.ok(typeof other !== 'string');
      // A shared temporary directory, as /tmp is: anyone may make entries, only their owner remove them.
      const shared = mkdtempSync(join(tmpdir(), 'gwshared-'));
      chmodSync(shared, 0o1777);
      const home = new SocketHome({ info: () => undefined, warn: () => undefined, parent: shared });
      let stranger: ReturnType<typeof spawn> | undefined;
      try {
        const first = await home.nextPath();
        assert.ok(first);
        const dir = dirname(first);
        const nextPath = join(dir, '2.sock');
        // What a sweep that took a live window's directory left: the name free.
        rmSync(dir, { recursive: true, force: true });
        const script = `
        const fs = require('node:fs'), net = require('node:net');
        fs.mkdirSync(${JSON.stringify(dir)}); fs.chmodSync(${JSON.stringify(dir)}, 0o777);
        let got = '';
        net.createServer((s) => s.on('data', (d) => { got += d; process.stdout.write(JSON.stringify(String(d)) + '\\n'); if (got.includes('\\n')) s.end(); }))
          .listen(${JSON.stringify(nextPath)}, () => process.stdout.write('ready\\n'));`;
        stranger = spawn('setpriv', [`--reuid=${other.uid}`, `--regid=${other.gid}`, '--clear-groups', process.execPath, '-e', script], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        stranger.stdout?.on('data', (d: Buffer) => (out += d.toString()));
        stranger.stderr?.on('data', (d: Buffer) => (err += d.toString()));
        const t0 = Date.now();
        while (!out.includes('ready')) {
          assert.ok(Date.now() - t0 < 5000, `the other user's listener started (stderr: ${err})`);
          await new Promise((r) => setTimeout(r, 20));
        }
        assert.equal(statSync(dir).uid, other.uid, 'the directory is the other user’s now');

        const next = await home.nextPath();
        assert.ok(next);
        assert.notEqual(dirname(next), dir, 'our gateway does not listen in their directory');

        const { code, stderr } = await runRelay(nextPath);
        assert.equal(code, 1, stderr);
        assert.match(stderr, /refusing to send the gateway key .*belongs to another user \(uid \d+\)/);
        assert.equal(out.replace('ready\n', ''), '', 'the other user read nothing');
      } finally {
        stranger?.kill();
        await home.close();
        rmSync(shared, { recursive: true, force: true });
      }
    });
  },
);
