/**
 * Moving one server definition between VS Code's `.vscode/mcp.json` and our setting, with the
 * `inputs` it references, as text edits that keep the file's comments and formatting. No `vscode`
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

export interface TakenServer {
  readonly server: JsonObject;
  /** The `inputs` entries the server references, as written. */
  readonly inputs: JsonObject[];
  /** The file without the server, and without inputs no remaining server references. */
  readonly text: string;
}

/** Takes `name` out of an mcp.json text; undefined if the file has no such server. */
export function takeFromMcpJson(text: string, name: string): TakenServer | undefined {
  const root = parse(text) as unknown;
  if (!isRecord(root) || !isRecord(root['servers'])) return undefined;
  const servers = root['servers'];
  const server = Object.hasOwn(servers, name) ? servers[name] : undefined;
  if (!isRecord(server)) return undefined;
  const wanted = new Set(inputIdsIn(server));
  const allInputs = Array.isArray(root['inputs']) ? (root['inputs'] as unknown[]) : [];
  const inputs = allInputs.filter((i): i is JsonObject => isRecord(i) && wanted.has(inputId(i) ?? ''));
  const stillUsed = new Set(
    Object.entries(servers)
      .filter(([n]) => n !== name)
      .flatMap(([, s]) => inputIdsIn(s)),
  );
  let out = applyEdits(text, modify(text, ['servers', name], undefined, { formattingOptions: FORMAT }));
  // From the end, so earlier indices stay valid.
  for (let i = allInputs.length - 1; i >= 0; i--) {
    const id = inputId(allInputs[i]);
    if (id && wanted.has(id) && !stillUsed.has(id)) {
      out = applyEdits(out, modify(out, ['inputs', i], undefined, { formattingOptions: FORMAT }));
    }
  }
  return { server, inputs, text: out };
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

/** Adds a server and the inputs it brings; an input id we already hold keeps our declaration. */
export function addToOurs(cfg: OurConfig, name: string, server: JsonObject, inputs: readonly JsonObject[]): OurConfig {
  const have = new Set(cfg.inputs.map(inputId));
  return { servers: { ...cfg.servers, [name]: server }, inputs: [...cfg.inputs, ...inputs.filter((i) => !have.has(inputId(i)))] };
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

/**
 * Whether Route can move a server VS Code runs from where it is defined: today only a folder's
 * `.vscode/mcp.json` is edited (not `.mcp.json`, a `.code-workspace` file or a user file). The
 * commands, the Servers view's menus and the palette's context key all ask this one question.
 */
export function canRouteFrom(source: ServerSource): boolean {
  return source.kind === 'workspaceFile' && source.format === undefined;
}

/** Whether Give Back can move a server of ours into `.vscode/mcp.json`: only our workspace setting is moved. */
export function canGiveBackFrom(source: ServerSource): boolean {
  return source.kind === 'setting' && source.scope === 'workspace';
}
