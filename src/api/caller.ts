/**
 * Which extension called the public API. Every extension receives the same API object, and VS Code
 * does not say who calls it, so the caller is read from the call stack: the first frame, outside
 * the API's own module, whose file lies inside an installed extension. An extension cannot claim
 * another's identity (or a configured server's name) through an argument this way. No `vscode`
 * import: the caller passes the list of extensions.
 */
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

/** An installed extension, as `vscode.extensions.all` lists it. */
export interface InstalledExtension {
  readonly id: string;
  /** Absolute folder of the extension on disk. */
  readonly folder: string;
}

/** The files of the current call stack, innermost first, without the frames of `callStackFiles` itself. */
export function callStackFiles(): string[] {
  // The host installs its own formatter; it is put back untouched.
  const savedPrepare: unknown = Reflect.get(Error, 'prepareStackTrace');
  const savedLimit = Error.stackTraceLimit;
  try {
    // Structured call sites rather than the formatted text, which the host may rewrite.
    Error.stackTraceLimit = 50;
    Error.prepareStackTrace = (_err, sites) => sites;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, callStackFiles);
    const sites = holder.stack as NodeJS.CallSite[] | undefined;
    return (sites ?? []).map((s) => fileOf(s.getFileName() ?? s.getScriptNameOrSourceURL() ?? '')).filter((f) => f !== '');
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

/**
 * The extension that made the call: the first file in `files` (innermost first) that is not one
 * of `own` and lies inside an extension's folder; the deepest folder wins when extensions nest.
 * Undefined when no frame belongs to an extension (a call from a timer or a bound function
 * handed to the host, for example): such a call is not attributed to anyone.
 */
export function callingExtension(
  files: readonly string[],
  own: readonly string[],
  extensions: readonly InstalledExtension[],
  caseInsensitive = process.platform === 'win32' || process.platform === 'darwin',
): InstalledExtension | undefined {
  const same = (a: string, b: string): boolean => (caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b);
  for (const file of files) {
    if (own.some((o) => same(path.resolve(o), path.resolve(file)))) continue;
    const owners = extensions.filter((e) => within(file, e.folder, caseInsensitive));
    if (owners.length === 0) continue;
    return owners.reduce((a, b) => (b.folder.length > a.folder.length ? b : a));
  }
  return undefined;
}
