/**
 * The `sampling` client capability (2025-11-25 pushed `sampling/createMessage`). We declare the
 * baseline only: no `tools` and no `context` (see sampling/samplingRequest.ts for what that means
 * for a request that carries them). A 2026-07-28 server asks in an `input_required` round instead,
 * which mrtr/inputRounds.ts hands to the same broker. A request with `task` (task-augmented
 * sampling, capabilities/tasks.ts) is answered with a task at once and asked the same way.
 */
import type { Asker } from '../../elicitation/asker';
import type { SamplingSink } from '../../sampling/samplingBroker';
import type { HostClient } from '../hostClient';
import { answerMaybeAsTask, type ClientTasks } from './tasks';

/** What {@link CLIENT_CAPABILITIES} says about sampling. */
export const SAMPLING_CAPABILITY = {} as const;

/** Routes the server's pushed samples to the broker, with the server's cancellation (or the task's). */
export function installSampling(client: HostClient, identity: () => Asker, sampler: SamplingSink, tasks: ClientTasks): void {
  client.setSamplingHandler((request, ctx) =>
    answerMaybeAsTask(tasks, 'sampling/createMessage', request.params, async (params, task) => ({
      ...(await sampler.handle(
        identity(),
        params,
        task ? { signal: task.signal, requestId: `task ${task.id}` } : { signal: ctx.mcpReq.signal, requestId: ctx.mcpReq.id },
      )),
    })),
  );
}
