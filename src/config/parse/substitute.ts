/**
 * Resolves VS Code-style `${...}` variables in server definitions. A single pass: text that a
 * variable expands to is never scanned again, so an environment variable or input value that
 * happens to contain `${...}` cannot pull in other values.
 */
import { sourceFile, type ConfigError, type ServerDefinition } from './definitions';

/** What variables resolve against; built once per server start by the caller. */
export interface SubstitutionContext {
  /** The folder whose mcp.json (or folder setting) defined the server; absent with no workspace. */
  readonly workspaceFolder?: string;
  readonly userHome: string;
  /** The host's environment. On Windows (`pathSeparator` `\`) names match case-insensitively. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `/` or `\`; also what `${/}` expands to. */
  readonly pathSeparator: string;
  /** Values already obtained for declared inputs, by input id. */
  readonly inputs: Readonly<Record<string, string>>;
  /** Every open folder by name, for `${workspaceFolder:Name}` and its kin in a multi-root workspace. */
  readonly folders?: Readonly<Record<string, string>>;
  /** The extension host's working directory: what `${cwd}` is with no folder (VS Code's rule). */
  readonly cwd?: string;
  /** A setting's value for `${config:section.key}`, read for the definition's folder. */
  readonly config?: (key: string) => unknown;
  /** What each `${command:id}` returned, run beforehand by the caller (see {@link collectCommandIds}). */
  readonly commands?: Readonly<Record<string, string>>;
}

/** The outcome of substituting one string. */
export type SubstitutionResult = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly error: string };

// Same shape as VS Code's resolver: the shortest `${...}` run; a lone `${` with no `}` stays literal.
const VARIABLE = /\$\{([^}]*)\}/g;

/** Replaces every variable in `value`, or explains the first one that cannot be resolved. */
export function substituteVariables(value: string, ctx: SubstitutionContext): SubstitutionResult {
  let error: string | undefined;
  const out = value.replace(VARIABLE, (match, name: string) => {
    if (error !== undefined) return match;
    const resolved = resolveVariable(name, ctx);
    if (typeof resolved === 'string') return resolved;
    error = resolved.error;
    return match;
  });
  return error === undefined ? { ok: true, value: out } : { ok: false, error };
}

function resolveVariable(name: string, ctx: SubstitutionContext): string | { error: string } {
  switch (name) {
    case 'userHome':
      return ctx.userHome;
    case 'pathSeparator':
    case '/':
      return ctx.pathSeparator;
  }
  const colon = name.indexOf(':');
  const prefix = colon === -1 ? name : name.slice(0, colon);
  const arg = colon === -1 ? undefined : name.slice(colon + 1);
  switch (prefix) {
    case 'workspaceFolder':
    case 'workspaceRoot':
      return folderFor(name, arg, ctx);
    case 'workspaceFolderBasename':
    case 'workspaceRootFolderName': {
      const folder = folderFor(name, arg, ctx);
      return typeof folder === 'string' ? basename(folder) : folder;
    }
    case 'cwd':
      // VS Code: the folder when there is one (or one is named), else the host's working directory.
      if (arg === undefined && ctx.workspaceFolder === undefined) return ctx.cwd ?? { error: '${cwd} cannot be resolved here' };
      return folderFor(name, arg, ctx);
    case 'env':
      if (!arg) return { error: '${env:} needs a variable name' };
      // VS Code expands a missing environment variable to nothing rather than failing.
      return lookupEnv(arg, ctx) ?? '';
    case 'input':
      if (!arg) return { error: '${input:} needs an input id' };
      return Object.hasOwn(ctx.inputs, arg)
        ? (ctx.inputs[arg] ?? '')
        : { error: `\${input:${arg}} has no value: input "${arg}" is not declared in "inputs" or was not answered` };
    case 'config': {
      if (!arg) return { error: '${config:} needs a setting name' };
      const value = ctx.config?.(arg);
      if (value === undefined || value === null) return { error: `\${config:${arg}} cannot be resolved: the setting "${arg}" is not set` };
      if (typeof value === 'object') return { error: `\${config:${arg}} cannot be resolved: "${arg}" is a structured value, not text` };
      return asVariableText(value) ?? '';
    }
    case 'command':
      if (!arg) return { error: '${command:} needs a command id' };
      return ctx.commands && Object.hasOwn(ctx.commands, arg)
        ? (ctx.commands[arg] ?? '')
        : { error: `\${command:${arg}} has no value: the command did not run or returned nothing` };
  }
  return { error: `Unknown variable \${${name}}` };
}

/** The definition's folder, or the folder named after the colon (`${workspaceFolder:api}`). */
function folderFor(name: string, folderName: string | undefined, ctx: SubstitutionContext): string | { error: string } {
  if (folderName !== undefined) {
    const folder = ctx.folders && Object.hasOwn(ctx.folders, folderName) ? ctx.folders[folderName] : undefined;
    return folder ?? { error: `\${${name}} cannot be resolved: no open folder is named "${folderName}"` };
  }
  return ctx.workspaceFolder ?? { error: `\${${name}} cannot be resolved: no workspace folder is open` };
}

function lookupEnv(name: string, ctx: SubstitutionContext): string | undefined {
  if (Object.hasOwn(ctx.env, name)) return ctx.env[name];
  // Windows environment names are case-insensitive (`Path` vs `PATH`).
  if (ctx.pathSeparator === '\\') {
    const upper = name.toUpperCase();
    const key = Object.keys(ctx.env).find((k) => k.toUpperCase() === upper);
    return key === undefined ? undefined : ctx.env[key];
  }
  return undefined;
}

/** The last path segment, accepting either separator and ignoring trailing ones. */
function basename(path: string): string {
  const trimmed = path.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  return trimmed.slice(cut + 1);
}

/**
 * Every string of `def` that may contain variables, paired with the key used in errors:
 * `command`, `args[i]`, `env.NAME`, `envFile`, `cwd`, `url`, `headers.NAME`.
 */
export function substitutableFields(def: ServerDefinition): Array<[key: string, value: string]> {
  if (def.type !== 'stdio') {
    return [['url', def.url], ...Object.entries(def.headers).map(([k, v]): [string, string] => [`headers.${k}`, v])];
  }
  const fields: Array<[string, string]> = [['command', def.command]];
  def.args.forEach((a, i) => fields.push([`args[${i}]`, a]));
  for (const [k, v] of Object.entries(def.env)) if (v !== null) fields.push([`env.${k}`, v]);
  if (def.envFile !== undefined) fields.push(['envFile', def.envFile]);
  if (def.cwd !== undefined) fields.push(['cwd', def.cwd]);
  return fields;
}

/**
 * The ids of all `${input:…}` references in `def`, each once, in order of first use, so the
 * caller can prompt for exactly these before calling {@link substituteDefinition}.
 */
export function collectInputIds(def: ServerDefinition): string[] {
  return collectArguments(def, 'input:');
}

/** The arguments of every `${<prefix>…}` in `def`, each once, in order of first use. */
function collectArguments(def: ServerDefinition, prefix: 'input:' | 'command:'): string[] {
  const ids = new Set<string>();
  for (const [, value] of substitutableFields(def)) {
    for (const m of value.matchAll(VARIABLE)) {
      const name = m[1] ?? '';
      if (name.startsWith(prefix) && name.length > prefix.length) ids.add(name.slice(prefix.length));
    }
  }
  return [...ids];
}

/**
 * A command's result (or a setting) as the text a variable expands to: strings as they are,
 * numbers and booleans written out, objects as JSON; nothing for `undefined` and `null`.
 */
export function asVariableText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'object':
      return value === null ? undefined : JSON.stringify(value);
    default:
      return undefined;
  }
}

/** The ids of all `${command:…}` references in `def`, each once: the caller runs them before substituting. */
export function collectCommandIds(def: ServerDefinition): string[] {
  return collectArguments(def, 'command:');
}

/** The outcome of {@link substituteDefinition}. */
export type DefinitionSubstitution<D extends ServerDefinition> =
  { readonly ok: true; readonly def: D } | { readonly ok: false; readonly error: ConfigError };

/**
 * Resolves variables in every launch field of `def`. Environment and header *names* are left
 * alone: only values are user-facing templates. A `url` is checked again afterwards because
 * parsing could not validate one built from variables.
 */
export function substituteDefinition<D extends ServerDefinition>(def: D, ctx: SubstitutionContext): DefinitionSubstitution<D> {
  let error: ConfigError | undefined;
  const sub = (key: string, value: string): string => {
    if (error !== undefined) return value;
    const r = substituteVariables(value, ctx);
    if (r.ok) return r.value;
    error = errorFor(def, key, r.error);
    return value;
  };
  // `null` (an env variable to remove) has nothing to substitute and stays null.
  const subMap = <V extends string | null>(prefix: string, map: Readonly<Record<string, V>>): Record<string, V> => {
    const out: Record<string, V> = {};
    for (const [k, v] of Object.entries(map)) {
      Object.defineProperty(out, k, {
        value: v === null ? v : sub(`${prefix}.${k}`, v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };

  let result: ServerDefinition;
  if (def.type === 'stdio') {
    result = {
      ...def,
      command: sub('command', def.command),
      args: def.args.map((a, i) => sub(`args[${i}]`, a)),
      env: subMap('env', def.env),
      ...(def.envFile !== undefined && { envFile: sub('envFile', def.envFile) }),
      ...(def.cwd !== undefined && { cwd: sub('cwd', def.cwd) }),
    };
  } else {
    const url = sub('url', def.url);
    if (error === undefined && !isHttpUrl(url)) {
      // The resolved value is not echoed: it may carry a secret taken from an input.
      error = errorFor(def, 'url', '"url" must be an http:// or https:// URL after substitution');
    }
    result = { ...def, url, headers: subMap('headers', def.headers) };
  }
  // The spreads above keep D's own type and fields; only string values changed.
  return error === undefined ? { ok: true, def: result as D } : { ok: false, error };
}

function errorFor(def: ServerDefinition, key: string, message: string): ConfigError {
  const file = sourceFile(def.source);
  return { ...(file !== undefined && { file }), server: def.name, key, message };
}

/** True when `value` parses as an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
