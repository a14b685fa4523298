/**
 * One entry of `servers` (mcp.json, or the `mcpElicitation.servers` setting) read into a
 * {@link ServerDefinition}: the transport, its launch or URL fields, `dev` and `protocolVersion`.
 * A bad entry is reported and skipped; keys VS Code defines but we do not act on are listed.
 */
import type { JsoncPosition } from './jsonc';
import { isHttpUrl } from './substitute';
import { EXTENSION_NAME_PREFIX, PROTOCOL_VERSION_CHOICES, type ServerDefinition, type ServerSource } from './definitions';
import { isRecord, own } from './jsonValues';
import type { Locate, Report } from './report';

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
