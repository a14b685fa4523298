/**
 * The sampling broker: every `sampling/createMessage`, pushed by a 2025-11-25 server or asked in a
 * 2026-07-28 `input_required` round, passes through here. It shares with the elicitation broker
 * what the user relies on: the policy and rate limit (one Gatekeeper), the pending list and the
 * one-prompt-at-a-time turn (one ElicitationQueue, whose history feeds the audit log), and the
 * presenter (the consent and the review are forms).
 *
 * Nothing reaches a model without the user's consent and review, unless the user chose to skip
 * them for that server in their own settings (samplingConsent.ts): no elicitation policy counts as
 * consent to spend a model. The server's model preferences only pick among the models the user
 * chose for it (modelChoice.ts).
 */
import { ProtocolError as McpError, ProtocolErrorCode as ErrorCode, type CreateMessageResult } from '@modelcontextprotocol/client';
import type { HandleExtra } from '../elicitation/broker';
import type { GateDecision } from '../elicitation/policy/policy';
import type { Presenter } from '../elicitation/presenter';
import type { Asker } from '../elicitation/asker';
import type { ElicitationQueue, Ticket } from '../elicitation/queue/elicitationQueue';
import type { DecidedBy, ElicitationAction } from '../elicitation/outcome';
import { abortedBy } from '../elicitation/callCancel';
import { MAX_MESSAGE_CHARS, sanitiseForDisplay, type DisplayText } from '../elicitation/safety/text';
import { chooseModel, usableModels, type ModelInfo } from './modelChoice';
import { samplingPath } from './samplingConsent';
import { checkSamplingRequest, textOf, type SamplingRequest } from './samplingRequest';
import { consentForm, editedRequest, reviewForm, reviewedReply, type SamplingWording } from './consentForm';

/** Why no model answered. `noModel`: none is installed; `noPermission`: the user has not let us use it. */
export type ModelFailure = 'noModel' | 'noPermission' | 'blocked' | 'failed';

/** A model could not be used; `detail` is the provider's own text, for the log and the server. */
export class ModelAccessError extends Error {
  constructor(
    readonly failure: ModelFailure,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export interface ModelReply {
  readonly text: string;
}

/** The language models (`vscode.lm` in the extension, a scripted fake in unit tests). */
export interface ModelAccess {
  list(): Promise<readonly ModelInfo[]>;
  /** Throws {@link ModelAccessError} when the model cannot be used. */
  send(model: ModelInfo, request: SamplingRequest, signal: AbortSignal): Promise<ModelReply>;
}

/** The models the user chose per server in a consent (workspace state in the extension). */
export interface ModelMemory {
  /** The ids chosen for `server`, the latest first. */
  chosen(server: string): readonly string[];
  /** The user chose `modelId` for `server`. */
  choose(server: string, modelId: string): void;
}

/** What a session needs: the raw params in, the result or a JSON-RPC error out. */
export interface SamplingSink {
  handle(asker: Asker, params: unknown, extra: HandleExtra): Promise<CreateMessageResult>;
}

export interface SamplingBrokerDeps {
  readonly presenter: Presenter;
  readonly queue: ElicitationQueue;
  readonly gate: (server: string) => GateDecision;
  /**
   * The user (global) value of `mcpElicitation.sampling.skipReview`, never a workspace one: the
   * servers whose samples go to the model without the consent and the review.
   */
  readonly userSkipReview: () => unknown;
  readonly models: ModelAccess;
  readonly memory: ModelMemory;
  readonly wording: SamplingWording;
  /** Tells the user why a server's sample got no model (the server gets the error). */
  readonly notifyModelFailure: (server: string, failure: ModelFailure) => void;
  readonly log: { info(m: string): void; warn(m: string): void };
  readonly now?: () => number;
}

/** The spec's example code for a sample the user turned down. */
export const USER_REJECTED = -1;

interface Pending {
  readonly id: string;
  readonly asker: Asker;
  readonly request: SamplingRequest;
  /** The first message's text, neutralised: the pending list, history and audit show it. */
  readonly summary: DisplayText;
  readonly started: number;
  readonly extra: HandleExtra;
}

export class SamplingBroker implements SamplingSink {
  private nextId = 1;

  constructor(private readonly deps: SamplingBrokerDeps) {}

  /** Check, gate, choose a model, ask (unless the user skips the review for this server), run, review, reply. */
  async handle(server: Asker, rawParams: unknown, extra: HandleExtra): Promise<CreateMessageResult> {
    const request = this.check(server.name, rawParams);
    const first = request.messages[0];
    const p: Pending = {
      id: `s${this.nextId++}`,
      asker: askerOf(server, extra),
      request,
      summary: sanitiseForDisplay(first ? textOf(first) : '', MAX_MESSAGE_CHARS).text,
      started: this.now(),
      extra,
    };
    if (request.ignoredContext) {
      this.deps.log.info(
        `[${server.name}] sampling: includeContext "${request.ignoredContext}" ignored (sampling.context is not declared)`,
      );
    }
    const gate = this.deps.gate(server.name);
    const path = samplingPath(gate.outcome, server.name, this.deps.userSkipReview());
    if (gate.outcome === 'decline') {
      if (gate.decidedBy === 'policy') this.deps.presenter.notifyBlocked(server);
      else if (gate.firstInWindow) this.deps.presenter.notifyRateLimited(server, gate.windowCount, gate.windowSeconds);
      throw this.refused(
        p,
        gate.decidedBy,
        `declined by ${gate.decidedBy === 'policy' ? 'policy (the server is blocked)' : 'the rate limit'}`,
      );
    }
    const models = await this.listModels(p);
    const choice = chooseModel(models, this.deps.memory.chosen(server.name), request.preferences);
    if (!choice) throw this.modelFailure(p, undefined, new ModelAccessError('noModel', 'no language model is available in VS Code'));
    this.deps.log.info(`[${server.name}] sampling: model ${choice.model.id} (${choice.reason}${choice.hint ? ` "${choice.hint}"` : ''})`);
    if (path === 'send') {
      const reply = await this.run(p, choice.model, request, extra.signal);
      this.finish(p, 'accept', 'policy', choice.model.id);
      return result(reply.text, choice.model);
    }
    return this.withConsent(p, models, choice.model, path === 'ask');
  }

  private check(server: string, rawParams: unknown): SamplingRequest {
    const checked = checkSamplingRequest(rawParams);
    if (!checked.ok) {
      this.deps.log.warn(`[${server}] rejected sampling/createMessage (-32602): ${checked.reason}`);
      throw new McpError(ErrorCode.InvalidParams, checked.reason);
    }
    // The VS Code API this extension builds on passes text only; better a clear no than a silent loss.
    const media = checked.request.messages.findIndex((m) => m.content.some((c) => c.type !== 'text'));
    if (media >= 0) {
      const reason = `messages[${media}]: image and audio content cannot be passed to a VS Code language model by this client`;
      this.deps.log.warn(`[${server}] rejected sampling/createMessage (-32602): ${reason}`);
      throw new McpError(ErrorCode.InvalidParams, reason);
    }
    return checked.request;
  }

  /** The models that can answer; the skipped ones are named in the log, so a missing one is explained. */
  private async listModels(p: Pending): Promise<readonly ModelInfo[]> {
    let all: readonly ModelInfo[];
    try {
      all = await this.deps.models.list();
    } catch (err) {
      throw this.modelFailure(p, undefined, err);
    }
    const usable = usableModels(all);
    const skipped = all.filter((m) => !usable.includes(m));
    if (skipped.length > 0) {
      const names = skipped.map((m) => `${m.id} (${m.vendor}, maxInputTokens ${m.maxInputTokens})`).join(', ');
      this.deps.log.info(`[${p.asker.name}] sampling: skipped models that take no input: ${names}`);
    }
    return usable;
  }

  /** In the pending list from here on; holds the one turn from the consent to the review. */
  private async withConsent(p: Pending, models: readonly ModelInfo[], chosen: ModelInfo, ask: boolean): Promise<CreateMessageResult> {
    const { queue, presenter, wording } = this.deps;
    const ticket = queue.enter({
      id: p.id,
      asker: p.asker,
      mode: 'sampling',
      message: p.summary,
      signal: p.extra.signal,
      asking: ask,
      ...(p.extra.round ? { round: p.extra.round } : {}),
    });
    try {
      if (ask) {
        const answer = await presenter.askPermission({ id: p.id, asker: p.asker, message: p.summary }, ticket.controller.signal);
        this.throwIfSettled(p, ticket, false, chosen.id);
        if (answer !== 'answer') {
          throw this.refused(
            p,
            answer === 'block' ? 'policy' : 'user',
            'declined by the user',
            answer === 'dismissed' ? 'cancel' : 'decline',
            chosen.id,
          );
        }
      }
      const turn = await queue.turn(ticket);
      if (turn !== 'go') throw this.refused(p, ticket.decidedBy ?? 'user', 'declined by the user', turn, chosen.id);
      const consent = consentForm(p.request, models, chosen, wording);
      const hidden = consent.firstEditable;
      const asked = await presenter.presentForm(
        {
          id: p.id,
          asker: p.asker,
          message: this.say(
            wording.consent(chosen.name, p.request.messages.length, hidden) +
              (p.request.ignoredContext ? ` ${wording.contextIgnored()}` : ''),
          ),
          form: consent.form,
          warnings: [],
        },
        ticket.controller.signal,
        { setAside: (aside) => queue.setAside(ticket, aside) },
      );
      this.throwIfSettled(p, ticket, true, chosen.id);
      if (asked.action !== 'accept') throw this.refused(p, 'user', 'declined by the user', asked.action, chosen.id);
      const edited = editedRequest(p.request, consent, asked.content);
      const model = models.find((m) => m.id === edited.modelId) ?? chosen;
      this.deps.memory.choose(p.asker.name, model.id);
      const signal = AbortSignal.any([p.extra.signal, ticket.controller.signal]);
      const reply = await this.run(p, model, edited.request, signal, ticket);
      this.throwIfSettled(p, ticket, false, model.id);
      const reviewed = await presenter.presentForm(
        { id: p.id, asker: p.asker, message: this.say(wording.review(model.name)), form: reviewForm(reply.text, wording), warnings: [] },
        ticket.controller.signal,
        { setAside: (aside) => queue.setAside(ticket, aside) },
      );
      this.throwIfSettled(p, ticket, true, model.id);
      if (reviewed.action !== 'accept') throw this.refused(p, 'user', 'the user kept the reply back', reviewed.action, model.id);
      this.finish(p, 'accept', 'user', model.id);
      return result(reviewedReply(reviewed.content), model);
    } finally {
      queue.release(ticket);
    }
  }

  private async run(p: Pending, model: ModelInfo, request: SamplingRequest, signal: AbortSignal, ticket?: Ticket): Promise<ModelReply> {
    try {
      return await this.deps.models.send(model, request, signal);
    } catch (err) {
      if (signal.aborted && ticket) this.throwIfSettled(p, ticket, false, model.id);
      throw this.modelFailure(p, model, err);
    }
  }

  /** The server cancelled, or the user settled it from the pending list, meanwhile. */
  private throwIfSettled(p: Pending, ticket: Ticket, shown: boolean, model: string): void {
    if (p.extra.signal.aborted) {
      const by = abortedBy(p.extra.signal);
      ticket.decidedBy ??= by;
      if (shown && by === 'callCancel') this.deps.presenter.notifyCallCancelled(p.asker);
      else if (shown) this.deps.presenter.notifyServerCancelled(p.asker);
      throw this.refused(p, by, by === 'callCancel' ? 'its call was cancelled' : 'cancelled by the server', 'cancel', model);
    }
    if (ticket.controller.signal.aborted) {
      throw this.refused(p, ticket.decidedBy ?? 'user', 'declined by the user', ticket.external ?? 'cancel', model);
    }
  }

  private refused(p: Pending, decidedBy: DecidedBy, why: string, action: ElicitationAction = 'decline', model?: string): McpError {
    this.deps.log.info(`[${p.asker.name}] sampling ${why}`);
    this.finish(p, action, decidedBy, model);
    return new McpError(USER_REJECTED, `User rejected sampling request: ${why}`);
  }

  private modelFailure(p: Pending, model: ModelInfo | undefined, err: unknown): McpError {
    const failure = err instanceof ModelAccessError ? err.failure : 'failed';
    const detail = err instanceof Error ? err.message : String(err);
    this.deps.log.warn(`[${p.asker.name}] sampling failed (${failure}): ${detail}`);
    this.deps.notifyModelFailure(p.asker.name, failure);
    this.finish(p, 'error', 'user', model?.id);
    const says: Record<ModelFailure, string> = {
      noModel: 'No language model is available in VS Code to answer sampling requests',
      noPermission: 'The user has not allowed this client to use the language model',
      blocked: 'The language model refused the request',
      failed: 'The language model failed',
    };
    return new McpError(ErrorCode.InternalError, `${says[failure]}: ${detail.slice(0, 500)}`, { reason: failure });
  }

  private finish(p: Pending, action: ElicitationAction, decidedBy: DecidedBy, model: string | undefined): void {
    this.deps.queue.recordFinished({
      id: p.id,
      asker: p.asker,
      mode: 'sampling',
      message: p.summary,
      fieldKeys: [],
      secretKeys: [],
      action,
      decidedBy,
      durationMs: this.now() - p.started,
      at: new Date(),
      ...(p.extra.round ? { round: p.extra.round } : {}),
      ...(model !== undefined ? { model } : {}),
    });
  }

  private say(text: string): DisplayText {
    // Model names come from whichever extension provides the model: neutralised like server text.
    return sanitiseForDisplay(text, MAX_MESSAGE_CHARS).text;
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}

function askerOf(s: Asker, extra: HandleExtra): Asker {
  const round = extra.round;
  return { ...s, ...(round && round.total > 1 ? { position: { index: round.index, total: round.total } } : {}) };
}

function result(text: string, model: ModelInfo): CreateMessageResult {
  return { role: 'assistant', content: { type: 'text', text }, model: model.id, stopReason: 'endTurn' };
}
