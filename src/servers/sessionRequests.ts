/**
 * The requests a session sends: legs of calls that may ask the user ({@link SessionRequests.sendLeg}),
 * the tasks extension's requests, and the agent gateway's lookups ({@link SessionRequests.relay}),
 * each under its leg deadline and through {@link SessionRequests.protocolFailure}.
 */
import { ProtocolError } from '@modelcontextprotocol/client';
import type { HostClient } from './hostClient';
import { REAL_LEG_CLOCK, runLeg, type LegClock, type LegOptions, type SdkLegOptions } from './legDeadline';
import { MissingCapabilityError, VersionGoneError } from './mrtr/errors';
import { taskHandleOf } from './mrtr/taskFollow';
import type { MrtrMethod } from './mrtr/inputRounds';
import type { RelayedMessage, SessionEnd, SessionLog } from './sessionDeps';
import { isStreamEnded } from './unansweredStreams';

/**
 * A call the server takes this long over, with no progress and no question of its own open,
 * has failed; progress extends it, and an open question stops it (legDeadline.ts).
 */
export const CALL_TIMEOUT_MS = 15 * 60_000;
/** A lookup the server should answer quickly (an open question stops this clock too). */
export const RELAY_TIMEOUT_MS = 60_000;

/** What the requests need of their session. */
export interface RequestsContext {
  readonly name: string;
  readonly log: SessionLog;
  readonly legClock?: LegClock | undefined;
  /** The revision negotiated at connect. */
  protocolVersion(): string | undefined;
  /** Ends the session on its own (a -32022: the server dropped the negotiated revision). */
  end(end: SessionEnd): void;
}

export class SessionRequests {
  constructor(
    private readonly client: HostClient,
    private readonly ctx: RequestsContext,
  ) {}

  /**
   * Sends one leg of a call: a new request with exactly these params. The value is the result or,
   * from a 2026-07-28 server, an `input_required` answer for mrtr/inputRounds.ts to fulfil.
   */
  async sendLeg(method: MrtrMethod, params: Readonly<Record<string, unknown>>, leg: LegOptions, label: string): Promise<unknown> {
    const client = this.client;
    try {
      return await this.timed<unknown>(leg, CALL_TIMEOUT_MS, (o) => {
        const options = { ...o, allowInputRequired: true };
        switch (method) {
          case 'tools/call':
            return client.callTool(params as Parameters<HostClient['callTool']>[0], options);
          case 'prompts/get':
            return client.getPrompt(params as Parameters<HostClient['getPrompt']>[0], options);
          case 'resources/read':
            return client.readResource(params as Parameters<HostClient['readResource']>[0], options);
        }
      });
    } catch (err) {
      // A task handle (tasks extension): the caller follows it (mrtr/taskFollow.ts).
      const handle = taskHandleOf(err);
      if (handle) return handle;
      throw this.protocolFailure(err, label);
    }
  }

  /** One request of the tasks extension (`tasks/get`, `tasks/update`, `tasks/cancel`), answered quickly. */
  async taskRequest(method: string, params: Record<string, unknown>, signal: AbortSignal | undefined): Promise<unknown> {
    try {
      return await this.timed({ signal }, RELAY_TIMEOUT_MS, (o) => this.client.taskRequest(method, params, o));
    } catch (err) {
      throw this.protocolFailure(err, method);
    }
  }

  /**
   * Sends one request as given, for the agent gateway's lookups (lists, completions, log level).
   * Calls that may ask the user go through {@link sendLeg} and the input rounds instead.
   */
  async relay(request: RelayedMessage, leg: LegOptions): Promise<Record<string, unknown>> {
    try {
      return await this.timed(leg, RELAY_TIMEOUT_MS, (o) =>
        this.client.request({ method: request.method as 'tools/list', ...(request.params ? { params: request.params } : {}) }, o),
      );
    } catch (err) {
      throw this.protocolFailure(err, request.method);
    }
  }

  /**
   * Runs one request under its leg deadline (legDeadline.ts, runLeg). On 2026-07-28 a request whose
   * stream ended unanswered is sent once more, as a new request with a new id: that revision has no
   * resumption and requires the client to re-issue it (unansweredStreams.ts).
   */
  private async timed<T>(leg: LegOptions, timeoutMs: number, send: (options: SdkLegOptions) => Promise<T>): Promise<T> {
    const once = (): Promise<T> => runLeg(this.ctx.name, leg, timeoutMs, this.ctx.legClock ?? REAL_LEG_CLOCK, send);
    try {
      return await once();
    } catch (err) {
      if (!isStreamEnded(err) || this.client.getProtocolEra() !== 'modern' || leg.signal?.aborted === true) throw err;
      this.ctx.log.warn('sending that request again, as a new request (2026-07-28 has no resumption)');
      return once();
    }
  }

  /** -32021 and a late -32022 become errors that say what the user can do about them. */
  protocolFailure(err: unknown, label: string): unknown {
    if (!(err instanceof ProtocolError)) return err;
    const name = this.ctx.name;
    const data = err.data as { requiredCapabilities?: unknown; supported?: unknown } | undefined;
    if (err.code === -32021) {
      const caps =
        typeof data?.requiredCapabilities === 'object' && data.requiredCapabilities !== null ? Object.keys(data.requiredCapabilities) : [];
      return new MissingCapabilityError(name, label, caps);
    }
    if (err.code === -32022) {
      // The revision was chosen at connect; a server that drops it since needs a new session.
      const supported = Array.isArray(data?.supported) ? data.supported.filter((v): v is string => typeof v === 'string') : [];
      this.ctx.log.warn(`-32022 on ${label}: the server now supports ${supported.join(', ') || 'no version it named'}; reconnecting`);
      this.ctx.end({ kind: 'versionGone', reason: `the server no longer supports MCP ${this.ctx.protocolVersion() ?? '?'}` });
      return new VersionGoneError(name, label, supported);
    }
    return err;
  }
}
