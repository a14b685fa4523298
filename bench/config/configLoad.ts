/**
 * Reading and resolving server configuration, in plain Node: the loader's pure pipeline as
 * src/config/configLoader.ts runs it on every load (read each file, parse it in its format, merge
 * by VS Code's precedence, substitute every variable), without the extension host around it.
 * Servers are spread over 4 folders and every source: each folder's `.vscode/mcp.json` and
 * `.mcp.json`, a `.code-workspace` file's `settings.mcp`, the profile's `mcp.json` and Copilot
 * Global. What the host adds (its file system API, input prompts) is not in these figures.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseMcpJson } from '../../src/config/parse/mcpJson';
import { mergeDefinitions } from '../../src/config/parse/mergeDefinitions';
import { parsePortableMcpJson } from '../../src/config/parse/portableJson';
import { substituteDefinition } from '../../src/config/parse/substitute';
import type { ServerDefinition, ServerSource } from '../../src/config/parse/definitions';

const FOLDERS = 4;

interface Spec {
  readonly file: string;
  readonly source: ServerSource;
  readonly portable: boolean;
  /** The `.code-workspace` file: servers under `settings.mcp`. */
  readonly workspaceFile?: boolean;
}

function serverEntry(i: number, portable: boolean): Record<string, unknown> {
  return i % 5 === 4
    ? { ...(portable ? {} : { type: 'http' }), url: `https://mcp${i}.example.com/mcp`, headers: { Authorization: 'Bearer ${env:HOME}' } }
    : {
        command: 'node',
        args: ['${workspaceFolder}/server.js', `--id=${i}`, '${userHome}/data'],
        env: { PATH: '${env:PATH}', NAME: `server-${i}` },
        ...(portable ? {} : { cwd: '${workspaceFolder}' }),
      };
}

/** Writes `servers` servers round-robin over every source; returns the files to read. */
export function writeWorkspace(root: string, servers: number): Spec[] {
  const specs: Spec[] = [];
  for (let f = 0; f < FOLDERS; f++) {
    const folder = path.join(root, `folder${f}`);
    mkdirSync(path.join(folder, '.vscode'), { recursive: true });
    const mcpJson = path.join(folder, '.vscode', 'mcp.json');
    const dotMcp = path.join(folder, '.mcp.json');
    specs.push({ file: mcpJson, source: { kind: 'workspaceFile', file: mcpJson, folder }, portable: false });
    specs.push({ file: dotMcp, source: { kind: 'workspaceFile', file: dotMcp, folder, format: 'portable' }, portable: true });
  }
  const ws = path.join(root, 'all.code-workspace');
  specs.push({
    file: ws,
    source: { kind: 'workspaceFile', file: ws, folder: path.join(root, 'folder0'), format: 'workspaceSettings' },
    portable: false,
    workspaceFile: true,
  });
  const profile = path.join(root, 'User', 'mcp.json');
  mkdirSync(path.dirname(profile), { recursive: true });
  specs.push({ file: profile, source: { kind: 'userFile', file: profile, origin: 'profile' }, portable: false });
  const copilot = path.join(root, '.copilot', 'mcp-config.json');
  mkdirSync(path.dirname(copilot), { recursive: true });
  specs.push({ file: copilot, source: { kind: 'userFile', file: copilot, origin: 'copilot' }, portable: true });
  const buckets: Record<string, unknown>[] = specs.map(() => ({}));
  for (let i = 0; i < servers; i++) {
    const k = i % specs.length;
    const bucket = buckets[k];
    if (bucket) bucket[`server-${i}`] = serverEntry(i, specs[k]?.portable === true);
  }
  specs.forEach((s, k) => {
    const servers = buckets[k] ?? {};
    const body = s.workspaceFile
      ? { folders: [], settings: { mcp: { servers } } }
      : s.portable
        ? { mcpServers: servers }
        : { servers, inputs: [] };
    writeFileSync(s.file, `// written by the benchmark\n${JSON.stringify(body, null, 2)}\n`);
  });
  return specs;
}

/** One load: read, parse, merge, substitute; returns the resolved servers and any error text. */
export async function loadOnce(specs: readonly Spec[], folders: Record<string, string>): Promise<{ resolved: number; errors: string[] }> {
  const texts = await Promise.all(specs.map((s) => readFile(s.file, 'utf8')));
  const defs: ServerDefinition[] = [];
  const errors: string[] = [];
  specs.forEach((s, i) => {
    let text = texts[i] ?? '';
    if (s.workspaceFile) {
      // The host hands the loader `settings.mcp` as a value (configuration API); it re-serialises it.
      const value = (JSON.parse(text.replace(/^\/\/.*\n/, '')) as { settings: { mcp: unknown } }).settings.mcp;
      text = JSON.stringify(value);
    }
    const r = s.portable ? parsePortableMcpJson(text, s.source) : parseMcpJson(text, s.source);
    defs.push(...r.servers);
    errors.push(...r.errors.map((e) => e.message));
  });
  const merged = mergeDefinitions(defs, []);
  let resolved = 0;
  for (const def of merged.servers) {
    // As the loader does: a user-level server's `${workspaceFolder}` is the first folder.
    const folder = def.source.kind === 'workspaceFile' ? def.source.folder : folders['folder0'];
    const sub = substituteDefinition(def, {
      ...(folder ? { workspaceFolder: folder } : {}),
      userHome: os.homedir(),
      env: process.env,
      pathSeparator: path.sep,
      inputs: {},
      folders,
      cwd: process.cwd(),
    });
    if (sub.ok) resolved++;
    else errors.push(sub.error.message);
  }
  return { resolved, errors };
}

export interface ConfigLoadFigure {
  readonly servers: number;
  /** Median of the runs, ms. */
  readonly medianMs: number;
  readonly runsMs: number[];
}

/** Median load time for each server count, after warm-up runs. */
export async function measureConfigLoad(counts: readonly number[], runs = 30, warmup = 5): Promise<ConfigLoadFigure[]> {
  const out: ConfigLoadFigure[] = [];
  for (const n of counts) {
    const root = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-bench-config-'));
    try {
      const specs = writeWorkspace(root, n);
      const folders = Object.fromEntries(Array.from({ length: FOLDERS }, (_, f) => [`folder${f}`, path.join(root, `folder${f}`)]));
      const first = await loadOnce(specs, folders);
      if (first.resolved !== n || first.errors.length) {
        throw new Error(`config bench: ${first.resolved} of ${n} servers resolved; errors: ${first.errors.slice(0, 3).join('; ')}`);
      }
      for (let i = 0; i < warmup; i++) await loadOnce(specs, folders);
      const runsMs: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        await loadOnce(specs, folders);
        runsMs.push(performance.now() - t0);
      }
      const sorted = [...runsMs].sort((a, b) => a - b);
      out.push({ servers: n, medianMs: sorted[Math.floor(sorted.length / 2)] ?? NaN, runsMs });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  return out;
}
