import {
  Client,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type CallToolRequestOptions,
  type CallToolResult,
  type ClientContext,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type Result,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { answerFault, faultResponse } from './mrtr/answerShape';
import type { InputRequired } from './mrtr/inputRounds';

export type RawRequestHandler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;

/** Marks a `tools/call` leg whose `input_required` round {@link HostClient.callTool} hands back itself. */
const HAND_BACK_ROUND = Symbol('handBackRound');

/** Carries a round out of `Client.callTool` past its output-schema check (see {@link HostClient.callTool}). */
class RoundInTransit extends Error {
  constructor(readonly round: InputRequired) {
    super('input_required round in transit (never shown)');
  }
}

/** What `Client._resolveNonCompleteResult` is given (the SDK does not export the flow's type). */
interface NonComplete {
  readonly inputRequests: Record<string, unknown>;
  readonly requestState?: string;
  readonly _meta?: unknown;
}

/**
 * The SDK client, with three corrections:
 * - pushed `elicitation/create` and `sampling/createMessage` (2025 servers) are handed to us raw. `Client` wraps that handler in
 *   its own zod validation, which answers a malformed request with a zod dump before the broker
 *   sees it; the broker checks the params itself and answers -32602 naming the property and the
 *   reason. `_wrapHandler` is the SDK's documented hook for subclasses.
 * - an `input_required` round of a tool with an `outputSchema` comes back as a round (callTool).
 * - a 2026-07-28 answer that is both a round and a result, or a round that asks nothing, fails
 *   its request with one clear error (mrtr/answerShape.ts) instead of going on half-read.
 */
export class HostClient extends Client {
  /** Requests whose params we check ourselves (elicitation, sampling): handed over raw. */
  // Filled by the setters below; `Client`'s constructor already calls `_wrapHandler`, before fields exist.
  private raw: Map<string, RawRequestHandler> | undefined;
  /** The level a 2026-07-28 request carries in `_meta` (capabilities/logging.ts); none: the key is left out. */
  logLevel: (() => LoggingLevel | undefined) | undefined;

  /** 2026-07-28: every request's `_meta` envelope also carries our log level (SEP-2575). */
  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    const level = envelope ? this.logLevel?.() : undefined;
    return envelope && level ? { ...envelope, [LOG_LEVEL_META_KEY]: level } : envelope;
  }

  setElicitationHandler(handler: RawRequestHandler): void {
    (this.raw ??= new Map()).set('elicitation/create', handler);
    // Registers the method (and checks we declare the capability); the hook below swaps the handler.
    this.setRequestHandler('elicitation/create', () => ({ action: 'cancel' }));
  }

  /** `sampling/createMessage` raw, like elicitation: the sampling broker answers -32602 with its own reasons. */
  setSamplingHandler(handler: RawRequestHandler): void {
    (this.raw ??= new Map()).set('sampling/createMessage', handler);
    this.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: '' }));
  }

  protected override _wrapHandler(method: string, handler: RawRequestHandler): RawRequestHandler {
    return this.raw?.get(method) ?? super._wrapHandler(method, handler);
  }

  /**
   * SDK behaviour worked around here (@modelcontextprotocol/client 2.4.0): `Client.callTool` checks
   * whatever `request()` returned against the tool's `outputSchema`, rounds included. Under
   * `allowInputRequired: true` a round has no `structuredContent`, so a tool that declares an
   * output schema fails every round with "Tool X has an output schema but did not return structured
   * content" and can never ask anything. The upstream fix belongs in `Client.callTool`
   * (packages/client/src/client/client.ts upstream; here node_modules/@modelcontextprotocol/client/
   * dist/public-CvV4ZHkX.mjs, `async callTool(params, options)`, and public-C-9H-ftO.cjs): its
   * `if (validator) { ... }` block after `this.request({ method: 'tools/call', ... })` should be
   * skipped when `isInputRequiredResult(result)` (the SDK's own guard, exported from the package).
   *
   * Until then the leg goes out without `allowInputRequired`, so the SDK hands its round to the
   * protected `_resolveNonCompleteResult` hook (below) instead of returning it; the hook throws it
   * past the check and we return it here. A complete result takes the SDK's path unchanged: same
   * request, same header mirroring, same output-schema check.
   */
  override async callTool(params: Parameters<Client['callTool']>[0], options?: CallToolRequestOptions): Promise<CallToolResult> {
    if (options?.allowInputRequired !== true) return super.callTool(params, options);
    try {
      return await super.callTool(params, { ...options, allowInputRequired: false, [HAND_BACK_ROUND]: true } as CallToolRequestOptions);
    } catch (err) {
      if (err instanceof RoundInTransit) return err.round as unknown as CallToolResult;
      throw err;
    }
  }

  protected override _resolveNonCompleteResult<T extends StandardSchemaV1>(
    decoded: { kind: 'input_required' } & NonComplete,
    flow: { request: { method: string }; options: unknown },
  ): Promise<unknown> {
    const marked =
      typeof flow.options === 'object' && flow.options !== null && (flow.options as Record<symbol, unknown>)[HAND_BACK_ROUND] === true;
    if (!marked || flow.request.method !== 'tools/call') return super._resolveNonCompleteResult<T>(decoded, flow as never);
    // The value the SDK itself returns under allowInputRequired (its manualInputRequiredValue).
    const round: InputRequired & { _meta?: unknown } = {
      resultType: 'input_required',
      inputRequests: decoded.inputRequests,
      ...(decoded.requestState !== undefined ? { requestState: decoded.requestState } : {}),
      ...(decoded._meta !== undefined ? { _meta: decoded._meta } : {}),
    };
    return Promise.reject(new RoundInTransit(round));
  }

  /** Every response passes here first: an answer that is both round and result fails its request. */
  protected override _onresponse(response: JSONRPCResponse): void {
    const fault = 'result' in response ? answerFault(response.result) : undefined;
    super._onresponse(fault && response.id !== undefined ? faultResponse(response.id, fault) : response);
  }
}
