/**
 * The `sampling` client capability (2025-11-25 pushed `sampling/createMessage`). We declare the
 * baseline only: no `tools` and no `context` (see sampling/samplingRequest.ts for what that means
 * for a request that carries them). A 2026-07-28 server asks in an `input_required` round instead,
 * which mrtr/inputRounds.ts hands to the same broker. A request with `task` (task-augmented
 * sampling, capabilities/tasks.ts) is answered with a task at once and asked the same way.
 */
import type { ClientContext } from '@modelcontextprotocol/client';
import type { Asker } from '../../elicitation/asker';
import type { SamplingSink } from '../../sampling/samplingBroker';
import type { HostClient } from '../hostClient';
import { answerMaybeAsTask, type SessionTasks } from './tasks';

/** What {@link CLIENT_CAPABILITIES} says about sampling. */
export const SAMPLING_CAPABILITY = {} as const;

/**
 * Runs one pushed question with the signal that ends it (the session's: the server's cancellation
 * and that of the call the question belongs to).
 */
export type AskScope = <T>(ctx: ClientContext, ask: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * Routes the server's pushed samples to the broker, ended by the server's or the call's
 * cancellation; a task-augmented one (capabilities/tasks.ts) by its task's, since it outlives the
 * request that created it.
 */
export function installSampling(
  client: HostClient,
  identity: () => Asker,
  sampler: SamplingSink,
  scope: AskScope,
  tasks: SessionTasks,
): void {
  client.setSamplingHandler((request, ctx) =>
    answerMaybeAsTask(tasks, 'sampling/createMessage', request.params, async (params, task) => ({
      ...(await (task
        ? sampler.handle(identity(), params, { signal: task.signal, requestId: `task ${task.id}` })
        : scope(ctx, (signal) => sampler.handle(identity(), params, { signal, requestId: ctx.mcpReq.id })))),
    })),
  );
}
