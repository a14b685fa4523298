/**
 * How a stdio server is started, exactly as VS Code starts one it runs itself
 * (`extHostMcpNode.ts`, `startNodeMpc`), so that routing a server through us never changes what it
 * sees: the same environment, working directory and arguments. Pure (no `vscode`, no spawning), so
 * every platform's rules are unit-tested on any machine.
 *
 * - Environment: the whole environment of the extension host, then the `envFile` entries, then
 *   `env`. A `PATH` in `env` (any case) is appended to the PATH so far with the platform's
 *   delimiter instead of replacing it; `null` removes a variable; numbers arrive as strings (the
 *   parser converts them).
 * - Working directory: `cwd` with `~` expanded; a relative one is joined to the definition's
 *   folder, or to the home directory for a server that belongs to no folder; without `cwd`, that
 *   folder (or home).
 * - `~` is expanded in `command` and every argument.
 * - Windows `.bat`/`.cmd`: VS Code quotes each argument and runs them through the shell
 *   (CVE-2024-27980). The SDK spawns through `cross-spawn`, which detects those shims and escapes
 *   every argument for cmd.exe itself, so the arguments are passed through unquoted here: quoting
 *   them twice would hand the server literal quotes.
 */
import * as path from 'node:path';

export interface LaunchContext {
  /** The extension host's environment (`process.env`). */
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly home: string;
  /** The folder the definition belongs to; absent for a user-level server. */
  readonly folder?: string | undefined;
}

export interface StdioLaunchInput {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string | null>>;
  /** The entries read from `envFile`, in the file's order. */
  readonly envFileValues?: Readonly<Record<string, string>> | undefined;
  readonly cwd?: string | undefined;
}

export interface StdioLaunch {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

export function stdioLaunch(def: StdioLaunchInput, ctx: LaunchContext): StdioLaunch {
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  const env: Record<string, string | undefined> = { ...ctx.hostEnv };
  // Windows variable names are case-insensitive: `Path` from the host and `PATH` from a file are one variable.
  const keyFor = (name: string): string =>
    ctx.platform === 'win32' ? (Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase()) ?? name) : name;
  for (const [k, v] of Object.entries(def.envFileValues ?? {})) env[keyFor(k)] = v;
  for (const [k, v] of Object.entries(def.env)) {
    const key = keyFor(k);
    if (k.toUpperCase() === 'PATH' && v !== null) {
      const current = env[key];
      env[key] = current ? `${current}${p.delimiter}${v}` : v;
    } else if (v === null) {
      delete env[key];
    } else {
      env[key] = v;
    }
  }
  const defined: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) defined[k] = v;

  const base = ctx.folder ?? ctx.home;
  let cwd = def.cwd ? untildify(def.cwd, ctx.home) : base;
  if (!p.isAbsolute(cwd)) cwd = p.join(base, cwd);
  return { command: untildify(def.command, ctx.home), args: def.args.map((a) => untildify(a, ctx.home)), env: defined, cwd };
}

/** `~` alone or followed by a separator becomes the home directory (VS Code's `untildify`). */
export function untildify(value: string, home: string): string {
  return home ? value.replace(/^~($|\/|\\)/, `${home}$1`) : value;
}
