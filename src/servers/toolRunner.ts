import type { SamplingSink } from '../sampling/samplingBroker';
import {
  ProtocolError as McpError,
  ProtocolErrorCode as ErrorCode,
  type CallToolResult,
  type ProgressCallback,
} from '@modelcontextprotocol/client';
import type { ElicitationBroker } from '../elicitation/broker';
import { askerFor } from '../elicitation/asker';
import type { Connection } from './connection';
import { sendWithInputRounds, type MrtrMethod, type RoundBroker } from './mrtr/inputRounds';
import { localised } from './mrtr/messages';
import { english, type Localize } from '../shared/localize';
import { raceAbort } from '../util/async';
import { callScoped } from '../elicitation/callCancel';
import { EraMismatchError, eraNeeded } from './era/eraMismatch';
import { revisionOf } from './era/eraChoice';
import { errorText } from './serverState';

/** The draft spec's code for the same error (and its misspelled `elicitionId`); still seen in the wild. */
const DRAFT_ELICITATION_REQUIRED = -32604;

interface RequiredUrl {
  readonly url: string;
  readonly elicitationId: string;
  readonly message: string;
}

/** Reads `data.elicitations[]` from a -32042 (or draft -32604) error; undefined for any other error. */
export function requiredElicitations(err: unknown): RequiredUrl[] | undefined {
  if (!(err instanceof McpError)) return undefined;
  if (err.code !== (ErrorCode.UrlElicitationRequired as number) && err.code !== DRAFT_ELICITATION_REQUIRED) return undefined;
  const list = (err.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out: RequiredUrl[] = [];
  for (const e of list.slice(0, 10)) {
    if (typeof e !== 'object' || e === null) continue;
    const r = e as Record<string, unknown>;
    const id = r['elicitationId'] ?? r['elicitionId'];
    if (typeof r['url'] === 'string' && typeof id === 'string') {
      out.push({ url: r['url'], elicitationId: id, message: typeof r['message'] === 'string' ? r['message'] : '' });
    }
  }
  return out.length ? out : undefined;
}

/**
 * The tool call stays failed: the user declined or cancelled a listed url elicitation, the browser
 * step did not complete, or the retry asked again. `message` says why; `code` and `data` are the
 * original error's, so a caller of the `runTool` command still sees the -32042 and its elicitations.
 */
export class UrlElicitationDeclinedError extends Error {
  readonly code: number | undefined;
  readonly data: unknown;
  constructor(
    readonly original: unknown,
    reason: string,
  ) {
    super(reason);
    this.code = original instanceof McpError ? original.code : undefined;
    this.data = original instanceof McpError ? original.data : undefined;
  }
}

/** The broker as one call's rounds see it: a browser step left open ends silently. */
export function roundBroker(broker: ElicitationBroker, sampler: SamplingSink): RoundBroker {
  return {
    sample: (server, params, extra) => sampler.handle(server, params, extra),
    handle: (server, params, extra) => broker.handle(server, params, extra),
    waitForCompletion: (server, id) => broker.waitForCompletion(server, id),
    endBrowserStep: (server, id) => void broker.queue.complete(server, id),
  };
}

/** A tool call's params as they go on the wire: the name, its arguments, and anything else (`_meta`). */
export interface ToolCall {
  readonly name: string;
  readonly arguments?: Record<string, unknown> | undefined;
  readonly [key: string]: unknown;
}

export interface ToolCallOptions {
  /** The caller's Cancel (Run Tool's progress, the API caller's token, the agent's cancellation). */
  readonly signal?: AbortSignal | undefined;
  readonly log?: ((m: string) => void) | undefined;
  /** Each `notifications/progress` the server sends about the call. */
  readonly onprogress?: ProgressCallback | undefined;
  /** The language of the errors a failed round gives (the window's; English when absent). */
  readonly l10n?: Localize | undefined;
}

/**
 * One call as the user sees it: every `input_required` round of a 2026-07-28 server is answered
 * through the broker and retried (mrtr/inputRounds.ts); a 2025 server's pushed requests reach the
 * broker through the connection meanwhile.
 */
export async function callWithInputRounds(
  conn: Connection,
  broker: ElicitationBroker,
  method: MrtrMethod,
  params: Readonly<Record<string, unknown>>,
  label: string,
  o: ToolCallOptions,
): Promise<unknown> {
  // The caller's Cancel closes the call's questions as the call's (callCancel.ts), not the server's.
  const cancel = o.signal ? callScoped(o.signal, label) : undefined;
  try {
    return await sendWithInputRounds(params, {
      method,
      label,
      asker: () => askerFor(conn.name, conn.state.kind === 'running' ? conn.state.serverInfo : undefined),
      broker: roundBroker(broker, conn.sampler),
      roots: () => conn.listRoots(),
      send: (leg, s) => conn.sendLeg(method, leg, { signal: s, onprogress: o.onprogress }, label),
      tasks: conn.taskRequests,
      // The caller's Cancel, or the connection going away (stop, restart, deactivation).
      signal: cancel ? AbortSignal.any([cancel.signal, conn.callSignal]) : conn.callSignal,
      ...(o.log ? { log: o.log } : {}),
    });
  } catch (err: unknown) {
    throw localised(err, o.l10n ?? english);
  } finally {
    cancel?.dispose();
  }
}

function callOnce(conn: Connection, broker: ElicitationBroker, call: ToolCall, o: ToolCallOptions): Promise<CallToolResult> {
  return callWithInputRounds(conn, broker, 'tools/call', call, call.name, o) as Promise<CallToolResult>;
}

/**
 * Calls a tool; when it fails with URLElicitationRequired (2025), walks the user through each listed
 * url elicitation with the same consent flow, waits for completion (or Mark as Done), then retries
 * once. A retry that asks for the same URLs again is not retried (loop guard).
 */
export async function callToolWithElicitation(
  conn: Connection,
  broker: ElicitationBroker,
  call: ToolCall,
  o: ToolCallOptions = {},
): Promise<CallToolResult> {
  const done = conn.eras.track();
  try {
    return await callAtItsRevision(conn, () => callWithUrlSteps(conn, broker, call, o), call.name, o);
  } finally {
    done();
  }
}

/**
 * A call at the revision its tool asks in (era/eraMismatch.ts). A tool learned to need the other
 * revision gets it before the call, when no other call would be ended by the reconnect. A call
 * that fails for want of the other revision is run again on it only if the user says so, since
 * the tool ran up to its question; otherwise it fails with one line saying what would make it work.
 */
async function callAtItsRevision(
  conn: Connection,
  run: () => Promise<CallToolResult>,
  tool: string,
  o: ToolCallOptions,
): Promise<CallToolResult> {
  const l10n = o.l10n ?? english;
  const learned = conn.eras.of(tool);
  if (learned && conn.era !== learned && conn.eras.others === 0 && !conn.eraFixed) {
    o.log?.(`[${conn.name}] tool ${tool} asks its questions the MCP ${revisionOf(learned)} way: reconnecting with it before the call`);
    await conn.useEra(learned, tool);
  }
  let outcome: { readonly error?: unknown; readonly result?: CallToolResult };
  try {
    outcome = { result: await run() };
  } catch (error) {
    outcome = { error };
  }
  const needs = eraNeeded(outcome);
  if (!needs || needs === conn.era) {
    if ('error' in outcome) throw outcome.error;
    return outcome.result as CallToolResult;
  }
  const original = 'error' in outcome ? outcome.error : outcome.result;
  o.log?.(`[${conn.name}] tool ${tool} failed for want of MCP ${revisionOf(needs)}: ${errorText(original)}`);
  const fixed = conn.eraFixed;
  if (fixed) throw new EraMismatchError(conn.name, tool, needs, fixed, original, l10n);
  if (!(await conn.askEraSwitch(tool, needs, o.signal))) throw new EraMismatchError(conn.name, tool, needs, 'declined', original, l10n);
  if (!(await conn.useEra(needs, tool))) throw new EraMismatchError(conn.name, tool, needs, 'unavailable', original, l10n);
  o.log?.(`[${conn.name}] running tool ${tool} again on MCP ${revisionOf(needs)}, as the user chose`);
  return run();
}

/**
 * The 2025 url-required flow around one call (see {@link callToolWithElicitation}).
 */
async function callWithUrlSteps(conn: Connection, broker: ElicitationBroker, call: ToolCall, o: ToolCallOptions): Promise<CallToolResult> {
  const { signal, log } = o;
  const name = call.name;
  try {
    return await callOnce(conn, broker, call, o);
  } catch (err) {
    const needed = requiredElicitations(err);
    if (!needed) throw err;
    log?.(`[${conn.name}] tool ${name} requires ${needed.length} url elicitation(s); asking the user`);
    for (const e of needed) {
      const result = await broker.handle(
        askerFor(conn.name, conn.state.kind === 'running' ? conn.state.serverInfo : undefined),
        { mode: 'url', url: e.url, elicitationId: e.elicitationId, message: e.message },
        { signal: signal ?? new AbortController().signal, requestId: `tool:${name}:${e.elicitationId}` },
      );
      if (result.action !== 'accept') throw new UrlElicitationDeclinedError(err, `the user chose ${result.action} for ${e.url}`);
      // Unless the tool call is cancelled first (Cancel on its progress).
      const outcome = await raceAbort(broker.waitForCompletion(conn.name, e.elicitationId), signal, () => 'cancelled' as const);
      if (outcome === 'cancelled') {
        throw new UrlElicitationDeclinedError(err, 'the tool call was cancelled while it waited for the browser step');
      }
      if (outcome !== 'completed' && outcome !== 'markedDone') {
        throw new UrlElicitationDeclinedError(err, `the browser step ended as ${outcome}`);
      }
    }
    try {
      return await callOnce(conn, broker, call, o);
    } catch (retryErr) {
      const again = requiredElicitations(retryErr);
      if (again && again.some((a) => needed.some((n) => n.url === a.url))) {
        log?.(`[${conn.name}] tool ${name} asked for the same URL again after completion; not retrying (loop guard)`);
        throw new UrlElicitationDeclinedError(retryErr, 'the server asked for the same URL again after it was completed; not retrying');
      }
      throw retryErr;
    }
  }
}
