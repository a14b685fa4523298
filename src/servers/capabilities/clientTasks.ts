/**
 * The runtime of the 2025-11-25 `tasks` client capability (tasks.ts says what it is and how a
 * session uses it): one session's tasks, their ttl, and the answers to `tasks/get`, `tasks/result`,
 * `tasks/list` and `tasks/cancel`. Built into `dist/clientTasks.js` (scripts/build.mjs) and loaded
 * by the first task a server makes (tasks.ts, SessionTasks). No `vscode` import: unit-tested in
 * plain Node with a clock the test drives.
 */
import { ProtocolError, ProtocolErrorCode, type Result } from '@modelcontextprotocol/client';
import { raceAbort } from '../../util/async';
import { realTimer, type SetTimer } from '../legDeadline';

/** The `_meta` key that ties a `tasks/result` answer to its task (the spec's MUST). */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/** The requests a server may augment with a task, as declared in TASKS_CAPABILITY (tasks.ts). */
export type TaskMethod = 'elicitation/create' | 'sampling/createMessage';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as it goes on the wire (`tasks/get`, `tasks/list`, `tasks/cancel`, `CreateTaskResult.task`). */
export interface WireTask {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttl: number;
  readonly pollInterval: number;
}

/** The limits of one session's tasks. */
export interface TaskLimits {
  readonly defaultTtlMs: number;
  readonly maxTtlMs: number;
  readonly minTtlMs: number;
  readonly keepAfterTtlMs: number;
  readonly pollIntervalMs: number;
  readonly maxTasks: number;
  readonly pageSize: number;
}

export const TASK_LIMITS: TaskLimits = {
  /** A task the server asked no ttl for lives this long: as long as a call may wait on its question. */
  defaultTtlMs: 15 * 60_000,
  /** A longer ttl is cut to this: an hour-old question is not coming back. */
  maxTtlMs: 60 * 60_000,
  /** The shortest ttl we grant, so a question is never closed before anyone could see it. */
  minTtlMs: 1_000,
  /** A terminal task stays readable this long after its ttl, so a late `tasks/result` still gets the answer. */
  keepAfterTtlMs: 60_000,
  /** What we suggest the server polls at. */
  pollIntervalMs: 1_000,
  /** Tasks one session keeps at once; past this, the oldest finished one goes, and with none finished, new ones are refused. */
  maxTasks: 200,
  /** Tasks per `tasks/list` page. */
  pageSize: 50,
};

/** The code of `tasks/result` for a task cancelled by `tasks/cancel` (a server error: the spec names none). */
export const TASK_CANCELLED_CODE = -32000;
/** The code of a task refused because the session already holds {@link TASK_LIMITS.maxTasks}. */
export const TOO_MANY_TASKS_CODE = -32000;

/** The JSON-RPC error a failed task returns from `tasks/result`: exactly what the request would have got. */
interface WireError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

interface Entry {
  readonly id: string;
  readonly method: TaskMethod;
  readonly createdAt: number;
  readonly ttl: number;
  status: TaskStatus;
  statusMessage?: string;
  lastUpdatedAt: number;
  result?: Result;
  error?: WireError;
  readonly controller: AbortController;
  /** `tasks/result` calls waiting for a terminal status. */
  readonly waiters: (() => void)[];
  expiry: { dispose(): void } | undefined;
}

export interface ClientTasksOptions {
  readonly setTimer?: SetTimer;
  readonly now?: () => number;
  /** Task ids; tests pass a counter. The spec wants them unique; unguessable does no harm. */
  readonly newId?: () => string;
  readonly limits?: Partial<TaskLimits>;
  readonly log?: (m: string) => void;
}

/** The runs of one session's tasks: each gets its own signal, aborted by `tasks/cancel`, its ttl, or dispose. */
export type TaskRun = (signal: AbortSignal, taskId: string) => Promise<Result>;

const notFound = (id: string): ProtocolError =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: no task "${id}" (never created, or expired and removed)`);

function isTerminal(s: TaskStatus): boolean {
  return s === 'completed' || s === 'failed' || s === 'cancelled';
}

/** One session's tasks: created by task-augmented requests, read and cancelled by the `tasks/*` requests. */
export class ClientTasks {
  private readonly tasks = new Map<string, Entry>();
  private readonly limits: TaskLimits;
  private readonly setTimer: SetTimer;
  private readonly now: () => number;
  private readonly newId: () => string;
  private disposed = false;
  /**
   * Tasks made but not yet kept: each waits a turn for an early -32602 first, and the requests of
   * a burst read from the pipe in one go all arrive meanwhile. They count against the cap.
   */
  private starting = 0;

  constructor(private readonly o: ClientTasksOptions = {}) {
    this.limits = { ...TASK_LIMITS, ...o.limits };
    this.setTimer = o.setTimer ?? realTimer;
    this.now = o.now ?? Date.now;
    this.newId = o.newId ?? (() => globalThis.crypto.randomUUID());
  }

  /** How many tasks this session holds (finished ones included, until they expire). */
  get size(): number {
    return this.tasks.size;
  }

  /**
   * Accepts a task-augmented request: starts `run` and answers with the new task at once. A run
   * that rejects the request as malformed before anything is shown (-32602, the brokers' checks)
   * rejects the request itself instead: no task is made for a question that was never asked.
   */
  async create(method: TaskMethod, requestedTtl: number | undefined, run: TaskRun): Promise<{ task: WireTask }> {
    if (this.disposed) throw new ProtocolError(ProtocolErrorCode.InternalError, 'the session has ended');
    this.makeRoom();
    const id = this.newId();
    const now = this.now();
    const entry: Entry = {
      id,
      method,
      createdAt: now,
      ttl: this.grantTtl(requestedTtl),
      status: 'working',
      lastUpdatedAt: now,
      controller: new AbortController(),
      waiters: [],
      expiry: undefined,
    };
    // The brokers check a request before their first await: a malformed one has rejected by the
    // time pending I/O callbacks run (setImmediate), and is answered as the request's own error.
    let early: { error: unknown } | undefined;
    let accepted = false;
    new Promise<Result>((resolve) => resolve(run(entry.controller.signal, id))).then(
      (result) => this.settle(entry, 'completed', { result }),
      (err: unknown) => {
        if (accepted) this.settle(entry, 'failed', { error: wireError(err), statusMessage: messageOf(err) });
        else early = { error: err };
      },
    );
    this.starting++;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.starting--;
    accepted = true;
    if (early) {
      const err = early.error;
      if (err instanceof ProtocolError && err.code === (ProtocolErrorCode.InvalidParams as number)) throw err;
      this.settle(entry, 'failed', { error: wireError(err), statusMessage: messageOf(err) });
    }
    if (this.disposed) {
      entry.controller.abort();
      throw new ProtocolError(ProtocolErrorCode.InternalError, 'the session has ended');
    }
    this.tasks.set(id, entry);
    entry.expiry = this.setTimer(() => this.expire(entry), entry.ttl);
    this.o.log?.(`task ${id}: ${method} accepted (ttl ${entry.ttl} ms)`);
    return { task: this.wire(entry) };
  }

  /** `tasks/get`: the task's state now; an unknown id is -32602. */
  get(taskId: string): WireTask {
    return this.wire(this.find(taskId));
  }

  /**
   * `tasks/result`: blocks until the task is terminal, then answers exactly what the request would
   * have: its result (with the related-task `_meta`), or its error.
   */
  async result(taskId: string, signal?: AbortSignal): Promise<Result> {
    const entry = this.find(taskId);
    if (!isTerminal(entry.status)) {
      await raceAbort(new Promise<void>((resolve) => entry.waiters.push(resolve)), signal, () => undefined);
    }
    if (!isTerminal(entry.status)) throw new ProtocolError(ProtocolErrorCode.InternalError, 'tasks/result was cancelled');
    if (entry.status === 'completed' && entry.result) {
      const meta = (entry.result as { _meta?: Record<string, unknown> })._meta;
      return { ...entry.result, _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: entry.id } } };
    }
    const error = entry.error ?? { code: TASK_CANCELLED_CODE, message: `task "${entry.id}" was cancelled` };
    throw new ProtocolError(error.code, error.message, error.data);
  }

  /** `tasks/list`: every task this session holds, oldest first, {@link TASK_LIMITS.pageSize} a page. */
  list(cursor: string | undefined): { tasks: WireTask[]; nextCursor?: string } {
    const all = [...this.tasks.values()];
    let start = 0;
    if (cursor !== undefined) {
      start = /^\d{1,9}$/.test(cursor) ? Number(cursor) : -1;
      if (start < 0 || start > all.length) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `tasks/list: the cursor "${cursor.slice(0, 40)}" is not one we gave`);
      }
    }
    const end = start + this.limits.pageSize;
    const page = all.slice(start, end).map((e) => this.wire(e));
    return end < all.length ? { tasks: page, nextCursor: String(end) } : { tasks: page };
  }

  /**
   * `tasks/update` (the 2026-07-28 extension's way to bring a task the input it asked for) sent to
   * us: our tasks never ask the server for input (they wait on the user), so every key it carries
   * was never asked. -32602 naming them, and the task goes on untouched; an unknown id is -32602 too.
   */
  update(taskId: string, keys: readonly string[]): never {
    this.find(taskId);
    const named =
      keys.length === 0
        ? 'no input'
        : keys
            .slice(0, 10)
            .map((k) => `"${k.slice(0, 40)}"`)
            .join(', ');
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `tasks/update: task "${taskId}" never asked for input, so ${named} was never asked (this client's tasks wait on the user, not on the server)`,
    );
  }

  /** `tasks/cancel`: closes the question and marks the task cancelled; a finished task is -32602. */
  cancel(taskId: string): WireTask {
    const entry = this.find(taskId);
    if (isTerminal(entry.status)) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `tasks/cancel: task "${taskId}" is already ${entry.status}`);
    }
    this.settle(entry, 'cancelled', { statusMessage: 'The task was cancelled by request.' });
    return this.wire(entry);
  }

  /** The session ended: every open question closes, every waiting `tasks/result` ends, nothing fires later. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const entry of this.tasks.values()) {
      entry.expiry?.dispose();
      if (!isTerminal(entry.status)) this.settle(entry, 'cancelled', { statusMessage: 'The session ended.' });
    }
    this.tasks.clear();
  }

  private find(taskId: string): Entry {
    const entry = this.tasks.get(taskId);
    if (!entry) throw notFound(taskId);
    return entry;
  }

  private grantTtl(requested: number | undefined): number {
    if (requested === undefined || !Number.isFinite(requested)) return this.limits.defaultTtlMs;
    return Math.min(this.limits.maxTtlMs, Math.max(this.limits.minTtlMs, Math.round(requested)));
  }

  /**
   * Past the cap (tasks kept, and those still starting), the oldest finished task goes; with every
   * kept task still open, the new one is refused.
   */
  private makeRoom(): void {
    if (this.tasks.size + this.starting < this.limits.maxTasks) return;
    for (const entry of this.tasks.values()) {
      if (isTerminal(entry.status)) {
        this.remove(entry);
        return;
      }
    }
    throw new ProtocolError(
      TOO_MANY_TASKS_CODE,
      `too many open tasks: this client keeps at most ${this.limits.maxTasks} per server; let one finish or cancel it`,
    );
  }

  /** The ttl ran out: an open question closes and the task fails; a finished one is kept a little longer, then removed. */
  private expire(entry: Entry): void {
    if (!isTerminal(entry.status)) {
      const message = `no answer within the task's ttl of ${entry.ttl} ms; the question was closed`;
      this.settle(entry, 'failed', { error: { code: ProtocolErrorCode.InternalError, message }, statusMessage: message });
      this.o.log?.(`task ${entry.id}: ${message}`);
    }
    entry.expiry = this.setTimer(() => this.remove(entry), this.limits.keepAfterTtlMs);
  }

  private remove(entry: Entry): void {
    entry.expiry?.dispose();
    this.tasks.delete(entry.id);
  }

  /** The one place a task ends: once, and never after it has ended. */
  private settle(entry: Entry, status: TaskStatus, what: { result?: Result; error?: WireError; statusMessage?: string }): void {
    if (isTerminal(entry.status)) return;
    entry.status = status;
    entry.lastUpdatedAt = this.now();
    if (what.result) entry.result = what.result;
    if (what.error) entry.error = what.error;
    if (what.statusMessage !== undefined) entry.statusMessage = what.statusMessage;
    // The question closes with its task (cancel, ttl, dispose); after an answer this aborts nothing that listens.
    entry.controller.abort();
    for (const wake of entry.waiters.splice(0)) wake();
  }

  private wire(e: Entry): WireTask {
    return {
      taskId: e.id,
      status: e.status,
      ...(e.statusMessage !== undefined ? { statusMessage: e.statusMessage } : {}),
      createdAt: new Date(e.createdAt).toISOString(),
      lastUpdatedAt: new Date(e.lastUpdatedAt).toISOString(),
      ttl: e.ttl,
      pollInterval: this.limits.pollIntervalMs,
    };
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function wireError(err: unknown): WireError {
  if (err instanceof ProtocolError) return { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) };
  return { code: ProtocolErrorCode.InternalError, message: messageOf(err) };
}
