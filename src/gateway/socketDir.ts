/**
 * Where the gateway's sockets live: a directory only this user can open, under the system's
 * temporary directory (a socket's whole path must stay under about 100 bytes). Windows has no such
 * directory for pipes: their names are in `\\.\pipe\`, and only the key (and the door's cap on
 * connections that have not sent it, socketDoor.ts) guards them. No `vscode` import.
 *
 * Issue 41, item 2: the directory is checked before every listen (privateDir.ts) and replaced when
 * it is no longer the one we made; a live window's directory always holds a socket that answers
 * (its presence socket), so no window's sweep takes it for a crashed one's.
 */
import * as net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateDirProblem, type PathProblem } from './privateDir';

const PREFIX = 'mcp-gw-';
/** The socket that says "this window is alive" for as long as the directory is in use. */
const PRESENCE = 'live.sock';
/** A directory younger than this may be another window's, still opening its presence socket. */
const STALE_AFTER_MS = 60_000;

function ownUid(): number | undefined {
  return process.getuid?.();
}

/** One private directory: made by {@link SocketDir.make}, its presence socket listening until {@link close}. */
export class SocketDir {
  private sockets = 0;

  private constructor(
    readonly path: string,
    private readonly presence: net.Server,
  ) {}

  /** A fresh directory under `parent` (`mkdtemp` makes it 0700), with its presence socket listening. */
  static async make(parent = tmpdir()): Promise<SocketDir> {
    const path = mkdtempSync(join(parent, PREFIX));
    // Whoever connects is only told "alive" by the connection itself: it is closed at once.
    const presence = net.createServer((socket) => socket.destroy());
    try {
      await new Promise<void>((resolve, reject) => {
        presence.once('error', reject);
        presence.listen(join(path, PRESENCE), () => {
          presence.off('error', reject);
          resolve();
        });
      });
    } catch (e) {
      rmSync(path, { recursive: true, force: true });
      throw e;
    }
    presence.unref();
    return new SocketDir(path, presence);
  }

  /** Why this directory may no longer hold our sockets, or undefined while it is ours and private. */
  problem(): PathProblem | undefined {
    const uid = ownUid();
    return uid === undefined ? undefined : privateDirProblem(this.path, uid);
  }

  /** The path of the next endpoint's socket. */
  nextPath(): string {
    return join(this.path, `${++this.sockets}.sock`);
  }

  /** Stops the presence socket and removes the directory, only while it is still ours (a replaced one is another's). */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.presence.close(() => resolve()));
    if (!this.problem()) rmSync(this.path, { recursive: true, force: true });
  }
}

/** A fresh pipe name: Windows has no private directory for pipes. */
export function pipePath(): string {
  return `\\\\.\\pipe\\mcp-elicitation-gateway-${randomBytes(12).toString('hex')}`;
}

export interface SocketHomeDeps {
  readonly info: (message: string) => void;
  readonly warn: (message: string) => void;
  /** Where directories are made and swept; the system's temporary directory. */
  readonly parent?: string;
}

/**
 * The gateway's socket directory over an activation: made with the first socket, checked before
 * each one after, and made anew when the check fails (the old one is left to whoever has it).
 */
export class SocketHome {
  private dir: SocketDir | undefined;
  private swept = false;

  constructor(private readonly deps: SocketHomeDeps) {}

  /** A path for the next endpoint's socket, or undefined when no private directory can be made (the endpoints then serve VS Code over HTTP alone). */
  async nextPath(): Promise<string | undefined> {
    if (process.platform === 'win32') return pipePath();
    const problem = this.dir?.problem();
    if (this.dir && problem) {
      this.deps.warn(`gateway: the socket directory is no longer private (${problem.detail}); making a new one`);
      const old = this.dir;
      this.dir = undefined;
      await old.close().catch(() => undefined);
    }
    if (!this.dir) {
      try {
        this.dir = await SocketDir.make(this.deps.parent);
      } catch (e) {
        this.deps.warn(
          `gateway: no private directory for sockets (${e instanceof Error ? e.message : String(e)}); VS Code's agent uses HTTP`,
        );
        return undefined;
      }
      this.sweepOnce();
    }
    return this.dir.nextPath();
  }

  /** Once per activation, in the background: what crashed hosts left. */
  private sweepOnce(): void {
    if (this.swept) return;
    this.swept = true;
    void sweepStaleSocketDirs(this.deps.parent).then((gone) => {
      if (gone.length) this.deps.info(`gateway: removed ${gone.length} socket directories left by ended sessions`);
    });
  }

  async close(): Promise<void> {
    const dir = this.dir;
    this.dir = undefined;
    await dir?.close();
  }
}

/**
 * Removes the socket directories of extension hosts that ended without cleaning up (a crash, a
 * kill): ours (`mcp-gw-*`, real directories of this user, not links), older than a minute, where
 * no socket answers. A live window's directory always has one that does, its presence socket.
 * Nothing here is waited for.
 */
export async function sweepStaleSocketDirs(parent = tmpdir(), now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  if (process.platform === 'win32') return removed;
  const uid = ownUid();
  for (const name of await readdir(parent).catch(() => [] as string[])) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(parent, name);
    try {
      const info = await lstat(dir);
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
