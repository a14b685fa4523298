/**
 * Prompt latency: from the bench server stamping its clock right before it writes the message
 * that asks (a pushed elicitation/create, or a 2026-07-28 `input_required` result), to the page's
 * stamp when the widget is visible with the request's text. All stamps are the sub-millisecond
 * clock of ./clock, in three processes (server, extension host, page). Two clients are sampled
 * alternately (ABBA), so drift in machine load during the run hits both about equally: ours and
 * the baseline extension, or ours asked by a 2025 server and ours asked through MRTR.
 */
import * as vscode from 'vscode';
import type { ExtensionUnderTest } from './extension';
import { arm, seen, type PromptKind } from './control';
import { waitUntil } from './wait';

/** The requested schemas, one per widget. The webview one has several fields of different kinds. */
export const SCHEMAS: Record<PromptKind, Record<string, unknown>> = {
  inputBox: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
  quickPick: {
    type: 'object',
    properties: { colour: { type: 'string', title: 'Colour', enum: ['red', 'green', 'blue'] } },
    required: ['colour'],
  },
  webview: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Project name', minLength: 3, default: 'my-project' },
      owner: { type: 'string', title: 'Owner email', format: 'email', default: 'dev@example.com' },
      replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 9, default: 3 },
      public: { type: 'boolean', title: 'Public repository', default: false },
      license: { type: 'string', title: 'License', enum: ['MIT', 'Apache-2.0', 'GPL-3.0'], default: 'MIT' },
      notes: { type: 'string', title: 'Notes' },
    },
    required: ['name', 'owner'],
  },
};
const WEBVIEW_FIELDS = 6;

/** `mrtr`: ours, asked by a 2026-07-28 server through `input_required` instead of a pushed request. */
export type ImplName = 'ours' | 'baseline' | 'mrtr';

/** One client under test: how to start an elicitation through it and when it is idle again. */
export interface Impl {
  readonly name: ImplName;
  /** Calls the bench server's `prompt` tool through this client; resolves to the tool result. */
  start(params: Record<string, unknown>, tag: string): Thenable<unknown>;
  /** Nothing pending any more (queue empty / no handler in flight). */
  idle(): Promise<boolean>;
  /** Closes a quick-input prompt with a cancel, as the user would (differs per client, see `ours`). */
  cancelQuickInput(): Promise<void>;
  /** Extension-host time at which this client last put a widget on screen (show() called). */
  shownAt(): Promise<number | undefined>;
}

export interface Sample {
  readonly impl: ImplName;
  readonly kind: PromptKind;
  /** Server send → page visible, ms. */
  readonly ms: number;
  /** Server send → the client called show() in the extension host, ms (where known). */
  readonly hostMs: number | undefined;
}

export interface LatencyResult {
  readonly samples: Sample[];
  readonly warmup: number;
  readonly failures: { impl: string; kind: string; error: string }[];
}

interface WireOutcome {
  readonly sentAt?: number;
  readonly response?: { action?: string };
  readonly error?: { message?: string };
}

function parseTool(result: unknown): WireOutcome {
  const r = result as { content?: { type: string; text?: string }[] } | undefined;
  return JSON.parse(r?.content?.[0]?.text ?? '{}') as WireOutcome;
}

/** Ours, through `server`: a 2025 one that pushes (`ours`) or a 2026-07-28 one that answers `input_required` (`mrtr`). */
export function ours(ext: ExtensionUnderTest, server: string, name: 'ours' | 'mrtr' = 'ours'): Impl {
  let lastShown: number | undefined;
  // Disposed with the host; the benchmark never outlives it.
  ext.onDidShowPrompt((e) => (lastShown = e.at));
  return {
    name,
    start: (params, tag) => vscode.commands.executeCommand('mcpElicitation.runTool', server, 'prompt', { params, tag }),
    idle: () => Promise.resolve(ext.idle()),
    shownAt: () => Promise.resolve(lastShown),
    // Escape only sets our question aside; its Cancel (the prompt's or the pending list's) cancels.
    cancelQuickInput: () => {
      for (const e of ext.api.pending()) if (e.state === 'onScreen' || e.state === 'aside') ext.cancel(e.id);
      return Promise.resolve();
    },
  };
}

export function baseline(): Impl {
  return {
    name: 'baseline',
    start: (params, tag) => vscode.commands.executeCommand('benchBaseline.callTool', 'prompt', { params, tag }),
    idle: async () => (await vscode.commands.executeCommand<number>('benchBaseline.inFlight')) === 0,
    shownAt: () => Promise.resolve(vscode.commands.executeCommand<number | undefined>('benchBaseline.lastShownAt')),
    // Its quick input cancels when hidden: Escape runs this command.
    cancelQuickInput: async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    },
  };
}

/** A quick input is cancelled as each client lets the user; a webview form closes with its editor tab. */
async function dismiss(impl: Impl, kind: PromptKind): Promise<void> {
  if (kind === 'webview') await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  else await impl.cancelQuickInput();
}

let seq = 0;

async function sample(impl: Impl, kind: PromptKind): Promise<Sample> {
  // Letters and digits only: the extension's text sanitiser must leave it as it is.
  const token = `Z${kind}${impl.name}${++seq}Q${Math.random().toString(36).slice(2, 8)}`;
  await arm({
    token,
    kind,
    ...(kind === 'quickPick' ? { option: 'green' } : {}),
    ...(kind === 'webview' ? { fields: WEBVIEW_FIELDS } : {}),
  });
  const call = Promise.resolve(impl.start({ message: `Benchmark request ${token}`, requestedSchema: SCHEMAS[kind] }, token));
  // If anything below throws, the call still settles (the prompt is dismissed in cleanup).
  call.catch(() => undefined);
  try {
    const { at } = await seen(token);
    await dismiss(impl, kind);
    const wire = parseTool(await call);
    if (wire.sentAt === undefined) throw new Error(`the server did not report a send time: ${JSON.stringify(wire)}`);
    if (wire.response?.action !== 'cancel') {
      throw new Error(`expected the dismissed prompt to answer cancel, got ${JSON.stringify(wire.response ?? wire.error)}`);
    }
    const shown = await impl.shownAt();
    return { impl: impl.name, kind, ms: at - wire.sentAt, hostMs: shown === undefined ? undefined : shown - wire.sentAt };
  } finally {
    await waitUntil(
      () => impl.idle(),
      `${impl.name} idle after a ${kind} sample`,
      15_000,
      async () => {
        // A sample that failed half-way may have left its prompt open.
        await dismiss(impl, kind);
      },
    );
  }
}

/**
 * `n` measured samples per kind and client after `warmup` discarded ones (first webview, first
 * quick input and JIT warm-up would otherwise dominate the tail).
 */
export async function measureLatency(
  impls: readonly [Impl, Impl],
  n: number,
  warmup: number,
  log: (m: string) => void,
  kinds: readonly PromptKind[] = ['inputBox', 'quickPick', 'webview'],
): Promise<LatencyResult> {
  const samples: Sample[] = [];
  const failures: LatencyResult['failures'] = [];
  for (const kind of kinds) {
    const t0 = Date.now();
    for (let i = 0; i < warmup + n; i++) {
      // ABBA order: neither client always runs right after the other's teardown.
      const order = i % 2 === 0 ? impls : ([impls[1], impls[0]] as const);
      for (const impl of order) {
        try {
          const r = await sample(impl, kind);
          if (i >= warmup) samples.push(r);
        } catch (err) {
          failures.push({ impl: impl.name, kind, error: err instanceof Error ? err.message : String(err) });
          log(`[bench] ${impl.name} ${kind} sample failed: ${String(err)}`);
          if (failures.length > 10) throw new Error(`too many failed samples; last: ${String(err)}`);
        }
      }
    }
    const med = (impl: string): string => {
      const v = samples
        .filter((x) => x.kind === kind && x.impl === impl)
        .map((x) => x.ms)
        .sort((a, b) => a - b);
      return v[Math.floor(v.length / 2)]?.toFixed(1) ?? '-';
    };
    log(
      `[bench] latency ${kind}: ${impls.map((impl) => `${impl.name} ${med(impl.name)} ms`).join(', ')} (median; ${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
  }
  return { samples, warmup, failures };
}
