/**
 * Whether a gateway socket is this user's: the checks the gateway makes before it listens and the
 * relay (stdioRelay.ts) makes before it writes the key. Node's `fs` alone, since the relay loads it.
 *
 * Why both sides check (issue 41, item 2): a directory of the shared temporary directory is only
 * private while it is the one we made. Were it removed (by us: a sweep that took a live window's
 * directory for a crashed one's), another local user could make one of that name, open to all,
 * and listen at the path the relay is given: the relay would hand them the key. `lstat`, so that a
 * symbolic link planted at the name is seen as a link, not as the directory it points to.
 */
import { lstatSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/** What is wrong with a socket's path: nothing there (the gateway is gone), or something that is not ours. */
export type PathProblem = { readonly kind: 'missing'; readonly detail: string } | { readonly kind: 'foreign'; readonly detail: string };

function lstatOf(path: string): Stats | PathProblem {
  try {
    return lstatSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR'
      ? { kind: 'missing', detail: `${path} does not exist` }
      : { kind: 'foreign', detail: `${path} cannot be examined (${code ?? String(e)})` };
  }
}

/** Why `dir` is not a private directory of the user `uid` (a directory, not a link, theirs, mode 0700), or undefined. */
export function privateDirProblem(dir: string, uid: number): PathProblem | undefined {
  const info = lstatOf(dir);
  if ('kind' in info) return info;
  if (info.isSymbolicLink()) return { kind: 'foreign', detail: `${dir} is a symbolic link` };
  if (!info.isDirectory()) return { kind: 'foreign', detail: `${dir} is not a directory` };
  if (info.uid !== uid) return { kind: 'foreign', detail: `${dir} belongs to another user (uid ${info.uid})` };
  const mode = info.mode & 0o777;
  if (mode !== 0o700) return { kind: 'foreign', detail: `${dir} is open to others (mode ${mode.toString(8).padStart(4, '0')}, not 0700)` };
  return undefined;
}

/**
 * Why the socket at `path` may not be given the key of the user `uid`, or undefined: its
 * directory must be private to them, and the socket theirs (a socket, not a link).
 */
export function gatewaySocketProblem(path: string, uid: number): PathProblem | undefined {
  const dir = privateDirProblem(dirname(path), uid);
  if (dir) return dir;
  const info = lstatOf(path);
  if ('kind' in info) return info;
  if (!info.isSocket()) return { kind: 'foreign', detail: `${path} is not a socket` };
  if (info.uid !== uid) return { kind: 'foreign', detail: `${path} belongs to another user (uid ${info.uid})` };
  return undefined;
}
