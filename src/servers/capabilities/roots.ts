/**
 * The `roots` client capability: the workspace folders a server may work in, as VS Code's own
 * client offers them (`roots: { listChanged: true }`). One source answers both eras: a pushed
 * `roots/list` (2025-11-25) here, and a `roots/list` input request of an `input_required` round
 * (2026-07-28) in mrtr/inputRounds.ts. Pure: the folders come from a {@link RootsSource}, which
 * the host builds over `vscode.workspace` (servers/workspaceRoots.ts) and tests build over an array.
 */
import { posix, win32 } from 'node:path';
import { ProtocolError, type ListRootsResult } from '@modelcontextprotocol/client';
import { TokenBucket, type Clock } from '../../elicitation/policy/tokenBucket';
import type { Event, EventDisposable } from '../../util/emitter';

/** One root as it goes on the wire. */
export interface Root {
  readonly uri: string;
  readonly name?: string;
}

/** The folders each server may see, and when they change. */
export interface RootsSource {
  /** The roots `server` may see right now: none in an untrusted workspace, narrowed by its setting. */
  rootsFor(server: string): readonly Root[];
  /** The folders, the trust, or a server's narrowing changed (any server: each session re-reads its own). */
  readonly onDidChange: Event<void>;
}

/** A workspace folder as the source sees it. */
export interface Folder {
  readonly uri: string;
  readonly name: string;
  /** The folder's path on disk, when it has one (a `file:` folder): what the narrowing setting matches. */
  readonly fsPath?: string | undefined;
}

/**
 * The roots a server sees: every trusted folder, unless its entry in `mcpElicitation.serverRoots`
 * narrows them. An entry is a list of folder paths: a folder is kept when its path is listed; an
 * empty list (or anything that is not a list of strings) hides every folder. Not by name: a
 * `.code-workspace` file chooses its folders' names, so a workspace could call `~/.ssh` "docs" and
 * be shown to a server the user narrowed to "docs". Only `file:` folders are offered: the spec's
 * roots are file URIs, and a server could not open anything else.
 */
export function narrowRoots(
  folders: readonly Folder[],
  trusted: boolean,
  narrowing: unknown,
  caseInsensitive = process.platform === 'win32' || process.platform === 'darwin',
): Root[] {
  if (!trusted) return [];
  const files = folders.filter((f) => f.uri.startsWith('file:'));
  if (narrowing === undefined) return files.map(toRoot);
  if (!Array.isArray(narrowing)) return [];
  const wanted = narrowing.filter((n): n is string => typeof n === 'string' && isAbsolute(n));
  return files.filter((f) => f.fsPath !== undefined && wanted.some((w) => samePath(w, f.fsPath ?? '', caseInsensitive))).map(toRoot);
}

function toRoot(f: Folder): Root {
  return { uri: f.uri, name: f.name };
}

/** An absolute path on either platform: a name (or a relative path) names no folder. */
function isAbsolute(p: string): boolean {
  return posix.isAbsolute(p) || win32.isAbsolute(p);
}

/** Paths compared normalised and without a trailing separator, so `/a/b/` and `/a/./b` name the folder `/a/b`. */
function samePath(a: string, b: string, caseInsensitive: boolean): boolean {
  const norm = (p: string): string => {
    const n = (win32.isAbsolute(p) && !posix.isAbsolute(p) ? win32 : posix).normalize(p).replace(/[\\/]+$/, '');
    return caseInsensitive ? n.toLowerCase() : n;
  };
  return norm(a) === norm(b);
}

/** How many pushed `roots/list` a server may send: a burst of this many, refilled over the window. */
export const ROOTS_RATE = { requests: 20, perSeconds: 1 } as const;

/** The JSON-RPC error a flood gets: a server error code, with the reason in the message. */
export const ROOTS_RATE_LIMITED_CODE = -32000;

/** What one session needs to answer roots (the session's client satisfies `notifyChanged`). */
export interface RootsWiring {
  readonly server: string;
  readonly source: RootsSource;
  /** Sends `notifications/roots/list_changed`; the session skips it on a 2026-07-28 connection. */
  notifyChanged(): void;
  readonly clock?: Clock;
}

/**
 * One session's roots: answers `roots/list` within the rate limit and tells the server when its
 * roots changed. Dispose with the session, so a folder change after the launch ended sends nothing.
 */
export class SessionRoots implements EventDisposable {
  private readonly bucket: TokenBucket;
  private readonly sub: EventDisposable;
  private last: string;

  constructor(private readonly w: RootsWiring) {
    this.bucket = new TokenBucket(ROOTS_RATE.requests, ROOTS_RATE.perSeconds, w.clock ?? Date.now);
    this.last = JSON.stringify(w.source.rootsFor(w.server));
    // Only a change this server can see is announced: a folder it is narrowed away from is not news.
    this.sub = w.source.onDidChange(() => {
      const now = JSON.stringify(w.source.rootsFor(w.server));
      if (now === this.last) return;
      this.last = now;
      w.notifyChanged();
    });
  }

  /** The answer to a pushed `roots/list`; a flood gets a JSON-RPC error and nothing is shown. */
  list(): ListRootsResult {
    if (!this.bucket.tryTake()) {
      throw new ProtocolError(
        ROOTS_RATE_LIMITED_CODE,
        `roots/list rate limit exceeded: at most ${ROOTS_RATE.requests} per ${ROOTS_RATE.perSeconds} s; retry later`,
      );
    }
    return answerRoots(this.w.source, this.w.server);
  }

  dispose(): void {
    this.sub.dispose();
  }
}

/** The `ListRootsResult` for a server, pushed or in a round. */
export function answerRoots(source: RootsSource, server: string): ListRootsResult {
  return { roots: source.rootsFor(server).map((r) => ({ ...r })) };
}

/** A source with no folders: what a session gets when the host offers none (tests, the benchmark). */
export const NO_ROOTS: RootsSource = { rootsFor: () => [], onDidChange: () => ({ dispose: () => undefined }) };
