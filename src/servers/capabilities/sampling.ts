/**
 * The `sampling` client capability (2025-11-25 pushed `sampling/createMessage`). We declare the
 * baseline only: no `tools` and no `context` (see sampling/samplingRequest.ts for what that means
 * for a request that carries them). A 2026-07-28 server asks in an `input_required` round instead,
 * which mrtr/inputRounds.ts hands to the same broker. Task-augmented sampling belongs to the tasks
 * capability, which this client does not declare.
 */
import type { ClientContext } from '@modelcontextprotocol/client';
import type { Asker } from '../../elicitation/asker';
import type { SamplingSink } from '../../sampling/samplingBroker';
import type { HostClient } from '../hostClient';

/** What {@link CLIENT_CAPABILITIES} says about sampling. */
export const SAMPLING_CAPABILITY = {} as const;

/**
 * Runs one pushed question with the signal that ends it (the session's: the server's cancellation
 * and that of the call the question belongs to).
 */
export type AskScope = <T>(ctx: ClientContext, ask: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/** Routes the server's pushed samples to the broker, ended by the server's or the call's cancellation. */
export function installSampling(client: HostClient, identity: () => Asker, sampler: SamplingSink, scope: AskScope): void {
  client.setSamplingHandler(async (request, ctx) => ({
    ...(await scope(ctx, (signal) => sampler.handle(identity(), request.params, { signal, requestId: ctx.mcpReq.id }))),
  }));
}
