/**
 * The layering rules of the source tree, checked on the real import graph: no import cycles (type
 * imports included: a type-only cycle still hides which layer is lower), pure modules free of
 * `vscode`, the webview reaching only `src/shared/`, the folders of src/ stacking one way (no loop
 * between folders, no arrow back up), and the elicitation folders depending one way.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const root = path.resolve(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = path.posix.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

// Static imports and re-exports (`import … from`, `export … from`, `import '…'`) and dynamic `import('…')`.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every module specifier a file imports, as written. */
export function importsOf(text: string): string[] {
  // Comments may quote import statements; they are not imports.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return [...code.matchAll(IMPORT)].map((m) => (m[1] ?? m[2]) as string);
}

/** Repo-relative path of a relative import, or undefined for a package. */
function resolve(from: string, spec: string, files: ReadonlySet<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.(js|ts)$/, '');
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) if (files.has(candidate)) return candidate;
  return `${base}.ts`;
}

type Graph = ReadonlyMap<string, readonly string[]>;

/** Each cycle once, as the path of modules that closes on itself. */
export function findCycles(graph: Graph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === 'open') cycles.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n);
  return cycles;
}

const files = [...sourceFiles('src'), ...sourceFiles('webview')];
const fileSet = new Set(files);
const imports = new Map(files.map((f) => [f, importsOf(readFileSync(path.join(root, f), 'utf8'))]));
const graph: Graph = new Map(files.map((f) => [f, (imports.get(f) ?? []).flatMap((s) => resolve(f, s, fileSet) ?? [])]));

/**
 * The folders of src/ from the top down (README, "Architecture"): a module may import its own
 * folder and any folder of a lower rank, never one of the same rank or higher. Folders of one
 * rank are siblings and do not import each other.
 */
const FOLDER_RANK: Readonly<Record<string, number>> = {
  'extension.ts': 9,
  // What activation does with the services, for the extension's entry and the test build's.
  'boot.ts': 8.5,
  commands: 8,
  'context.ts': 7,
  ui: 6,
  api: 6,
  audit: 6,
  gateway: 5,
  servers: 4,
  // Sampling reuses the elicitation broker's policy, queue and presenter; sessions hand it samples.
  sampling: 3.5,
  elicitation: 3,
  config: 2,
  // util/ sits on shared/: the UI helpers and the log's redaction take the neutraliser and the
  // secret-name rule from there, the same ones the form code uses.
  util: 1,
  shared: 0,
};

/** `ui` for src/ui/…, `context.ts` for src/context.ts; undefined outside src/. */
export function folderOf(file: string): string | undefined {
  const parts = file.split('/');
  return parts[0] === 'src' ? parts[1] : undefined;
}

/** Each import that crosses from one folder of src/ to another, as `from → to` folder pairs with the file. */
export function folderArrows(g: Graph): { from: string; to: string; file: string; dep: string }[] {
  return [...g].flatMap(([file, deps]) => {
    const from = folderOf(file);
    if (from === undefined) return [];
    return deps.flatMap((dep) => {
      const to = folderOf(dep);
      return to === undefined || to === from ? [] : [{ from, to, file, dep }];
    });
  });
}

/**
 * Whether a file makes events with VS Code's emitter (`vscode.EventEmitter`, or `EventEmitter`
 * imported from 'vscode'), comments aside.
 */
export function usesVscodeEmitter(text: string): boolean {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  return /\bvscode\.EventEmitter\b/.test(code) || /import\s*\{[^}]*\bEventEmitter\b[^}]*\}\s*from\s*['"]vscode['"]/.test(code);
}

/**
 * Where `vscode.EventEmitter` may still be made: ui/, whose tree views hand `onDidChangeTreeData`
 * straight to VS Code. Everything else fires through util/emitter.ts, so the pure core and the VS
 * Code side subscribe the same way (every listener runs even if one throws).
 */
const VSCODE_EMITTER_ALLOWED = [/^src\/ui\//];

/** Modules that must run in plain Node (the same list the lint rule enforces). */
const PURE = [
  /^src\/elicitation\//,
  /^src\/config\/parse\//,
  /^src\/shared\//,
  /^webview\//,
  /^src\/servers\/(connection|connectionDeps|session|sessionDeps|sessionRequests)\.ts$/,
  /^src\/servers\/auth\/signedInLaunch\.ts$/,
];

void describe('architecture', () => {
  void it('the cycle finder finds a cycle, including a self-import, and passes a tree', () => {
    assert.deepEqual(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
        ]),
      ),
      [['a', 'b', 'c', 'a']],
    );
    assert.deepEqual(findCycles(new Map([['a', ['a']]])), [['a', 'a']]);
    assert.deepEqual(
      findCycles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
      [],
    );
  });

  void it('the import reader sees type imports, re-exports and dynamic imports, not comments', () => {
    const text =
      "import type { A } from './a';\nexport { B } from \"./b\";\nimport './c';\nconst d = import('./d');\n// import { E } from './e';\n/* import { F } from './f'; */";
    assert.deepEqual(importsOf(text), ['./a', './b', './c', './d']);
  });

  void it('reads the real tree', () => {
    assert.ok(files.length > 50, `only ${files.length} files found`);
    assert.ok((graph.get('src/extension.ts') ?? []).includes('src/context.ts'));
  });

  void it('has no import cycles in src/ and webview/', () => {
    assert.deepEqual(
      findCycles(graph).map((c) => c.join(' → ')),
      [],
    );
  });

  void it('every relative import resolves to a file', () => {
    const missing = [...graph].flatMap(([f, deps]) =>
      deps.filter((d) => !fileSet.has(d) && !d.startsWith('api/')).map((d) => `${f} → ${d}`),
    );
    assert.deepEqual(missing, []);
  });

  void it('pure modules do not import vscode', () => {
    const offenders = files.filter((f) => PURE.some((p) => p.test(f)) && (imports.get(f) ?? []).includes('vscode'));
    assert.deepEqual(offenders, []);
  });

  void it('the emitter check sees vscode.EventEmitter and an imported EventEmitter, not comments or util/emitter', () => {
    assert.equal(usesVscodeEmitter('readonly e = new vscode.EventEmitter<void>();'), true);
    assert.equal(usesVscodeEmitter("import { Disposable, EventEmitter } from 'vscode';"), true);
    assert.equal(usesVscodeEmitter('// unlike vscode.EventEmitter, every listener runs\n/* vscode.EventEmitter */'), false);
    assert.equal(usesVscodeEmitter("import { Emitter } from '../util/emitter';\nnew Emitter<void>();"), false);
  });

  void it('events outside ui/ fire through util/emitter.ts, not vscode.EventEmitter', () => {
    const offenders = files.filter(
      (f) =>
        f.startsWith('src/') &&
        !VSCODE_EMITTER_ALLOWED.some((p) => p.test(f)) &&
        usesVscodeEmitter(readFileSync(path.join(root, f), 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  void it('the webview imports only itself and src/shared/', () => {
    const offenders = [...graph]
      .filter(([f]) => f.startsWith('webview/'))
      .flatMap(([f, deps]) => deps.filter((d) => !d.startsWith('webview/') && !d.startsWith('src/shared/')).map((d) => `${f} → ${d}`));
    assert.deepEqual(offenders, []);
  });

  void it('the folder check finds a loop between folders and an arrow back up', () => {
    const g: Graph = new Map([
      ['src/ui/a.ts', ['src/gateway/b.ts']],
      ['src/gateway/b.ts', ['src/ui/c.ts']],
    ]);
    const arrows = folderArrows(g).map((a) => `${a.from} → ${a.to}`);
    assert.deepEqual(arrows, ['ui → gateway', 'gateway → ui']);
    const folderGraph = new Map([
      ['ui', ['gateway']],
      ['gateway', ['ui']],
    ]);
    assert.deepEqual(findCycles(folderGraph), [['gateway', 'ui', 'gateway']]);
    assert.deepEqual(
      folderArrows(g)
        .filter((a) => (FOLDER_RANK[a.to] ?? 0) >= (FOLDER_RANK[a.from] ?? 0))
        .map((a) => `${a.file} → ${a.dep}`),
      ['src/gateway/b.ts → src/ui/c.ts'],
    );
  });

  void it('the folders of src/ (gateway/ included) have no loop and no arrow back up', () => {
    const arrows = folderArrows(graph);
    const unranked = [...new Set(arrows.flatMap((a) => [a.from, a.to]))].filter((f) => FOLDER_RANK[f] === undefined);
    assert.deepEqual(unranked, [], 'every folder of src/ has a rank');
    const folderGraph = new Map<string, string[]>();
    for (const a of arrows) folderGraph.set(a.from, [...new Set([...(folderGraph.get(a.from) ?? []), a.to])]);
    assert.deepEqual(
      findCycles(folderGraph).map((c) => c.join(' → ')),
      [],
    );
    const upward = arrows.filter((a) => (FOLDER_RANK[a.to] ?? 0) >= (FOLDER_RANK[a.from] ?? 0)).map((a) => `${a.file} → ${a.dep}`);
    assert.deepEqual(upward, []);
  });

  void it('elicitation layers depend one way: safety → form → queue/policy → broker', () => {
    const rank = (f: string): number | undefined => {
      if (f.startsWith('src/shared/')) return 0;
      if (f.startsWith('src/elicitation/safety/')) return 1;
      // Who is asking: a vocabulary type that the queue, the history and the broker all carry.
      if (f === 'src/elicitation/asker.ts') return 1;
      if (f.startsWith('src/elicitation/form/')) return 2;
      if (f === 'src/elicitation/outcome.ts') return 2;
      // Who ended a question (its call's cancellation or the server): vocabulary next to outcome.ts.
      if (f === 'src/elicitation/callCancel.ts') return 2;
      if (f.startsWith('src/elicitation/queue/') || f.startsWith('src/elicitation/policy/')) return 3;
      if (f.startsWith('src/elicitation/')) return 4;
      return undefined;
    };
    const upward = [...graph].flatMap(([f, deps]) => {
      const r = rank(f);
      if (r === undefined) return [];
      return deps
        .filter((d) => {
          const rd = rank(d);
          return rd !== undefined && rd > r;
        })
        .map((d) => `${f} → ${d}`);
    });
    assert.deepEqual(upward, []);
    // Nothing below the UI reaches up into it.
    const intoUi = [...graph]
      .filter(([f]) => /^src\/(elicitation|config|servers|gateway|shared|audit|util)\//.test(f))
      .flatMap(([f, deps]) => deps.filter((d) => /^src\/(ui|commands)\//.test(d) || d === 'src/context.ts').map((d) => `${f} → ${d}`));
    assert.deepEqual(intoUi, []);
  });

  void it('src/elicitation/ keeps at most 8 files at any one level', () => {
    const crowded: string[] = [];
    const walk = (dir: string): void => {
      const entries = readdirSync(path.join(root, dir));
      const count = entries.filter((e) => e.endsWith('.ts')).length;
      if (count > 8) crowded.push(`${dir}: ${count}`);
      for (const e of entries) if (statSync(path.join(root, dir, e)).isDirectory()) walk(path.posix.join(dir, e));
    };
    walk('src/elicitation');
    assert.deepEqual(crowded, []);
  });
});
