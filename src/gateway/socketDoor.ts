/**
 * The gateway's door for VS Code's stdio client: a Unix socket (a named pipe on Windows) that
 * the relay process VS Code runs for a server (stdioRelay.ts) connects to. A connection is one
 * agent session, as a stdio server's process is. No `vscode` import.
 *
 * Who may come in: on Unix the socket lives in a directory only this user can open
 * ({@link privateSocketDir}); on Windows a pipe's name is reachable by any local process. Either
 * way the first line must be the gateway's key, compared in constant time, within
 * {@link KEY_WAIT_MS}; anything else ends the connection before a byte of it is parsed as MCP.
 */
import * as net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_MESSAGE_BYTES } from '../shared/messageLimit';
import { sameSecret } from './admission';

/** How long a connection may take to present the key. The relay writes it as soon as it connects. */
export const KEY_WAIT_MS = 10_000;
/** The key is 43 characters; a longer first line is not a key. */
const MAX_KEY_LINE = 256;

/**
 * A directory for the gateway's sockets that only this user can open (`mkdtemp` makes it 0700),
 * under the system's temporary directory: a socket's whole path must stay under about 100 bytes.
 * Windows has no such directory for pipes: its names are in `\\.\pipe\`, and only the key guards them.
 */
export function privateSocketDir(): string | undefined {
  return process.platform === 'win32' ? undefined : mkdtempSync(join(tmpdir(), 'mcp-gw-'));
}

/** The path of one endpoint's socket: in `dir`, or a fresh pipe name on Windows. */
export function socketPath(dir: string | undefined, n: number): string {
  return dir === undefined ? `\\\\.\\pipe\\mcp-elicitation-gateway-${randomBytes(12).toString('hex')}` : join(dir, `${n}.sock`);
}

/** A directory younger than this may be another window's, still opening its first socket. */
const STALE_AFTER_MS = 60_000;

/**
 * Removes the socket directories of extension hosts that ended without cleaning up (a crash, a
 * kill): ours (`mcp-gw-*`, this user's), older than a minute, where no socket answers. Another
 * window's directory has a listening socket and is left alone. Nothing here is waited for.
 */
export async function sweepStaleSocketDirs(parent = tmpdir(), now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  if (process.platform === 'win32') return removed;
  const uid = process.getuid?.();
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (!name.startsWith('mcp-gw-')) continue;
    const dir = join(parent, name);
    try {
      const info = await stat(dir);
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || now - info.mtimeMs < STALE_AFTER_MS) continue;
      const sockets = (await readdir(dir)).filter((f) => f.endsWith('.sock'));
      const live = await Promise.all(sockets.map((f) => answers(join(dir, f))));
      if (live.some(Boolean)) continue;
      await rm(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // Gone meanwhile, or not ours to read: nothing to sweep.
    }
  }
  return removed;
}

/** Whether something listens on the socket at `path`. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(path);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Removes the directory and whatever sockets are left in it (Node unlinks a socket it closes). */
export function removeSocketDir(dir: string | undefined): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}

export interface SocketDoorDeps {
  readonly secret: string;
  /**
   * An admitted connection, paused, with its first message read. `rest` is every byte after the
   * key line, that message's line included: the session reads the connection from there.
   */
  readonly admitted: (socket: net.Socket, first: unknown, rest: Buffer) => void;
  readonly refused: (reason: string) => void;
  readonly keyWaitMs?: number;
}

export class SocketDoor {
  private constructor(
    private readonly server: net.Server,
    readonly path: string,
    private readonly connections: Set<net.Socket>,
  ) {}

  static async listen(path: string, deps: SocketDoorDeps): Promise<SocketDoor> {
    const connections = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      connections.add(socket);
      socket.once('close', () => connections.delete(socket));
      receive(socket, deps);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new SocketDoor(server, path, connections);
  }

  /**
   * Stops listening (the socket file goes with it) and ends every connection still open: the
   * endpoint ends its sessions first, so these are only connections not yet admitted or started.
   */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.connections) socket.destroy();
    });
  }
}

/**
 * Reads the key line and then the first message's line, and hands the connection over. The key is
 * checked before the message is read, so a stranger's bytes are never kept beyond the key line.
 */
function receive(socket: net.Socket, deps: SocketDoorDeps): void {
  socket.setNoDelay(true);
  let buffered: Buffer = Buffer.alloc(0);
  let keyed = false;
  const timer = setTimeout(() => refuse('no key within the time allowed'), deps.keyWaitMs ?? KEY_WAIT_MS);
  const refuse = (reason: string): void => {
    stop();
    deps.refused(reason);
    socket.destroy();
  };
  const stop = (): void => {
    clearTimeout(timer);
    socket.off('data', onData);
    socket.off('error', stop);
    socket.off('close', stop);
  };
  const onData = (chunk: Buffer): void => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
    if (!keyed) {
      const eol = buffered.indexOf(0x0a);
      if (eol < 0) {
        if (buffered.length > MAX_KEY_LINE) refuse('missing or wrong gateway key');
        return;
      }
      if (eol > MAX_KEY_LINE || !sameSecret(buffered.subarray(0, eol).toString('utf8').replace(/\r$/, ''), deps.secret)) {
        refuse('missing or wrong gateway key');
        return;
      }
      keyed = true;
      clearTimeout(timer);
      buffered = buffered.subarray(eol + 1);
    }
    const eol = buffered.indexOf(0x0a);
    if (eol < 0) {
      if (buffered.length > MAX_MESSAGE_BYTES) refuse('first message too large');
      return;
    }
    stop();
    socket.pause();
    // From here the session's transport reports errors; until it starts, and after it closes, this
    // keeps a reset connection from being an unhandled 'error', which would end the extension host.
    socket.on('error', () => undefined);
    let first: unknown;
    try {
      first = JSON.parse(buffered.subarray(0, eol).toString('utf8')) as unknown;
    } catch {
      first = undefined;
    }
    deps.admitted(socket, first, buffered);
  };
  socket.on('data', onData);
  // Gone before it was admitted: nothing to refuse, nothing to log.
  socket.on('error', stop);
  socket.on('close', stop);
}
