/**
 * Which extension called the public API, best effort. Every extension receives the same API
 * object, and VS Code does not say who calls it, so the caller is read from the call stack: the
 * first frame, outside the API's own module, whose code is the file it names inside an installed
 * extension. No `vscode` import: the caller passes the list of extensions.
 *
 * Why best effort: extensions share one extension host, one process and one JavaScript realm.
 * Any of them can load another's files and call its functions, or replace the globals this reads
 * (`Error.captureStackTrace`, the `crypto` module) before our code runs; VS Code offers no
 * identity of the caller that such code could not fake. What this does close are the cheap
 * borrowings: a `vm` script, `eval` or `new Function` given another extension's file name (or a
 * `//# sourceURL`) is not that extension's code, and its frames are passed over.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

/** An installed extension, as `vscode.extensions.all` lists it. */
export interface InstalledExtension {
  readonly id: string;
  /** Absolute folder of the extension on disk. */
  readonly folder: string;
}

/** One frame of the call stack: the file its script names, and V8's SHA-256 of that script's source. */
export interface StackFrame {
  readonly file: string;
  /** Undefined where the runtime does not tell (`CallSite.getScriptHash` arrived with V8 11). */
  readonly scriptHash?: string | undefined;
}

type CallSiteWithHash = NodeJS.CallSite & { getScriptHash?: () => string };

/** The frames of the current call stack, innermost first, without the frames of `callStackFrames` itself. */
export function callStackFrames(): StackFrame[] {
  // The host installs its own formatter; it is put back untouched.
  const savedPrepare: unknown = Reflect.get(Error, 'prepareStackTrace');
  const savedLimit = Error.stackTraceLimit;
  try {
    // Structured call sites rather than the formatted text, which the host may rewrite.
    Error.stackTraceLimit = 50;
    Error.prepareStackTrace = (_err, sites) => sites;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, callStackFrames);
    const sites = holder.stack as CallSiteWithHash[] | undefined;
    return (sites ?? []).flatMap((s): StackFrame[] => {
      // Not `getScriptNameOrSourceURL`: a `//# sourceURL=` comment names any file it likes. Eval'd
      // code has no file of its own; it is its caller's code only in the sense that its caller ran it.
      if (s.isEval()) return [];
      const file = fileOf(s.getFileName() ?? '');
      if (file === '') return [];
      return [{ file, scriptHash: typeof s.getScriptHash === 'function' ? s.getScriptHash() : undefined }];
    });
  } finally {
    Reflect.set(Error, 'prepareStackTrace', savedPrepare);
    Error.stackTraceLimit = savedLimit;
  }
}

function fileOf(name: string): string {
  if (name.startsWith('file:')) {
    try {
      return fileURLToPath(name);
    } catch {
      return '';
    }
  }
  return path.isAbsolute(name) ? name : '';
}

/** File content hashes by path, with the size and time they were read at: a changed file is read again. */
const contentHashes = new Map<string, { readonly stamp: string; readonly hashes: readonly string[] }>();

/**
 * Whether the frame's script is the file it names, as Node loaded it: V8 hashes a script's source,
 * and a module's source is its file (CommonJS without a leading BOM, which Node strips). A `vm`
 * script given another extension's file name has other source, so another hash.
 */
export function isFileCode(frame: StackFrame): boolean {
  if (frame.scriptHash === undefined) return false;
  try {
    const st = statSync(frame.file);
    const stamp = `${st.size}:${st.mtimeMs}`;
    let known = contentHashes.get(frame.file);
    if (known?.stamp !== stamp) {
      const bytes = readFileSync(frame.file);
      const text = bytes.toString('utf8');
      const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');
      known = { stamp, hashes: text.charCodeAt(0) === 0xfeff ? [sha(bytes), sha(text.slice(1))] : [sha(bytes)] };
      contentHashes.set(frame.file, known);
    }
    return known.hashes.includes(frame.scriptHash);
  } catch {
    return false;
  }
}

/** Whether `file` lies in `folder`, on a path-segment boundary. */
function within(file: string, folder: string, caseInsensitive: boolean): boolean {
  const norm = (p: string): string => {
    const n = path.resolve(p);
    return caseInsensitive ? n.toLowerCase() : n;
  };
  const f = norm(file);
  const d = norm(folder).replace(/[\\/]+$/, '');
  return f.startsWith(d + path.sep);
}

export interface CallerOptions {
  readonly caseInsensitive?: boolean;
  /** Whether a frame's code is the file it names; {@link isFileCode} unless a test says otherwise. */
  readonly genuine?: (frame: StackFrame) => boolean;
}

/**
 * The extension that made the call: the first frame in `frames` (innermost first) that is not in
 * one of `own`, lies inside an extension's folder, and whose code is that file's; the deepest
 * folder wins when extensions nest. A frame whose code is not its file's (a `vm` script named
 * after another extension's file) is passed over, so the extension that ran it, further out, is
 * the caller. Undefined when no such frame is on the stack (a call from a timer or a bound
 * function handed to the host, for example): such a call is not attributed to anyone.
 */
export function callingExtension(
  frames: readonly StackFrame[],
  own: readonly string[],
  extensions: readonly InstalledExtension[],
  options: CallerOptions = {},
): InstalledExtension | undefined {
  const caseInsensitive = options.caseInsensitive ?? (process.platform === 'win32' || process.platform === 'darwin');
  const genuine = options.genuine ?? isFileCode;
  const same = (a: string, b: string): boolean => (caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b);
  for (const frame of frames) {
    if (own.some((o) => same(path.resolve(o), path.resolve(frame.file)))) continue;
    const owners = extensions.filter((e) => within(frame.file, e.folder, caseInsensitive));
    if (owners.length === 0 || !genuine(frame)) continue;
    return owners.reduce((a, b) => (b.folder.length > a.folder.length ? b : a));
  }
  return undefined;
}
