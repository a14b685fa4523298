/**
 * The portable MCP configuration other tools share, read where VS Code reads it: a folder's root
 * `.mcp.json` and Copilot Global's `mcp-config.json`. `{ "mcpServers": { name: entry } }`, or the
 * map alone at the top. An entry is `{ type?, command, args?, env?, cwd? }` or `{ type?, url,
 * headers? }`; `type` defaults to `stdio` when there is a `command`, else `http`. There are no
 * `inputs`, so an `${input:…}` reference is an error. Each entry then goes through the same checks
 * as an mcp.json server (`parseServer`), so both formats report problems the same way.
 */
import { parseJsonc } from './jsonc';
import { collectInputIds } from './substitute';
import { isRecord } from './jsonValues';
import { fileReporter } from './report';
import { parseServers } from './serverEntry';
import type { ConfigError, ServerDefinition, ServerSource } from './definitions';

/** Keys of `.vscode/mcp.json` that, at the top of a portable file, mean the wrong format was used. */
const MCP_JSON_KEYS = ['servers', 'inputs'];

export function parsePortableMcpJson(text: string, source: ServerSource): { servers: ServerDefinition[]; errors: ConfigError[] } {
  const { errors, report } = fileReporter(source);
  if (text.trim() === '') return { servers: [], errors };

  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    report({ message: `Invalid JSON at ${line}:${column}: ${message}`, at: parsed.error });
    return { servers: [], errors };
  }
  const root = parsed.value;
  if (!isRecord(root)) {
    report({
      message: `The file must contain a JSON object with "mcpServers", not ${Array.isArray(root) ? 'an array' : typeof root}`,
      at: { line: 1, column: 1 },
    });
    return { servers: [], errors };
  }
  let map: unknown = root;
  let parent: object | undefined;
  if (Object.hasOwn(root, 'mcpServers')) {
    map = root['mcpServers'];
    parent = root;
    if (!isRecord(map)) {
      report({
        key: 'mcpServers',
        message: '"mcpServers" must be an object mapping names to server definitions',
        at: parsed.positionOf(root, 'mcpServers'),
      });
      return { servers: [], errors };
    }
  } else {
    const foreign = MCP_JSON_KEYS.filter((k) => Object.hasOwn(root, k));
    const first = foreign[0];
    if (first !== undefined) {
      report({
        key: first,
        message: `This file uses the "mcpServers" format; ${foreign.map((k) => `"${k}"`).join(' and ')} belong in .vscode/mcp.json`,
        at: parsed.positionOf(root, first),
      });
      return { servers: [], errors };
    }
  }
  const entries = map as Record<string, unknown>;
  // Reject what the shared parser would silently settle: an entry with both a command and a url.
  const clean: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(entries)) {
    if (isRecord(entry) && entry['type'] === undefined && Object.hasOwn(entry, 'command') && Object.hasOwn(entry, 'url')) {
      report({
        server: name,
        key: 'url',
        message: 'A server has either "command" (a local process) or "url" (a remote server), not both',
        at: parsed.positionOf(entry, 'url'),
      });
      continue;
    }
    Object.defineProperty(clean, name, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  const servers = parseServers(clean, source, report, parsed.positionOf, parent).filter((def) => {
    const ids = collectInputIds(def);
    if (ids.length > 0) {
      report({
        server: def.name,
        message: `"\${input:${ids[0] ?? ''}}" cannot be used here: this format has no "inputs" (declare them in .vscode/mcp.json instead)`,
        at: parsed.positionOf(entries, def.name),
      });
    }
    return ids.length === 0;
  });
  return { servers, errors };
}
