/**
 * Multi round-trip requests (MCP 2026-07-28): a `tools/call`, `prompts/get` or `resources/read`
 * answered with `input_required` is fulfilled through the broker, one input request at a time, and
 * retried as a new request. We drive the rounds ourselves rather than let the SDK auto-fulfil them
 * (docs/design/protocol-2026.md says why).
 */
import type { CreateMessageResult, ElicitResult, ListRootsResult } from '@modelcontextprotocol/client';
import type { HandleExtra } from '../../elicitation/broker';
import type { Asker } from '../../elicitation/asker';
import type { CompletionOutcome } from '../../elicitation/queue/elicitationQueue';
import { pause, raceAbort } from '../../util/async';
import { faultOf } from './answerShape';
import { followTask, isTaskHandle, TaskEndedError, type TaskRequests } from './taskFollow';
import {
  BrowserStepEndedError,
  CallCancelledError,
  MalformedAnswerError,
  RoundLimitError,
  SampleRefusedError,
  UndeclaredInputError,
} from './errors';

export type MrtrMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/** The spec's `InputRequiredResult`, as the SDK hands it back under `allowInputRequired`. */
export interface InputRequired {
  readonly resultType: 'input_required';
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  readonly requestState?: string;
}

export function isInputRequired(v: unknown): v is InputRequired {
  return typeof v === 'object' && v !== null && (v as { resultType?: unknown }).resultType === 'input_required';
}

/** What one call's rounds need from the broker (the real `ElicitationBroker` satisfies it). */
export interface RoundBroker {
  handle(asker: Asker, params: unknown, extra: HandleExtra): Promise<ElicitResult>;
  waitForCompletion(server: string, elicitationId: string): Promise<CompletionOutcome>;
  /** Ends a browser step this call left in the pending list, without telling the user. */
  endBrowserStep(server: string, elicitationId: string): void;
  /** A `sampling/createMessage` input request: the sampling broker's consent, model and review. */
  sample(asker: Asker, params: unknown, extra: HandleExtra): Promise<CreateMessageResult>;
}

export interface RoundsOptions {
  readonly method: MrtrMethod;
  /** What the user knows the call by: the tool, prompt or resource. */
  readonly label: string;
  readonly asker: () => Asker;
  readonly broker: RoundBroker;
  /**
   * This server's roots, for a `roots/list` input request: the same folders a pushed `roots/list`
   * gets (capabilities/roots.ts). Absent: roots are not offered, and such a round fails the call.
   */
  readonly roots?: () => ListRootsResult;
  /** Sends one leg: a new request (new JSON-RPC id) with exactly these params. */
  readonly send: (params: Readonly<Record<string, unknown>>, signal: AbortSignal) => Promise<unknown>;
  readonly signal?: AbortSignal;
  readonly maxRounds?: number;
  readonly log?: (m: string) => void;
  /** Pause before a retry that carries no answers, so a server that only sends state cannot spin us. */
  readonly stateOnlyPauseMs?: number;
  /**
   * The tasks extension's requests on this call's connection: a `tools/call` answered with a task
   * handle is followed to its end (taskFollow.ts). Absent: a task handle fails the call.
   */
  readonly tasks?: TaskRequests;
}

export const MAX_ROUNDS = 10;
const STATE_ONLY_PAUSE_MS = 250;

/** Input kinds we declare; anything else in `inputRequests` is a server error. */
const ROOTS = 'roots/list';
const DECLARED = new Set(['elicitation/create', 'sampling/createMessage']);

function declared(o: RoundsOptions, method: string): boolean {
  return DECLARED.has(method) || (method === ROOTS && o.roots !== undefined);
}

function methodOf(request: unknown): string | undefined {
  const method = typeof request === 'object' && request !== null ? (request as { method?: unknown }).method : undefined;
  return typeof method === 'string' ? method : undefined;
}

let nextStep = 0;

interface OpenStep {
  readonly id: string;
  readonly url: string;
}

let callCount = 0;

/**
 * Sends `params` and keeps answering `input_required` until the server returns a result. The
 * answers and `requestState` of a round live in this call's locals only: they go into its next
 * leg and nowhere else.
 */
export async function sendWithInputRounds(params: Readonly<Record<string, unknown>>, o: RoundsOptions): Promise<unknown> {
  const signal = o.signal ?? new AbortController().signal;
  const maxRounds = o.maxRounds ?? MAX_ROUNDS;
  const server = o.asker().name;
  // url steps the user consented to in this call, by key: asked again, we wait instead of asking.
  const steps = new Map<string, OpenStep>();
  const callId = `${server}#${++callCount}`;
  // An answer that mixes round and result fails its leg (hostClient.ts); the error names the call.
  const sendOnly = (leg: Readonly<Record<string, unknown>>): Promise<unknown> =>
    o.send(leg, signal).catch((err: unknown) => {
      const fault = faultOf(err);
      throw fault ? new MalformedAnswerError(server, o.label, fault) : err;
    });
  // A task handle (tasks extension) is followed to the task's end: its result is the leg's answer.
  const send = async (leg: Readonly<Record<string, unknown>>): Promise<unknown> => {
    const answer = await sendOnly(leg);
    if (!isTaskHandle(answer)) return answer;
    if (!o.tasks || o.method !== 'tools/call') {
      throw new TaskEndedError(server, o.label, 'malformed', `${o.method} answered with a task handle, which only tools/call may get`);
    }
    return followTask(answer, {
      server,
      label: o.label,
      requests: o.tasks,
      signal,
      declared: (method) => method !== undefined && declared(o, method),
      fulfil: (slot, request, question) => fulfilOne(o, { ...slot, callId }, request, steps, question),
      pause,
      ...(o.log ? { log: o.log } : {}),
    });
  };
  try {
    let answer = await send(params);
    for (let round = 1; isInputRequired(answer); round++) {
      if (round > maxRounds) throw new RoundLimitError(server, o.label, maxRounds);
      const requests = Object.entries(answer.inputRequests ?? {});
      // Checked before anything is shown: one request we cannot fulfil ends the whole call.
      // All of them are named, so a round that asks for roots and a sample at once says so.
      const undeclared = requests.flatMap(([key, request]) => {
        const method = methodOf(request);
        return method !== undefined && declared(o, method) ? [] : [{ key, method }];
      });
      const first = undeclared[0];
      if (first) {
        throw new UndeclaredInputError(server, o.label, first.key, first.method, [...new Set(undeclared.map((u) => u.method ?? '?'))]);
      }
      o.log?.(
        `[${server}] ${o.method} ${o.label}: round ${round}, ${requests.length} input request(s)${answer.requestState !== undefined ? ' and requestState' : ''}`,
      );
      const responses: Record<string, ElicitResult | CreateMessageResult | ListRootsResult> = {};
      for (const [i, [key, request]] of requests.entries()) {
        responses[key] = await fulfilOne(o, { callId, key, round, index: i + 1, total: requests.length }, request, steps, signal);
        if (signal.aborted) throw new CallCancelledError(server, o.label);
      }
      if (requests.length === 0) await pause(o.stateOnlyPauseMs ?? STATE_ONLY_PAUSE_MS, signal);
      if (signal.aborted) throw new CallCancelledError(server, o.label);
      const retry: Record<string, unknown> = { ...params };
      if (requests.length > 0) retry['inputResponses'] = responses;
      if (answer.requestState !== undefined) retry['requestState'] = answer.requestState;
      answer = await send(retry);
    }
    return answer;
  } finally {
    for (const step of steps.values()) o.broker.endBrowserStep(server, step.id);
  }
}

/** One input request, of a round or of a task: answered through the broker (roots from the workspace). */
async function fulfilOne(
  o: RoundsOptions,
  slot: Slot,
  request: unknown,
  steps: Map<string, OpenStep>,
  signal: AbortSignal,
): Promise<ElicitResult | CreateMessageResult | ListRootsResult> {
  const { method, params: rawParams } = request as { method: string; params?: unknown };
  // Roots are answered from the workspace, without asking: VS Code's client does the same.
  if (method === ROOTS && o.roots) return o.roots();
  return method === 'sampling/createMessage' ? sampleOne(o, slot, rawParams, signal) : answerOne(o, slot, rawParams, steps, signal);
}

interface Slot {
  readonly callId: string;
  readonly key: string;
  readonly round: number;
  readonly index: number;
  readonly total: number;
}

/**
 * A sample asked in a round. A refusal (bad input, the user said no, no model) has no result shape
 * to go back in `inputResponses`, so it ends the call with the reason.
 */
async function sampleOne(o: RoundsOptions, slot: Slot, rawParams: unknown, signal: AbortSignal): Promise<CreateMessageResult> {
  const identity = o.asker();
  try {
    return await o.broker.sample(identity, rawParams, {
      signal,
      requestId: `${o.method} ${o.label} round ${slot.round} ${slot.key}`,
      round: { call: o.label, callId: slot.callId, round: slot.round, key: slot.key, index: slot.index, total: slot.total },
    });
  } catch (err) {
    if (signal.aborted) throw new CallCancelledError(identity.name, o.label);
    throw new SampleRefusedError(identity.name, o.label, slot.key, err instanceof Error ? err.message : String(err));
  }
}

async function answerOne(
  o: RoundsOptions,
  slot: Slot,
  rawParams: unknown,
  steps: Map<string, OpenStep>,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const asker = o.asker();
  const requestId = `${o.method} ${o.label} round ${slot.round} ${slot.key}`;
  const isUrl = typeof rawParams === 'object' && rawParams !== null && (rawParams as { mode?: unknown }).mode === 'url';
  let params = rawParams;
  if (isUrl) {
    const url = (rawParams as { url?: unknown }).url;
    const open = steps.get(slot.key);
    if (open && open.url === url) {
      // The server still waits on the browser step the user already opened: no second consent.
      // The pending list offers Retry now (mark done) and Cancel (dismiss) meanwhile.
      o.log?.(`[${asker.name}] ${o.label}: still waiting on the browser step for ${slot.key}`);
      const outcome = await raceAbort(o.broker.waitForCompletion(asker.name, open.id), signal, () => 'aborted' as const);
      steps.delete(slot.key);
      if (outcome === 'aborted') return { action: 'cancel' };
      if (outcome !== 'markedDone' && outcome !== 'completed') throw new BrowserStepEndedError(asker.name, o.label, outcome);
      return { action: 'accept' };
    }
    if (open) {
      o.broker.endBrowserStep(asker.name, open.id);
      steps.delete(slot.key);
    }
    // 2026-07-28 url requests carry no elicitationId; the broker's pending list needs one.
    params = { ...(rawParams as Record<string, unknown>), elicitationId: `mrtr-${++nextStep}` };
  }
  let result: ElicitResult;
  try {
    result = await o.broker.handle(asker, params, {
      signal,
      requestId,
      round: { call: o.label, callId: slot.callId, round: slot.round, key: slot.key, index: slot.index, total: slot.total },
    });
  } catch (err) {
    // A request we must not show (malformed) gets a decline in its place; the others still count.
    if ((err as { code?: unknown }).code === -32602) {
      o.log?.(`[${asker.name}] ${o.label}: declined input request ${slot.key}: ${err instanceof Error ? err.message : String(err)}`);
      return { action: 'decline' };
    }
    throw err;
  }
  if (isUrl && result.action === 'accept') {
    const p = params as { elicitationId: string; url: string };
    steps.set(slot.key, { id: p.elicitationId, url: p.url });
  }
  return result;
}
