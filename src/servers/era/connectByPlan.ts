/**
 * A launch's connect, as eraChoice.ts plans it: one attempt at a pinned or learned revision, or
 * 2025-11-25 first and 2026-07-28 on the same transport when the server refuses it. Each attempt
 * sets the client's negotiation itself; the client's handlers stay as the session installed them.
 * No `vscode` import.
 */
import { ProtocolError, SdkError, SdkHttpError, type Client } from '@modelcontextprotocol/client';
import { isAuthChallenge, type PreparedTransport } from '../transports';
import { errorText } from '../serverState';
import { LEGACY_REVISION, MODERN_REVISION, mayBeModernOnly, revisionOf, type Era, type EraNote, type EraPlan } from './eraChoice';
import { LeasedTransport } from './transportLease';

interface ConnectLog {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Neither revision worked, or the one attempt failed at the protocol level (no answer, garbage, a
 * closed pipe): the error names the step, so the Servers view and the log say which request
 * failed at which revision. `status` keeps an HTTP status for the SSE fallback (transports.ts).
 */
export class EraStepError extends Error {
  readonly status: number | undefined;
  constructor(message: string, first: unknown, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EraStepError';
    const status = (first as { status?: unknown } | undefined)?.status;
    this.status = typeof status === 'number' ? status : undefined;
  }
}

const STEP: Record<Era, string> = { legacy: `initialize (MCP ${LEGACY_REVISION})`, modern: `server/discover (MCP ${MODERN_REVISION})` };

/**
 * Errors of the protocol layer get the step named; anything else (sign-in, OAuth, an HTTP status)
 * is left as it is, for those who act on its type: the sign-in and the SSE fallback (transports.ts).
 */
function named(era: Era, err: unknown): unknown {
  if (!(err instanceof ProtocolError) && !(err instanceof SdkError)) return err;
  if (err instanceof SdkHttpError || isAuthChallenge(err)) return err;
  return new EraStepError(`${STEP[era]} failed: ${errorText(err)}`, err, { cause: err });
}

export async function connectByPlan(
  client: Client,
  prepared: PreparedTransport,
  plan: EraPlan,
  o: { readonly timeoutMs: number; readonly log: ConnectLog },
): Promise<EraNote> {
  const version = (era: Era): string => client.getNegotiatedProtocolVersion() ?? revisionOf(era);
  const negotiate = (era: Era): void =>
    client.setVersionNegotiation(era === 'modern' ? { mode: { pin: MODERN_REVISION } } : { mode: 'legacy' });

  // Every attempt holds the transport through a lease, so the SDK probes a stdio server in place:
  // its `auto` and pinned modes would otherwise start a second copy of it to probe.
  const leased = new LeasedTransport(prepared.transport);
  if (plan.kind === 'single') {
    const only = leased.lease();
    negotiate(plan.era);
    try {
      await client.connect(only, { timeout: o.timeoutMs });
    } catch (err) {
      await leased.close().catch(() => undefined);
      throw named(plan.era, err);
    }
    only.commit();
    return { version: version(plan.era), why: plan.why, tool: plan.tool };
  }

  const first = leased.lease();
  negotiate('legacy');
  let refused: unknown;
  try {
    await client.connect(first, { timeout: o.timeoutMs });
    first.commit();
    return { version: version('legacy'), why: 'vscode' };
  } catch (err) {
    if (!mayBeModernOnly(err, prepared.kind)) {
      await leased.close().catch(() => undefined);
      throw named('legacy', err);
    }
    refused = err;
  }
  o.log.info(`${STEP.legacy} was refused (${errorText(refused)}); asking the same server for ${MODERN_REVISION}`);
  const second = leased.lease();
  negotiate('modern');
  try {
    await client.connect(second, { timeout: o.timeoutMs });
    second.commit();
    return { version: version('modern'), why: 'modernOnly', refused: errorText(refused) };
  } catch (err) {
    await leased.close().catch(() => undefined);
    // A sign-in challenge to the modern request is the server's answer: sign in, then start again.
    if ((!(err instanceof ProtocolError) && !(err instanceof SdkError)) || isAuthChallenge(err)) throw err;
    throw new EraStepError(`${STEP.legacy} failed: ${errorText(refused)}; ${STEP.modern} failed: ${errorText(err)}`, refused, {
      cause: err,
    });
  }
}
