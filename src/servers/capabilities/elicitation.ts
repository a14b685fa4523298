/**
 * The `elicitation` client capability, form and url mode. A 2025 server pushes
 * `elicitation/create`, which reaches the broker raw (see hostClient.ts) and ends with the
 * server's or the call's cancellation; a request with `task` (capabilities/tasks.ts) is answered
 * with a task at once, and its question ends with the task. A 2026-07-28 server asks in an
 * `input_required` round instead, which mrtr/inputRounds.ts hands to the same broker.
 */
import type { Asker } from '../../elicitation/asker';
import type { ElicitationSink } from '../../elicitation/broker';
import type { HostClient } from '../hostClient';
import type { AskScope } from './sampling';
import { answerMaybeAsTask, type SessionTasks } from './tasks';

/** What CLIENT_CAPABILITIES (clientCapabilities.ts) says about elicitation. */
export const ELICITATION_CAPABILITY = { form: { applyDefaults: true }, url: {} } as const;

/** Routes the server's pushed questions and `notifications/elicitation/complete` to the broker. */
export function installElicitation(
  client: HostClient,
  server: string,
  identity: () => Asker,
  sink: ElicitationSink,
  scope: AskScope,
  tasks: SessionTasks,
  isDisposed: () => boolean,
): void {
  client.setElicitationHandler((request, ctx) =>
    answerMaybeAsTask(tasks, 'elicitation/create', request.params, (params, task) =>
      task
        ? // A task-borne question outlives the request that created it: its task's signal ends it.
          sink.handle(identity(), params, { signal: task.signal, requestId: `task ${task.id}` })
        : scope(ctx, (signal) =>
            sink.handle(identity(), params, {
              signal,
              requestId: ctx.mcpReq.id,
              sendProgress: async (progressToken, progress, message) => {
                await ctx.mcpReq.notify({
                  method: 'notifications/progress',
                  params: { progressToken, progress, ...(message ? { message } : {}) },
                });
              },
            }),
          ),
    ),
  );
  client.setNotificationHandler('notifications/elicitation/complete', (n) => {
    if (!isDisposed()) sink.complete(server, n.params.elicitationId);
  });
}
