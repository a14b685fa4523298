/**
 * Reads MCP server definitions in VS Code's `mcp.json` shape, from workspace files and from the
 * `mcpElicitation.servers` setting. Bad entries are reported and skipped so one typo never takes
 * the other servers down. Variables (`${...}`) are left as written; see `substitute.ts`.
 */
import { parseJsonc } from './jsonc';
import { collectInputIds, substitutableFields } from './substitute';
import type { ConfigError, InputDefinition, ServerDefinition, ServerSource } from './definitions';
import { isRecord, own } from './jsonValues';
import { fileReporter, type Report } from './report';
import { parseServers } from './serverEntry';
import { parseInputs } from './inputEntries';

/** The outcome of {@link parseMcpJson}. */
export interface McpJsonResult {
  readonly servers: ServerDefinition[];
  readonly inputs: InputDefinition[];
  readonly errors: ConfigError[];
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
