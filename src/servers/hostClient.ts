import {
  Client,
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type CallToolRequestOptions,
  type CallToolResult,
  type ClientContext,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type Request,
  type RequestMethod,
  type RequestOptions,
  type Result,
  type ResultTypeMap,
  type StandardSchemaV1,
  type VersionNegotiationOptions,
} from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/parse/definitions';
import type { TransportKind } from './transports';
import { answerFault, faultResponse } from './mrtr/answerShape';
import { TASK_EXTENSION_METHODS, TASKS_EXTENSION, isTaskHandle, isTaskState, taskHandleResponse } from './mrtr/taskFollow';
import type { InputRequired } from './mrtr/inputRounds';
import { ResultChecks, type ResultCodec } from './resultChecks';

export type RawRequestHandler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;

/** Any JSON object: the tasks extension's results are read by mrtr/taskFollow.ts, which checks them itself. */
const ANY_OBJECT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-elicitation-host',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'not an object' }] },
  },
};

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
  /** Hears the id of every response the server sends (the session's questionLinks.ts). */
  onResponse: ((id: string | number) => void) | undefined;
  /** `tools/call`'s result check per era, built once (resultChecks.ts). */
  private resultChecks: ResultChecks | undefined;

  constructor(...args: ConstructorParameters<typeof Client>) {
    super(...args);
    // SDK behaviour worked around here (@modelcontextprotocol/client 2.4.0): its outbound era gate
    // (the private `Protocol._assertOutboundRequestInEra`) stops `tasks/get` and `tasks/cancel` on a
    // 2026-07-28 connection as "2025-11-25 methods", although the tasks extension (SEP-2663) defines
    // them again there; its inbound gate already lets them through (`isExtensionReusedRequestMethod`).
    // The upstream fix belongs in `_assertOutboundRequestInEra` (packages/core): exempt those names
    // as the inbound gate does. Until then the extension's methods pass on a modern connection only.
    const self = this as unknown as { _assertOutboundRequestInEra(codec: unknown, method: string): void };
    const gate = self._assertOutboundRequestInEra.bind(this);
    self._assertOutboundRequestInEra = (codec, method) => {
      if (TASK_EXTENSION_METHODS.has(method) && this.getProtocolEra() === 'modern') return;
      gate(codec, method);
    };
  }

  /**
   * 2026-07-28: every request's `_meta` envelope also carries our log level (SEP-2575), and its
   * client capabilities declare the tasks extension (mrtr/taskFollow.ts) instead of the 2025
   * `tasks` capability, which that revision removed.
   */
  protected override _outboundMetaEnvelope(): Readonly<Record<string, unknown>> | undefined {
    const envelope = super._outboundMetaEnvelope();
    if (!envelope) return envelope;
    const level = this.logLevel?.();
    const declared = envelope[CLIENT_CAPABILITIES_META_KEY];
    const out: Record<string, unknown> = { ...envelope, ...(level ? { [LOG_LEVEL_META_KEY]: level } : {}) };
    if (typeof declared === 'object' && declared !== null) {
      const { tasks: _tasks, ...caps } = declared as Record<string, unknown> & { extensions?: Record<string, unknown> };
      out[CLIENT_CAPABILITIES_META_KEY] = { ...caps, extensions: { ...caps.extensions, [TASKS_EXTENSION]: {} } };
    }
    return out;
  }

  /** One request of the tasks extension (`tasks/get`, `tasks/update`, `tasks/cancel`) on a 2026-07-28 connection. */
  taskRequest(method: string, params: Record<string, unknown>, options?: RequestOptions): Promise<Record<string, unknown>> {
    return this._requestWithSchema({ method, params }, ANY_OBJECT, options);
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
    if (response.id !== undefined) this.onResponse?.(response.id);
    const result = 'result' in response ? response.result : undefined;
    // A task's state (`tasks/get`) may list `inputRequests`: that is the extension's, not a faulty result.
    const fault = isTaskState(result) ? undefined : answerFault(result);
    if (fault && response.id !== undefined) return super._onresponse(faultResponse(response.id, fault));
    // A task handle (tasks extension) is no result kind the SDK knows: it travels as an error to sendLeg.
    if (this.getProtocolEra() === 'modern' && isTaskHandle(result) && response.id !== undefined) {
      return super._onresponse(taskHandleResponse(response.id, result));
    }
    super._onresponse(response);
  }

  /**
   * `tools/call`, the request every agent call makes, with its result check built once per era
   * (resultChecks.ts): the same check, and the same path through the SDK as a request given a
   * result schema (`tools/call` is gated by era on both paths). Anything else, or a request given
   * its own schema, is the SDK's as it was.
   */
  override request<M extends RequestMethod>(
    request: { method: M; params?: Record<string, unknown> },
    options?: RequestOptions,
  ): Promise<ResultTypeMap[M]>;
  override request<T extends StandardSchemaV1>(
    request: Request,
    resultSchema: T,
    options?: RequestOptions,
  ): Promise<StandardSchemaV1.InferOutput<T>>;
  override request(request: Request, schemaOrOptions?: StandardSchemaV1 | RequestOptions, options?: RequestOptions): Promise<unknown> {
    // The SDK's request as called: it tells a schema from options itself (`isStandardSchema`).
    const sdk = (second?: unknown, third?: RequestOptions): Promise<unknown> => super.request(request, second as StandardSchemaV1, third);
    if (request.method !== 'tools/call' || isSchema(schemaOrOptions)) return sdk(schemaOrOptions, options);
    const codec = (this as unknown as { _resolveOutboundCodec(method: string): ResultCodec })._resolveOutboundCodec(request.method);
    const check = (this.resultChecks ??= new ResultChecks()).for(codec, request.method);
    // Not in this era: the SDK's own path refuses it as it did.
    if (!check) return sdk(schemaOrOptions);
    return sdk(check, schemaOrOptions);
  }

  /** The cheapest request the server must answer, for the liveness probe: 2026-07-28 has no `ping`, so `server/discover`. */
  probe(timeoutMs: number): Promise<unknown> {
    return this.getProtocolEra() === 'modern' ? this.discover({ timeout: timeoutMs }) : this.ping({ timeout: timeoutMs });
  }
}

/** Whether `request()`'s second argument is a result schema rather than options (the SDK's `isStandardSchema`). */
function isSchema(value: unknown): value is StandardSchemaV1 {
  if (value === null || value === undefined || (typeof value !== 'object' && typeof value !== 'function')) return false;
  return '~standard' in value && typeof (value as StandardSchemaV1)['~standard']?.validate === 'function';
}

/**
 * The SDK's negotiation mode for a server's `protocolVersion` setting. SSE is the 2024 transport:
 * only 2025-era servers speak it, so it never probes.
 */
export function negotiationFor(choice: ServerDefinition['protocolVersion'], transport: TransportKind): VersionNegotiationOptions {
  if (transport === 'sse' || choice === '2025-11-25') return { mode: 'legacy' };
  if (choice === '2026-07-28') return { mode: { pin: '2026-07-28' } };
  return { mode: 'auto' };
}
