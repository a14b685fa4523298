/**
 * The tasks extension of MCP 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663), client side.
 * We declare it on every 2026 request (hostClient.ts), so a server may answer `tools/call` with a
 * task handle (`resultType: "task"`) instead of a result. We then poll `tasks/get` until the task
 * ends; while it is `input_required`, its `inputRequests` go to the user exactly as a round's do
 * (the same broker, policy, pending list and audit: inputRounds.ts fulfils each one), and the
 * answers go back with `tasks/update`. A key is asked once: the server may show it again on later
 * polls (its view is eventually consistent), and only keys it asked and we have not answered are
 * ever sent. The call ends with the task's result or error, on the caller's Cancel (then
 * `tasks/cancel`), or at the task's ttl at the latest, a question then open included. Pure: the
 * requests, the clock and the timer come in.
 */
import { realTimer, type SetTimer } from '../legDeadline';
import { CallCancelledError, MrtrError, UndeclaredInputError } from './errors';

/** The extension's identifier, as declared in the per-request client capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The extension's requests, which the SDK's era gate would stop on a 2026-07-28 connection. */
export const TASK_EXTENSION_METHODS: ReadonlySet<string> = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** A task as `tasks/get` (or the `CreateTaskResult` handle) shows it. */
export interface TaskState {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly createdAt?: string;
  readonly ttlMs?: number | null;
  readonly pollIntervalMs?: number;
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  readonly result?: unknown;
  readonly error?: { readonly code?: unknown; readonly message?: unknown };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a result is a task's state (a `tasks/get` answer): an id and a status. */
export function isTaskState(v: unknown): v is TaskState {
  return isObject(v) && typeof v['taskId'] === 'string' && typeof v['status'] === 'string';
}

/** Whether a leg's answer is a task handle (`resultType: "task"`) rather than a result or a round. */
export function isTaskHandle(v: unknown): v is TaskState & { resultType: 'task' } {
  return isObject(v) && v['resultType'] === 'task' && typeof v['taskId'] === 'string';
}

/**
 * The SDK has no result kind "task" and fails such an answer as invalid, so hostClient.ts turns
 * it into this error response on its way in, and Session.sendLeg turns it back into the handle.
 */
export const TASK_HANDLE_CODE = -32099;
const CARRIER = 'mcpElicitationHostTaskHandle';

export function taskHandleResponse(
  id: string | number,
  handle: Record<string, unknown>,
): {
  jsonrpc: '2.0';
  id: string | number;
  error: { code: number; message: string; data: Record<string, unknown> };
} {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: TASK_HANDLE_CODE, message: 'task handle in transit (never shown)', data: { [CARRIER]: handle } },
  };
}

/** The handle a leg's error carries (see {@link taskHandleResponse}); undefined for any other error. */
export function taskHandleOf(err: unknown): Record<string, unknown> | undefined {
  const e = err as { code?: unknown; data?: unknown } | undefined;
  if (e?.code !== TASK_HANDLE_CODE || !isObject(e.data)) return undefined;
  const handle = e.data[CARRIER];
  return isObject(handle) ? handle : undefined;
}

/** The task ended `failed` (a JSON-RPC error during its run), `cancelled` by the server, or answered nonsense. */
export class TaskEndedError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly outcome: 'failed' | 'cancelled' | 'malformed',
    readonly reason: string,
    readonly code?: number,
  ) {
    super({ key: 'taskEnded', server, call, outcome, reason });
  }
}

/** The task did not end within its ttl: we cancelled it and stopped waiting. */
export class TaskExpiredError extends MrtrError {
  constructor(
    server: string,
    call: string,
    readonly ttlMs: number,
  ) {
    super({ key: 'taskExpired', server, call, ttlMs });
  }
}

/** The extension's requests, sent on the call's connection. */
export interface TaskRequests {
  get(taskId: string, signal: AbortSignal): Promise<unknown>;
  update(taskId: string, inputResponses: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  cancel(taskId: string): Promise<unknown>;
}

/** Where one input request of a task sits, for the prompt and the history (as a round's would). */
export interface TaskSlot {
  readonly key: string;
  readonly round: number;
  readonly index: number;
  readonly total: number;
}

export interface FollowOptions {
  readonly server: string;
  readonly label: string;
  readonly requests: TaskRequests;
  readonly signal: AbortSignal;
  /** Whether we offer this kind of input request (inputRounds.ts decides, as for a round). */
  declared(method: string | undefined): boolean;
  /**
   * Asks one input request through the broker and resolves with its response; `signal` ends the
   * question (the caller's Cancel, or the task's ttl running out while it is open).
   */
  fulfil(slot: TaskSlot, request: unknown, signal: AbortSignal): Promise<unknown>;
  /** Waits, or less if the signal aborts. */
  pause(ms: number, signal: AbortSignal): Promise<void>;
  readonly now?: () => number;
  /** The timer that ends an open question at the task's ttl; tests pass one they fire. */
  readonly setTimer?: SetTimer;
  readonly log?: (m: string) => void;
}

/** The poll interval we keep to, whatever the server suggests: never hammering it, never dozing off. */
export const POLL_BOUNDS = { minMs: 100, maxMs: 5_000, defaultMs: 1_000 } as const;
/** A task with no ttl (`null`) is still followed for at most this long. */
export const MAX_FOLLOW_MS = 60 * 60_000;

function methodOf(request: unknown): string | undefined {
  const m = isObject(request) ? request['method'] : undefined;
  return typeof m === 'string' ? m : undefined;
}

function asState(server: string, label: string, value: unknown, taskId: string): TaskState {
  if (!isObject(value) || typeof value['status'] !== 'string') {
    throw new TaskEndedError(server, label, 'malformed', 'tasks/get answered without a task status');
  }
  if (value['taskId'] !== undefined && value['taskId'] !== taskId) {
    throw new TaskEndedError(server, label, 'malformed', `tasks/get for "${taskId}" answered about ${JSON.stringify(value['taskId'])}`);
  }
  return { ...(value as unknown as TaskState), taskId };
}

/** How often a task is polled: what the server suggests, within {@link POLL_BOUNDS}. */
function pollEvery(state: TaskState): number {
  return Math.min(POLL_BOUNDS.maxMs, Math.max(POLL_BOUNDS.minMs, state.pollIntervalMs ?? POLL_BOUNDS.defaultMs));
}

/**
 * Follows a task from its handle to its end and resolves with its result (what the call would have
 * returned). Every way out but a result sends `tasks/cancel` when the task may still be running.
 */
export async function followTask(handle: TaskState, o: FollowOptions): Promise<unknown> {
  const now = o.now ?? Date.now;
  const taskId = handle.taskId;
  const started = now();
  const created = handle.createdAt !== undefined ? Date.parse(handle.createdAt) : NaN;
  // The server's clock may differ from ours: the ttl runs from whichever start is later.
  const base = Number.isFinite(created) ? Math.max(created, started) : started;
  let ttl = typeof handle.ttlMs === 'number' && handle.ttlMs >= 0 ? handle.ttlMs : MAX_FOLLOW_MS;
  const answered = new Set<string>();
  let round = 0;
  let state: TaskState = handle;
  let ended = false;
  o.log?.(`[${o.server}] ${o.label}: the server made task ${taskId} (ttl ${ttl} ms)`);
  try {
    for (;;) {
      if (o.signal.aborted) throw new CallCancelledError(o.server, o.label);
      if (typeof state.ttlMs === 'number' && state.ttlMs >= 0) ttl = state.ttlMs;
      switch (state.status) {
        case 'completed':
          ended = true;
          if (!isObject(state.result)) throw new TaskEndedError(o.server, o.label, 'malformed', 'completed without a result');
          return state.result;
        case 'failed': {
          ended = true;
          const message = typeof state.error?.message === 'string' ? state.error.message : (state.statusMessage ?? 'no reason given');
          throw new TaskEndedError(
            o.server,
            o.label,
            'failed',
            message,
            typeof state.error?.code === 'number' ? state.error.code : undefined,
          );
        }
        case 'cancelled':
          ended = true;
          throw new TaskEndedError(o.server, o.label, 'cancelled', state.statusMessage ?? 'the server cancelled it');
        case 'input_required': {
          const left = base + Math.min(ttl, MAX_FOLLOW_MS) - now();
          // The task ended while the user answered: that state is the answer to this poll.
          const seen = await answerNew(state, o, answered, ++round, { ttl, left, pollMs: pollEvery(state) });
          if (seen) {
            state = seen;
            continue;
          }
          break;
        }
        case 'working':
          break;
        default:
          throw new TaskEndedError(o.server, o.label, 'malformed', `unknown task status "${state.status}"`);
      }
      const left = base + Math.min(ttl, MAX_FOLLOW_MS) - now();
      if (left <= 0) throw new TaskExpiredError(o.server, o.label, ttl);
      await o.pause(Math.min(pollEvery(state), left), o.signal);
      if (o.signal.aborted) throw new CallCancelledError(o.server, o.label);
      state = asState(o.server, o.label, await o.requests.get(taskId, o.signal), taskId);
    }
  } catch (err) {
    // Our side gives up (cancel, ttl, a request we cannot answer): the server may stop its work.
    if (!ended) {
      o.requests.cancel(taskId).catch((e: unknown) => o.log?.(`[${o.server}] tasks/cancel ${taskId} failed: ${String(e)}`));
    }
    throw err;
  }
}

/**
 * Asks the keys of this poll that were never asked, then sends their answers (and only theirs) with
 * `tasks/update`. The task goes on meanwhile, so its ttl is kept and it is still polled while the
 * user answers: a question still open when the ttl runs out, or when the task ends (the server
 * cancelled it, or it failed or completed without the answer), closes then. Resolves with the state
 * the task ended in, if it ended so; nothing is sent for a task that ended.
 */
async function answerNew(
  state: TaskState,
  o: FollowOptions,
  answered: Set<string>,
  round: number,
  deadline: { readonly ttl: number; readonly left: number; readonly pollMs: number },
): Promise<TaskState | undefined> {
  const fresh = Object.entries(state.inputRequests ?? {}).filter(([key]) => !answered.has(key));
  if (fresh.length === 0) return undefined;
  const undeclared = fresh.filter(([, request]) => !o.declared(methodOf(request)));
  const first = undeclared[0];
  if (first) {
    throw new UndeclaredInputError(o.server, o.label, first[0], methodOf(first[1]), [
      ...new Set(undeclared.map(([, r]) => methodOf(r) ?? '?')),
    ]);
  }
  o.log?.(`[${o.server}] ${o.label}: task ${state.taskId} asks ${fresh.length} input request(s)`);
  const responses: Record<string, unknown> = {};
  const expiry = new AbortController();
  const timer = (o.setTimer ?? realTimer)(() => expiry.abort(), Math.max(0, deadline.left));
  const watch = watchWhileAsking(state.taskId, deadline.pollMs, o);
  const question = AbortSignal.any([o.signal, expiry.signal, watch.signal]);
  /** What closed the question, unless the caller did: the task's end, or its ttl (the question's own answer no longer counts). */
  const closed = (): TaskState | undefined => {
    if (o.signal.aborted) return undefined;
    const ended = watch.ended;
    if (ended && 'error' in ended) throw ended.error;
    if (ended) return ended.state;
    if (expiry.signal.aborted) throw new TaskExpiredError(o.server, o.label, deadline.ttl);
    return undefined;
  };
  try {
    for (const [i, [key, request]] of fresh.entries()) {
      let response: unknown;
      try {
        response = await o.fulfil({ key, round, index: i + 1, total: fresh.length }, request, question);
      } catch (err) {
        const ended = closed();
        if (ended) return ended;
        throw err;
      }
      const ended = closed();
      if (ended) return ended;
      responses[key] = response;
      answered.add(key);
      if (o.signal.aborted) throw new CallCancelledError(o.server, o.label);
    }
  } finally {
    timer.dispose();
    watch.stop();
  }
  await o.requests.update(state.taskId, responses, o.signal);
  return undefined;
}

/** The polls of a task while its question is open: `signal` aborts when it ends, `ended` says how. */
interface AskingWatch {
  readonly signal: AbortSignal;
  readonly ended: { readonly state: TaskState } | { readonly error: unknown } | undefined;
  stop(): void;
}

/**
 * Polls the task every `pollMs` while the user answers, as the follow loop would between polls: a
 * task no longer working nor waiting for input ended (or answered a poll nonsense, or not at all)
 * and ends the watch. A failed poll ends it as it ends the follow loop.
 */
function watchWhileAsking(taskId: string, pollMs: number, o: FollowOptions): AskingWatch {
  const controller = new AbortController();
  const setTimer = o.setTimer ?? realTimer;
  let timer: { dispose(): void } | undefined;
  let stopped = false;
  let ended: AskingWatch['ended'];
  const end = (how: NonNullable<AskingWatch['ended']>): void => {
    if (stopped) return;
    ended = how;
    controller.abort();
  };
  const next = (): void => {
    timer = setTimer(() => {
      o.requests.get(taskId, o.signal).then(
        (value) => {
          if (stopped) return;
          let polled: TaskState;
          try {
            polled = asState(o.server, o.label, value, taskId);
          } catch (error) {
            end({ error });
            return;
          }
          if (polled.status === 'working' || polled.status === 'input_required') next();
          else end({ state: polled });
        },
        (error: unknown) => end({ error }),
      );
    }, pollMs);
  };
  next();
  return {
    signal: controller.signal,
    get ended() {
      return ended;
    },
    stop: () => {
      stopped = true;
      timer?.dispose();
    },
  };
}
