/**
 * Give Back: moving one server definition from our setting into VS Code's `.vscode/mcp.json`, with
 * the `inputs` it references, as text edits that keep the file's comments and formatting. No `vscode`
 * import: the commands read and write, these functions decide what changes.
 */
import { applyEdits, modify, parse, type FormattingOptions } from 'jsonc-parser';
import type { ServerSource } from './definitions';

export type JsonObject = Record<string, unknown>;

const FORMAT: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };
const isRecord = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The ids of every `${input:id}` the value mentions, in order, once each. */
export function inputIdsIn(value: unknown): string[] {
  const ids = new Set<string>();
  for (const m of JSON.stringify(value ?? null).matchAll(/\$\{input:([^}]+)\}/g)) ids.add(m[1] as string);
  return [...ids];
}

function inputId(input: unknown): string | undefined {
  return isRecord(input) && typeof input['id'] === 'string' ? input['id'] : undefined;
}

/** Adds `name` (and the inputs it needs that the file lacks) to an mcp.json text, or a new file. */
export function putIntoMcpJson(text: string, name: string, server: JsonObject, inputs: readonly JsonObject[]): string {
  let out = text.trim() === '' ? '{\n  "servers": {}\n}\n' : text;
  out = applyEdits(out, modify(out, ['servers', name], server, { formattingOptions: FORMAT }));
  const root = parse(out) as unknown;
  const existing = isRecord(root) && Array.isArray(root['inputs']) ? (root['inputs'] as unknown[]) : undefined;
  const have = new Set((existing ?? []).map(inputId));
  const missing = inputs.filter((i) => !have.has(inputId(i)));
  if (!existing && missing.length) return applyEdits(out, modify(out, ['inputs'], missing, { formattingOptions: FORMAT }));
  for (const input of missing) {
    out = applyEdits(out, modify(out, ['inputs', -1], input, { formattingOptions: FORMAT, isArrayInsertion: true }));
  }
  return out;
}

/** Our setting's two values after a move in or out. */
export interface OurConfig {
  readonly servers: JsonObject;
  readonly inputs: readonly JsonObject[];
}

/** Removes a server, and the inputs only it referenced; returns what it took. */
export function removeFromOurs(cfg: OurConfig, name: string): { cfg: OurConfig; server: JsonObject; inputs: JsonObject[] } | undefined {
  const server = cfg.servers[name];
  if (!isRecord(server)) return undefined;
  const servers = Object.fromEntries(Object.entries(cfg.servers).filter(([n]) => n !== name));
  const wanted = new Set(inputIdsIn(server));
  const stillUsed = new Set(Object.values(servers).flatMap((s) => inputIdsIn(s)));
  const inputs = cfg.inputs.filter((i) => wanted.has(inputId(i) ?? ''));
  return {
    cfg: { servers, inputs: cfg.inputs.filter((i) => !(wanted.has(inputId(i) ?? '') && !stillUsed.has(inputId(i) ?? ''))) },
    server,
    inputs,
  };
}

/** Whether Give Back can move a server of ours into `.vscode/mcp.json`: only our workspace setting is moved. */
export function canGiveBackFrom(source: ServerSource): boolean {
  return source.kind === 'setting' && source.scope === 'workspace';
}
