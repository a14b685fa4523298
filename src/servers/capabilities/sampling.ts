/**
 * The `sampling` client capability (2025-11-25 pushed `sampling/createMessage`). We declare the
 * baseline only: no `tools` and no `context` (see sampling/samplingRequest.ts for what that means
 * for a request that carries them). A 2026-07-28 server asks in an `input_required` round instead,
 * which mrtr/inputRounds.ts hands to the same broker. Task-augmented sampling belongs to the tasks
 * capability, which this client does not declare.
 */
import type { Asker } from '../../elicitation/asker';
import type { SamplingSink } from '../../sampling/samplingBroker';
import type { HostClient } from '../hostClient';

/** What {@link CLIENT_CAPABILITIES} says about sampling. */
export const SAMPLING_CAPABILITY = {} as const;

/** Routes the server's pushed samples to the broker, with the server's cancellation. */
export function installSampling(client: HostClient, identity: () => Asker, sampler: SamplingSink): void {
  client.setSamplingHandler(async (request, ctx) => ({
    ...(await sampler.handle(identity(), request.params, { signal: ctx.mcpReq.signal, requestId: ctx.mcpReq.id })),
  }));
}
