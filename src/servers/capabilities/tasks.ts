/**
 * The `tasks` client capability of MCP 2025-11-25, as VS Code's own client declares it: a server
 * may send `elicitation/create` or `sampling/createMessage` with a `task` field. We then answer at
 * once with a `CreateTaskResult`, ask the question through the same broker as any other (policy,
 * rate limit, pending list, audit), and the server polls `tasks/get`, fetches `tasks/result`, and
 * may `tasks/list` and `tasks/cancel`. The SDK (@modelcontextprotocol/client 2.4.0) keeps the task
 * wire types but has no runtime for them ("2025-11-25 wire vocabulary with no SDK runtime"), so
 * the receiver side lives here and in clientTasks.ts: one {@link SessionTasks} per session,
 * disposed with it, whose runtime ({@link ClientTasks}, built into `dist/clientTasks.js`) is loaded
 * by the first task-augmented request or `tasks/*` request, since most servers never send one.
 *
 * Our tasks only ever wait on the user (or a model), never on the server, so they go from
 * `working` straight to a terminal status; `input_required` is never used. Every task ends by its
 * ttl at the latest: a question nobody answers is closed then and the task fails with the reason.
 * No `vscode` import: unit-tested in plain Node with a clock the test drives.
 */
import { ProtocolError, ProtocolErrorCode, type Result, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import type { HostClient } from '../hostClient';
import type * as ClientTasksModule from './clientTasks';
import type { ClientTasks, ClientTasksOptions, TaskMethod } from './clientTasks';

/** What {@link CLIENT_CAPABILITIES} says about tasks: exactly VS Code's declaration. */
export const TASKS_CAPABILITY = {
  list: {},
  cancel: {},
  requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
} as const;

/**
 * One session's tasks, made on first use: the runtime ({@link ClientTasks}) loads with the first
 * task-augmented request or `tasks/*` request of any session, never at activation.
 */
export class SessionTasks {
  private tasks: ClientTasks | undefined;
  private disposed = false;

  constructor(
    private readonly options: ClientTasksOptions = {},
    /** Loads clientTasks.ts (`dist/clientTasks.js`); tests pass the module itself. */
    private readonly load: () => typeof ClientTasksModule = () =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; see scripts/build.mjs
      require('./clientTasks') as typeof ClientTasksModule,
  ) {}

  /** The session's tasks; after dispose, an empty, ended store (it refuses new tasks and knows no old ones). */
  get current(): ClientTasks {
    if (!this.tasks) {
      this.tasks = new (this.load().ClientTasks)(this.options);
      if (this.disposed) this.tasks.dispose();
    }
    return this.tasks;
  }

  dispose(): void {
    this.disposed = true;
    this.tasks?.dispose();
  }
}

/**
 * The `task` field of a request's params: absent (an ordinary request), or the requested ttl.
 * Anything but an object there is -32602, before anything is shown.
 */
export function taskParam(params: unknown): { ttl: number | undefined } | undefined {
  if (typeof params !== 'object' || params === null || !('task' in params)) return undefined;
  const task = (params as { task?: unknown }).task;
  if (task === undefined) return undefined;
  if (typeof task !== 'object' || task === null || Array.isArray(task)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'task: must be an object ({ ttl?: number })');
  }
  const ttl = (task as { ttl?: unknown }).ttl;
  if (ttl !== undefined && ttl !== null && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'task.ttl: must be a non-negative number of milliseconds');
  }
  return { ttl: typeof ttl === 'number' ? ttl : undefined };
}

/** The params without `task`: what the broker checks and shows, as for any request. */
export function withoutTask(params: unknown): unknown {
  if (typeof params !== 'object' || params === null) return params;
  const { task: _task, ...rest } = params as Record<string, unknown>;
  return rest;
}

/** Params `{ taskId: string }` of `tasks/get`, `tasks/result` and `tasks/cancel`: a missing or non-string id is -32602. */
export const TASK_ID_PARAMS: StandardSchemaV1<unknown, { taskId: string }> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-elicitation-host',
    validate: (value) => {
      const id = typeof value === 'object' && value !== null ? (value as { taskId?: unknown }).taskId : undefined;
      return typeof id === 'string' ? { value: { taskId: id } } : { issues: [{ message: 'taskId: must be a string' }] };
    },
  },
};

/** Params of `tasks/list`: an optional string cursor. */
export const LIST_PARAMS: StandardSchemaV1<unknown, { cursor?: string }> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-elicitation-host',
    validate: (value) => {
      const cursor = typeof value === 'object' && value !== null ? (value as { cursor?: unknown }).cursor : undefined;
      if (cursor !== undefined && typeof cursor !== 'string') return { issues: [{ message: 'cursor: must be a string' }] };
      return { value: cursor === undefined ? {} : { cursor } };
    },
  },
};

/** How a question is asked: as its own request (`task` absent) or inside a task (its signal and id). */
export type Ask = (params: unknown, task: { readonly signal: AbortSignal; readonly id: string } | undefined) => Promise<Result>;

/**
 * Answers a request that may carry `task`: without it, as before; with it, a task starts and
 * the request is answered with it at once. The question itself goes the same way either way.
 */
export async function answerMaybeAsTask(tasks: SessionTasks, method: TaskMethod, params: unknown, ask: Ask): Promise<Result> {
  const task = taskParam(params);
  if (!task) return ask(params, undefined);
  const bare = withoutTask(params);
  return tasks.current.create(method, task.ttl, (signal, id) => ask(bare, { signal, id }));
}

/** The `tasks/*` requests a server sends about its tasks, answered from this session's {@link SessionTasks}. */
export function installTasks(client: HostClient, tasks: SessionTasks): void {
  client.setRequestHandler('tasks/get', { params: TASK_ID_PARAMS }, (p) => ({ ...tasks.current.get(p.taskId) }));
  client.setRequestHandler('tasks/result', { params: TASK_ID_PARAMS }, (p, ctx) => tasks.current.result(p.taskId, ctx.mcpReq.signal));
  client.setRequestHandler('tasks/list', { params: LIST_PARAMS }, (p) => tasks.current.list(p.cursor));
  client.setRequestHandler('tasks/cancel', { params: TASK_ID_PARAMS }, (p) => ({ ...tasks.current.cancel(p.taskId) }));
  // Not a 2025-11-25 request: answered with the reason rather than the SDK's bare "Method not found".
  // The SDK lifts `inputResponses` out of the params (a 2026-07-28 retry field) into the context:
  // the well-formed answers, and the keys of those it dropped.
  client.setRequestHandler('tasks/update', { params: TASK_ID_PARAMS }, (p, ctx) =>
    tasks.current.update(p.taskId, [...Object.keys(ctx.mcpReq.inputResponses ?? {}), ...(ctx.mcpReq.droppedInputResponseKeys ?? [])]),
  );
}
