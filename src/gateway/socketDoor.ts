/**
 * The gateway's door for VS Code's stdio client: a Unix socket (a named pipe on Windows) that
 * the relay process VS Code runs for a server (stdioRelay.ts) connects to. A connection is one
 * agent session, as a stdio server's process is. No `vscode` import.
 *
 * Who may come in: on Unix the socket lives in a directory only this user can open
 * (socketDir.ts), checked again right before the door listens; on Windows a pipe's name is
 * reachable by any local process. Either way the first line must be the gateway's key, compared
 * in constant time, within {@link KEY_WAIT_MS}; anything else ends the connection before a byte of
 * it is parsed as MCP. At most {@link MAX_UNKEYED} connections may be waiting to present it at
 * once, so that on Windows a local process cannot hold the door open with connections that say
 * nothing (issue 41, item 6).
 */
import * as net from 'node:net';
import { dirname } from 'node:path';
import { MAX_MESSAGE_BYTES } from '../shared/messageLimit';
import { sameSecret } from './admission';
import { privateDirProblem } from './privateDir';

/**
 * How long a connection may take to present the key. The relay writes it in the same tick as it
 * connects, so anything slower is not the relay.
 */
export const KEY_WAIT_MS = 2_000;
/** Connections that have not presented the key yet, at once: VS Code starts one relay per session, a few at a time. */
export const MAX_UNKEYED = 8;
/** The key is 43 characters; a longer first line is not a key. */
const MAX_KEY_LINE = 256;

export interface SocketDoorDeps {
  readonly secret: string;
  /**
   * An admitted connection, paused, with its first message read. `rest` is every byte after the
   * key line, that message's line included: the session reads the connection from there.
   */
  readonly admitted: (socket: net.Socket, first: unknown, rest: Buffer) => void;
  readonly refused: (reason: string) => void;
  readonly keyWaitMs?: number;
  readonly maxUnkeyed?: number;
}

/** Why the door may not listen at `path`: its directory is not this user's private one (a pipe's name has none). */
function listenProblem(path: string): string | undefined {
  const uid = process.getuid?.();
  if (process.platform === 'win32' || uid === undefined) return undefined;
  return privateDirProblem(dirname(path), uid)?.detail;
}

export class SocketDoor {
  private constructor(
    private readonly server: net.Server,
    readonly path: string,
    private readonly connections: Set<net.Socket>,
  ) {}

  /** Listens at `path`, which must be in this user's private directory (checked here, at the last moment). */
  static async listen(path: string, deps: SocketDoorDeps): Promise<SocketDoor> {
    const problem = listenProblem(path);
    if (problem) throw new Error(`not a private directory: ${problem}`);
    const connections = new Set<net.Socket>();
    const unkeyed = new UnkeyedCount(deps.maxUnkeyed ?? MAX_UNKEYED);
    const server = net.createServer((socket) => {
      connections.add(socket);
      socket.once('close', () => connections.delete(socket));
      if (!unkeyed.enter()) {
        deps.refused(`more than ${unkeyed.max} connections waiting to present the key`);
        socket.destroy();
        return;
      }
      receive(socket, deps, () => unkeyed.leave());
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

/** How many connections are waiting to present the key, against a cap. */
export class UnkeyedCount {
  private waiting = 0;
  constructor(readonly max: number) {}
  /** Counts one more, or says no when `max` are waiting already. */
  enter(): boolean {
    if (this.waiting >= this.max) return false;
    this.waiting++;
    return true;
  }
  leave(): void {
    this.waiting--;
  }
  get count(): number {
    return this.waiting;
  }
}

/**
 * Reads the key line and then the first message's line, and hands the connection over. The key is
 * checked before the message is read, so a stranger's bytes are never kept beyond the key line.
 * `keyedOrGone` runs once, when the key was accepted or the connection ended without it.
 */
function receive(socket: net.Socket, deps: SocketDoorDeps, keyedOrGone: () => void): void {
  socket.setNoDelay(true);
  let buffered: Buffer = Buffer.alloc(0);
  let keyed = false;
  let counted = true;
  const uncount = (): void => {
    if (!counted) return;
    counted = false;
    keyedOrGone();
  };
  const timer = setTimeout(() => refuse('no key within the time allowed'), deps.keyWaitMs ?? KEY_WAIT_MS);
  const refuse = (reason: string): void => {
    stop();
    deps.refused(reason);
    socket.destroy();
  };
  const stop = (): void => {
    uncount();
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
      uncount();
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
