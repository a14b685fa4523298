/**
 * Reads MCP server definitions in VS Code's `mcp.json` shape, from workspace files and from the
 * `mcpElicitation.servers` setting. Bad entries are reported and skipped so one typo never takes
 * the other servers down. Variables (`${...}`) are left as written; see `substitute.ts`.
 */
import { parseJsonc, type JsoncPosition } from './jsonc';
import { collectInputIds, isHttpUrl, substitutableFields } from './substitute';
import { isWorkspaceDefined } from './trust';
import {
  EXTENSION_NAME_PREFIX,
  PROTOCOL_VERSION_CHOICES,
  sourceFile,
  type ConfigError,
  type InputDefinition,
  type ServerDefinition,
  type ServerSource,
} from './definitions';

/** The outcome of {@link parseMcpJson}. */
export interface McpJsonResult {
  readonly servers: ServerDefinition[];
  readonly inputs: InputDefinition[];
  readonly errors: ConfigError[];
}

export type Locate = (container: object, key: string | number) => JsoncPosition | undefined;
export type Report = (error: { server?: string; key?: string; message: string; at?: JsoncPosition | undefined }) => void;

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);

/** Collects a file's errors, each naming the file and, when known, its line and column. */
export function fileReporter(source: ServerSource): { errors: ConfigError[]; report: Report } {
  const file = sourceFile(source);
  const errors: ConfigError[] = [];
  const report: Report = ({ server, key, message, at }) =>
    errors.push({
      ...(file !== undefined && { file }),
      ...(server !== undefined && { server }),
      ...(key !== undefined && { key }),
      message,
      ...(at && { line: at.line, column: at.column }),
    });
  return { errors, report };
}

/**
 * Parses the text of an `mcp.json` file. Invalid JSONC yields a single error with its position;
 * otherwise every valid server and input is returned alongside errors for the rest.
 */
export function parseMcpJson(text: string, source: ServerSource): McpJsonResult {
  const { errors, report } = fileReporter(source);

  // A freshly created, still empty file is not worth an error.
  if (text.trim() === '') return { servers: [], inputs: [], errors };

  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    report({ message: `Invalid JSON at ${line}:${column}: ${message}`, at: parsed.error });
    return { servers: [], inputs: [], errors };
  }
  const root = parsed.value;
  if (!isRecord(root)) {
    report({ message: 'The file must contain a JSON object', at: { line: 1, column: 1 } });
    return { servers: [], inputs: [], errors };
  }

  const inputs = parseInputs(own(root, 'inputs'), root, parsed.positionOf, report);
  const declared = new Set(inputs.map((i) => i.id));
  const serversObject = own(root, 'servers');
  const servers = parseServers(serversObject, source, report, parsed.positionOf, root).filter((def) => {
    const missing = collectInputIds(def).filter((id) => !declared.has(id));
    for (const id of missing) {
      const key = substitutableFields(def).find(([, v]) => v.includes(`\${input:${id}}`))?.[0];
      report({
        server: def.name,
        ...(key !== undefined && { key }),
        message: `"\${input:${id}}" is used but no input with id "${id}" is declared in "inputs"`,
        at: isRecord(serversObject) ? parsed.positionOf(serversObject, def.name) : undefined,
      });
    }
    return missing.length === 0;
  });
  return { servers, inputs, errors };
}

/**
 * Parses the value of the `mcpElicitation.servers` setting (the same shape as `servers` in
 * mcp.json). Settings carry no positions, so errors name the server and key only.
 */
export function parseServersSetting(
  value: unknown,
  scope: 'user' | 'workspace' | 'workspaceFolder',
): { servers: ServerDefinition[]; errors: ConfigError[] } {
  const errors: ConfigError[] = [];
  const report: Report = ({ server, key, message }) =>
    errors.push({ ...(server !== undefined && { server }), ...(key !== undefined && { key }), message });
  const servers = parseServers(value, { kind: 'setting', scope }, report, () => undefined, undefined);
  return { servers, errors };
}

/**
 * Parses the value of the `mcpElicitation.inputs` setting (the same shape as `inputs` in
 * mcp.json): the inputs that servers in our setting reference.
 */
export function parseInputsSetting(value: unknown): { inputs: InputDefinition[]; errors: ConfigError[] } {
  const errors: ConfigError[] = [];
  const report: Report = ({ key, message }) => errors.push({ key: `mcpElicitation.${key ?? 'inputs'}`, message });
  return { inputs: parseInputs(value, {}, () => undefined, report), errors };
}

export function parseServers(
  value: unknown,
  source: ServerSource,
  report: Report,
  locate: Locate,
  parent: object | undefined,
): ServerDefinition[] {
  if (value === undefined) return [];
  if (!isRecord(value)) {
    report({
      key: 'servers',
      message: '"servers" must be an object mapping names to server definitions',
      at: parent && locate(parent, 'servers'),
    });
    return [];
  }
  const result: ServerDefinition[] = [];
  for (const [name, raw] of Object.entries(value)) {
    const def = parseServer(name, raw, source, report, locate, locate(value, name));
    if (def) result.push(def);
  }
  return result;
}

function parseServer(
  name: string,
  raw: unknown,
  source: ServerSource,
  report: Report,
  locate: Locate,
  entryAt: JsoncPosition | undefined,
): ServerDefinition | undefined {
  let failed = false;
  const fail = (key: string | undefined, message: string, container?: object, prop?: string | number): undefined => {
    failed = true;
    const at = (container && prop !== undefined && locate(container, prop)) || entryAt;
    report({ server: name, ...(key !== undefined && { key }), message, at });
    return undefined;
  };
  if (name.trim() === '') return fail(undefined, 'Server names must not be empty');
  if (name.toLowerCase().startsWith(EXTENSION_NAME_PREFIX)) {
    return fail(undefined, `Server names starting with "${EXTENSION_NAME_PREFIX}" are kept for extensions that use the API`);
  }
  if (!isRecord(raw)) return fail(undefined, 'A server definition must be an object');

  const optionalString = (key: string): string | undefined => {
    const v = own(raw, key);
    if (v === undefined || typeof v === 'string') return v;
    return fail(key, `"${key}" must be a string`, raw, key);
  };
  /**
   * `headers` take strings only; `env` also takes numbers (made strings) and `null` (removes the
   * variable), as VS Code's launcher does.
   */
  const valueMap = ((key: 'env' | 'headers'): Record<string, string | null> => {
    const v = own(raw, key);
    const out: Record<string, string | null> = {};
    if (v === undefined) return out;
    const expected = key === 'env' ? 'string, number or null values' : 'string values';
    if (!isRecord(v)) {
      fail(key, `"${key}" must be an object of ${expected}`, raw, key);
      return out;
    }
    for (const [k, item] of Object.entries(v)) {
      const value =
        typeof item === 'string'
          ? item
          : key === 'env' && typeof item === 'number' && Number.isFinite(item)
            ? String(item)
            : key === 'env' && item === null
              ? null
              : undefined;
      if (value !== undefined) Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
      else fail(`${key}.${k}`, `"${key}.${k}" must be a ${key === 'env' ? 'string, a number or null' : 'string'}`, v, k);
    }
    return out;
  }) as { (key: 'headers'): Record<string, string>; (key: 'env'): Record<string, string | null> };

  const rawVersion = own(raw, 'protocolVersion');
  const protocolVersion = PROTOCOL_VERSION_CHOICES.find((v) => v === rawVersion);
  if (rawVersion !== undefined && protocolVersion === undefined) {
    fail(
      'protocolVersion',
      `"protocolVersion" must be one of ${PROTOCOL_VERSION_CHOICES.map((v) => JSON.stringify(v)).join(', ')}`,
      raw,
      'protocolVersion',
    );
  }
  const version = protocolVersion !== undefined && protocolVersion !== 'auto' ? { protocolVersion } : {};
  const dev = parseDev(own(raw, 'dev'), (key, message) => fail(key, message, raw, 'dev'));
  const ignored = [...Object.keys(raw).filter((k) => !KNOWN_SERVER_KEYS.has(k)), ...dev.ignored];
  const extras = { ...version, ...(dev.watch.length > 0 && { devWatch: dev.watch }), ...(ignored.length > 0 && { ignoredKeys: ignored }) };

  const rawType = own(raw, 'type');
  let type: ServerDefinition['type'];
  if (rawType === undefined) {
    // VS Code infers the transport when `type` is left out: a `url` alone means a remote server.
    type = own(raw, 'url') !== undefined && own(raw, 'command') === undefined ? 'http' : 'stdio';
  } else if (rawType === 'stdio' || rawType === 'http' || rawType === 'sse') {
    type = rawType;
  } else {
    return fail('type', `Unknown server type ${JSON.stringify(rawType)}; expected "stdio", "http" or "sse"`, raw, 'type');
  }

  if (type === 'stdio') {
    const command = own(raw, 'command');
    if (typeof command !== 'string' || command.trim() === '') {
      fail('command', `"command" is required for stdio servers and must be a non-empty string`, raw, 'command');
    }
    const args = parseArgs(own(raw, 'args'), raw, fail);
    const env = valueMap('env');
    const envFile = optionalString('envFile');
    const cwd = optionalString('cwd');
    if (failed || typeof command !== 'string') return undefined;
    return {
      name,
      source,
      type,
      command,
      args,
      env,
      ...(envFile !== undefined && { envFile }),
      ...(cwd !== undefined && { cwd }),
      ...extras,
    };
  }

  const url = own(raw, 'url');
  if (typeof url !== 'string' || url.trim() === '') {
    fail('url', `"url" is required for ${type} servers and must be a non-empty string`, raw, 'url');
  } else if (!url.includes('${') && !isHttpUrl(url)) {
    // A url built from variables can only be checked once substituted; substitute.ts does that.
    fail('url', `"url" must be an http:// or https:// URL`, raw, 'url');
  }
  const headers = valueMap('headers');
  const clientId = optionalString('clientId');
  const clientMetadataUrl = optionalString('clientMetadataUrl');
  if (clientMetadataUrl !== undefined && !isClientMetadataUrl(clientMetadataUrl)) {
    // The spec's rule (and the SDK's): the document's URL is the client id, so it must be https with a path.
    fail('clientMetadataUrl', '"clientMetadataUrl" must be an https:// URL with a path', raw, 'clientMetadataUrl');
  }
  if (failed || typeof url !== 'string') return undefined;
  return {
    name,
    source,
    type,
    url,
    headers,
    ...(clientId !== undefined && { clientId }),
    ...(clientMetadataUrl !== undefined && { clientMetadataUrl }),
    ...extras,
  };
}

function isClientMetadataUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' && u.pathname !== '/';
  } catch {
    return false;
  }
}

function parseArgs(
  value: unknown,
  raw: Record<string, unknown>,
  fail: (key: string, message: string, container?: object, prop?: string | number) => undefined,
): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    fail('args', '"args" must be an array of strings', raw, 'args');
    return [];
  }
  const args: string[] = [];
  value.forEach((arg: unknown, i) => {
    if (typeof arg === 'string') args.push(arg);
    else fail(`args[${i}]`, `"args[${i}]" must be a string`, value, i);
  });
  return args;
}

/** Every key of a server entry VS Code defines and this extension acts on. */
const KNOWN_SERVER_KEYS = new Set([
  'type',
  'command',
  'args',
  'env',
  'envFile',
  'cwd',
  'url',
  'headers',
  'clientId',
  // Ours: a client ID metadata document (issue 25); VS Code's entries have no such key.
  'clientMetadataUrl',
  'dev',
  'protocolVersion',
]);

/** `dev`: `watch` (a glob or a list of them) restarts the server; `debug` is VS Code's alone. */
function parseDev(value: unknown, fail: (key: string, message: string) => void): { watch: string[]; ignored: string[] } {
  if (value === undefined) return { watch: [], ignored: [] };
  if (!isRecord(value)) {
    fail('dev', '"dev" must be an object');
    return { watch: [], ignored: [] };
  }
  const raw = own(value, 'watch');
  const list = raw === undefined ? [] : typeof raw === 'string' ? [raw] : raw;
  const watch: string[] = [];
  if (!Array.isArray(list) || list.some((g) => typeof g !== 'string' || g.trim() === '')) {
    fail('dev.watch', '"dev.watch" must be a glob or an array of globs');
  } else watch.push(...(list as string[]));
  return {
    watch,
    ignored: Object.keys(value)
      .filter((k) => k !== 'watch')
      .map((k) => `dev.${k}`),
  };
}

function parseInputs(value: unknown, root: object, locate: Locate, report: Report): InputDefinition[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    report({ key: 'inputs', message: '"inputs" must be an array', at: locate(root, 'inputs') });
    return [];
  }
  const inputs: InputDefinition[] = [];
  value.forEach((raw: unknown, i) => {
    const at = locate(value, i);
    const bad = (suffix: string, message: string) => report({ key: `inputs[${i}]${suffix}`, message, at });
    if (!isRecord(raw)) return bad('', 'An input must be an object');
    const id = own(raw, 'id');
    const type = own(raw, 'type');
    const description = own(raw, 'description');
    const password = own(raw, 'password');
    const dflt = own(raw, 'default');
    if (typeof id !== 'string' || id === '') return bad('.id', '"id" is required and must be a non-empty string');
    if (type !== 'promptString' && type !== 'pickString' && type !== 'command') {
      return bad('.type', `Input "${id}": unsupported type ${JSON.stringify(type)}; expected "promptString", "pickString" or "command"`);
    }
    if (description !== undefined && typeof description !== 'string') {
      return bad('.description', `Input "${id}": "description" must be a string`);
    }
    if (password !== undefined && typeof password !== 'boolean') return bad('.password', `Input "${id}": "password" must be true or false`);
    if (dflt !== undefined && typeof dflt !== 'string') return bad('.default', `Input "${id}": "default" must be a string`);
    if (inputs.some((x) => x.id === id)) return bad('.id', `Input "${id}" is declared more than once; the first declaration is used`);
    const base = { id, description: description ?? '', password: password ?? false, ...(dflt !== undefined && { default: dflt }) };
    if (type === 'pickString') {
      const rawOptions = own(raw, 'options');
      if (!Array.isArray(rawOptions) || rawOptions.length === 0) {
        return bad('.options', `Input "${id}": "options" must be a non-empty array`);
      }
      const options: { label: string; value: string }[] = [];
      for (const [j, o] of rawOptions.entries()) {
        // VS Code takes a string, or `{ label?, value }`.
        if (typeof o === 'string') options.push({ label: o, value: o });
        else if (isRecord(o) && typeof o['value'] === 'string' && (o['label'] === undefined || typeof o['label'] === 'string')) {
          options.push({ label: o['label'] ?? o['value'], value: o['value'] });
        } else return bad(`.options[${j}]`, `Input "${id}": each option must be a string or { "label"?, "value" } with string values`);
      }
      if (dflt !== undefined && !options.some((o) => o.value === dflt)) {
        return bad('.default', `Input "${id}": "default" must be one of the options`);
      }
      inputs.push({ ...base, type, options });
      return;
    }
    if (type === 'command') {
      const command = own(raw, 'command');
      if (typeof command !== 'string' || command === '') {
        return bad('.command', `Input "${id}": "command" is required and must be a command id`);
      }
      const args = own(raw, 'args');
      inputs.push({ ...base, type, command, ...(args !== undefined && { args }) });
      return;
    }
    inputs.push(base);
  });
  return inputs;
}

/**
 * A stable string that changes exactly when a restart is needed: the transport and launch
 * fields, in canonical JSON (sorted keys). `name` and the settings scope are left out, since
 * moving a server between scopes does not change what runs; a workspace file's folder is kept
 * because `${workspaceFolder}` resolves against it. Fingerprint the substituted definition to
 * also catch changed `${env:…}` or `${input:…}` values.
 */
export function fingerprint(def: ServerDefinition): string {
  const folder = def.source.kind === 'workspaceFile' ? def.source.folder : undefined;
  const fields =
    def.type === 'stdio'
      ? {
          type: def.type,
          command: def.command,
          args: def.args,
          env: def.env,
          envFile: def.envFile,
          cwd: def.cwd,
          folder,
          protocolVersion: def.protocolVersion,
        }
      : {
          type: def.type,
          url: def.url,
          headers: def.headers,
          clientId: def.clientId,
          clientMetadataUrl: def.clientMetadataUrl,
          folder,
          protocolVersion: def.protocolVersion,
        };
  return canonicalJson(fields);
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!isRecord(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      Object.defineProperty(sorted, k, { value: v[k], enumerable: true, writable: true, configurable: true });
    }
    return sorted;
  });
}

const SCOPE_RANK: Readonly<Record<'workspaceFolder' | 'workspace' | 'user', number>> = { workspaceFolder: 0, workspace: 1, user: 2 };

/** Human wording for a source, used in clash messages. */
export function describeSource(source: ServerSource): string {
  return source.kind === 'setting' ? `${source.scope} settings` : source.file;
}

/**
 * The name a workspace server gets when the user's own server has its name: `name (workspace)`,
 * then `name (workspace 2)`… `taken` compares names as {@link sameLabel} does.
 */
function workspaceName(name: string, taken: (n: string) => boolean): string {
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? `${name} (workspace)` : `${name} (workspace ${i})`;
    if (!taken(candidate)) return candidate;
  }
}

/**
 * The key two names clash under when one is the user's and one the workspace's: VS Code compares
 * server labels case-insensitively, and `GitHub` beside the user's `github` would read as theirs.
 */
function sameLabel(name: string): string {
  return name.toLowerCase();
}

/**
 * Combines every definition into one list with unique names. The user's own servers (the
 * `mcpElicitation.servers` user setting, the profile's `mcp.json`, Copilot Global, in that order;
 * among them the first of a name wins) keep their names: a workspace server of the same name
 * (compared case-insensitively, as VS Code compares labels) neither hides one nor takes over its
 * policy, inputs or attribution, all keyed by name; it is listed as `name (workspace)` instead.
 * VS Code would list both under their collections' labels and run the folder's first; here the
 * user's keeps the bare name and the workspace's carries its source in its name. Among the
 * workspace's definitions, files win over settings, the earlier folder wins among files, and the
 * more specific scope among settings (folder, then workspace), as VS Code does; the loser is left
 * out. Every clash is described in `clashes` so the caller can log it.
 */
export function mergeDefinitions(
  fileDefs: readonly ServerDefinition[],
  settingDefs: readonly ServerDefinition[],
): { servers: ServerDefinition[]; clashes: string[] } {
  const rank = (d: ServerDefinition) => (d.source.kind === 'setting' ? SCOPE_RANK[d.source.scope] : -1);
  const mine = (d: ServerDefinition): boolean => !isWorkspaceDefined(d.source);
  const user = [...settingDefs.filter(mine), ...fileDefs.filter(mine)];
  // Array.prototype.sort is stable, so definitions of equal rank keep their given order.
  const workspace = [...fileDefs.filter((d) => !mine(d)), ...settingDefs.filter((d) => !mine(d)).sort((a, b) => rank(a) - rank(b))];
  const winners = new Map<string, ServerDefinition>();
  /** The user's servers by {@link sameLabel}. */
  const users = new Map<string, ServerDefinition>();
  const clashes: string[] = [];
  const ignored = (def: ServerDefinition, why: string): void => {
    clashes.push(`Server "${def.name}" from ${describeSource(def.source)} is ignored: ${why}`);
  };
  for (const def of user) {
    const winner = winners.get(def.name);
    if (winner) ignored(def, `${describeSource(winner.source)} defines the same name`);
    else {
      winners.set(def.name, def);
      if (!users.has(sameLabel(def.name))) users.set(sameLabel(def.name), def);
    }
  }
  const renamed: { def: ServerDefinition; theirs: ServerDefinition }[] = [];
  for (const def of workspace) {
    const theirs = users.get(sameLabel(def.name));
    if (theirs) {
      // Renamed once every name written as such is placed; the first workspace definition of a name wins.
      if (!renamed.some((r) => r.def.name === def.name)) renamed.push({ def, theirs });
      else ignored(def, 'another workspace definition of this name comes first');
      continue;
    }
    const winner = winners.get(def.name);
    if (winner) ignored(def, `${describeSource(winner.source)} defines the same name`);
    else winners.set(def.name, def);
  }
  const taken = (n: string): boolean => [...winners.keys()].some((k) => sameLabel(k) === sameLabel(n));
  for (const { def, theirs } of renamed) {
    const name = workspaceName(def.name, taken);
    clashes.push(
      `Server "${def.name}" from ${describeSource(def.source)} is listed as "${name}": ${describeSource(theirs.source)}, yours, defines a server of the same name`,
    );
    winners.set(name, { ...def, name, writtenAs: def.name });
  }
  return { servers: [...winners.values()], clashes };
}

/** One line for logs and the Problems-style output: `file:line:col: server "x" (key): message`. */
export function formatConfigError(e: ConfigError): string {
  const where =
    e.file === undefined ? '' : `${e.file}${e.line === undefined ? '' : `:${e.line}${e.column === undefined ? '' : `:${e.column}`}`}: `;
  const what =
    e.server === undefined
      ? e.key === undefined
        ? ''
        : `${e.key}: `
      : `server "${e.server}"${e.key === undefined ? '' : ` (${e.key})`}: `;
  return `${where}${what}${e.message}`;
}
