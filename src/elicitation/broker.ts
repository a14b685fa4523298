/**
 * The elicitation broker: every `elicitation/create` from every server (and every request handed
 * to us through the public API) passes through here. It checks the request, applies policy and
 * the rate limit, queues it so one prompt is on screen at a time, presents it, checks the answer
 * with the one validator and settles exactly once. The UI is a `Presenter`.
 */
import type { ElicitResult } from '@modelcontextprotocol/client';
import type { AnswerContent, FormModel } from '../shared/fieldModel';
import { buildReply } from './form/validator';
import { formForDisplay, formWarnings } from './safety/text';
import { analyseUrl } from './safety/urlAnalysis';
import type { AskAnswer, Presenter, FormAnswer, UrlAnswer } from './presenter';
import type { Asker } from './asker';
import type { GateDecision } from './policy/policy';
import { ElicitationQueue, type Ticket, type CompletionOutcome } from './queue/elicitationQueue';
import type { BrowserStep, DecidedBy, ElicitationAction } from './outcome';
import { abortedBy } from './callCancel';
import type { AnswerMemory } from './memory/answerMemory';
import type { ElicitationSink, HandleExtra } from './sink';
import { checkRequest, type CheckedRequest, type PreparedForm, type PreparedUrl } from './request/checkRequest';
import { KEEP_ALIVE_MS, startKeepAlive } from './request/keepAlive';

export type { ElicitationSink, HandleExtra } from './sink';

export interface BrokerDeps {
  readonly presenter: Presenter;
  /** `count: false` decides by policy alone: the rate limit is neither checked nor charged. */
  readonly gate: (server: string, count?: boolean) => GateDecision;
  readonly settings: () => {
    readonly sensitiveFields: 'warn' | 'decline';
    readonly allowHttpLoopback: boolean;
    readonly urlExpiryMs: number;
  };
  /** `addSecret`: answers to secret-like fields never reach the log afterwards, echoed or not. */
  readonly log: { info(m: string): void; warn(m: string): void; addSecret?(value: string): void };
  readonly now?: () => number;
  /** Interval of keep-alive progress notifications while the user answers. */
  readonly keepAliveMs?: number;
  /** Remembered answers (memory/): without it nothing is remembered or answered from memory. */
  readonly memory?: AnswerMemory;
}

function withDefaults(form: FormModel, content: AnswerContent): AnswerContent {
  const out: AnswerContent = { ...content };
  for (const f of form.fields) {
    if (out[f.key] === undefined && f.default !== undefined) {
      out[f.key] = Array.isArray(f.default) ? [...(f.default as readonly string[])] : (f.default as string | number | boolean);
    }
  }
  return out;
}

export class ElicitationBroker implements ElicitationSink {
  readonly queue: ElicitationQueue;
  private nextId = 1;

  constructor(private readonly deps: BrokerDeps) {
    this.queue = new ElicitationQueue(deps.now ?? Date.now);
  }

  /** Check, gate, ask, queue, present the form or the url, settle: each step below is one of these. */
  async handle(asker: Asker, rawParams: unknown, extra: HandleExtra): Promise<ElicitResult> {
    const checked = checkRequest(asker, rawParams, {
      log: this.deps.log,
      remembers: this.deps.memory !== undefined,
      started: this.now(),
      nextId: () => `e${this.nextId++}`,
    });
    const round = extra.round;
    // Several requests of one round are shown in sequence: the prompt itself says which one this is.
    const req: CheckedRequest = round
      ? { ...checked, asker: round.total > 1 ? { ...asker, position: { index: round.index, total: round.total } } : asker, round }
      : checked;
    // A block always wins over memory. The rate limit does not: it keeps prompts from flooding the
    // user, and an answer from memory prompts no one (a repeat shows one note at most).
    if (this.gate(req, false) === 'decline') return { action: 'decline' };
    const recalled = this.answerFromMemory(req);
    if (recalled) return recalled;
    const gate = this.gate(req);
    if (gate === 'decline') return { action: 'decline' };
    // From here on the user may take a while (the `ask` notification too): keep the server waiting.
    const keepAlive = startKeepAlive(req.params, extra, this.deps.keepAliveMs ?? KEEP_ALIVE_MS, (m) => this.deps.log.warn(m));
    // Listed from now on, the `ask` notification's wait included: counted, and settled from the list.
    const ticket = this.enlist(req, gate === 'ask', extra);
    try {
      if (gate === 'ask') {
        const refused = await this.askPermission(req, ticket, extra);
        if (refused) return refused;
      }
      return await this.queueAndPresent(req, ticket, extra);
    } finally {
      this.queue.release(ticket);
      clearInterval(keepAlive);
    }
  }

  /** Policy, the secret-field rule and the rate limit: decided before anything reaches the user. */
  private gate(req: CheckedRequest, count = true): GateDecision['outcome'] {
    const server = req.asker.name;
    if (req.secretKeys.length > 0 && this.deps.settings().sensitiveFields === 'decline') {
      this.deps.log.info(`[${server}] declined: fields look like secrets (${req.secretKeys.join(', ')})`);
      this.finish(req, 'decline', 'policy');
      return 'decline';
    }
    const gate = this.deps.gate(server, count);
    if (gate.outcome === 'decline') {
      this.deps.log.info(`[${server}] declined by ${gate.decidedBy === 'policy' ? 'policy (blocked)' : 'rate limit'}`);
      if (gate.decidedBy === 'policy') this.deps.presenter.notifyBlocked(req.asker);
      else if (gate.firstInWindow) this.deps.presenter.notifyRateLimited(req.asker, gate.windowCount, gate.windowSeconds);
      this.finish(req, 'decline', gate.decidedBy);
    }
    return gate.outcome;
  }

  /**
   * The same question (server, exact message, schema) answered with "remember" before: the server
   * gets exactly the content the user sent then, the record says `memory`, and a note tells the
   * user, with Undo. A remembered answer the form no longer accepts is forgotten and the user asked.
   */
  private answerFromMemory(req: CheckedRequest): ElicitResult | undefined {
    const { memory } = this.deps;
    if (!memory || req.fingerprint === undefined || req.prepared.kind !== 'form') return undefined;
    const remembered = memory.recall(req.asker.name, req.fingerprint);
    if (!remembered) return undefined;
    if (!buildReply(req.prepared.form, remembered.content).ok) {
      this.deps.log.warn(`[${req.asker.name}] a remembered answer no longer fits its form; forgotten, asking the user`);
      void memory.forget(remembered.fingerprint);
      return undefined;
    }
    const content = { ...remembered.content };
    this.deps.log.info(`[${req.asker.name}] answered from memory (${remembered.scope})`);
    this.finish(req, 'accept', 'memory', content);
    this.deps.presenter.notifyAnsweredFromMemory({ asker: req.asker, message: req.message.text, fingerprint: remembered.fingerprint });
    return { action: 'accept', content };
  }

  private enlist(req: CheckedRequest, asking: boolean, extra: HandleExtra): Ticket {
    const { prepared } = req;
    return this.queue.enter({
      id: req.id,
      asker: req.asker,
      mode: req.mode,
      message: req.message.text,
      signal: extra.signal,
      asking,
      ...(prepared.kind === 'url' ? { elicitationId: prepared.elicitationId } : {}),
      ...(extra.round ? { round: extra.round } : {}),
    });
  }

  /** The `ask` policy: asked before queueing, so the notification takes no focus and a "no" costs the queue nothing. */
  private async askPermission(req: CheckedRequest, ticket: Ticket, extra: HandleExtra): Promise<ElicitResult | undefined> {
    const answer: AskAnswer = await this.deps.presenter.askPermission(
      { id: req.id, asker: req.asker, message: req.message.text },
      ticket.controller.signal,
    );
    // The server cancelled, or the user settled it from the pending list, while the notification waited.
    const settled = this.settledFromOutside(req, ticket, extra, false);
    if (settled) return settled;
    if (answer === 'answer') return undefined;
    const action = answer === 'dismissed' ? 'cancel' : 'decline';
    this.finish(req, action, answer === 'block' ? 'policy' : 'user');
    return { action };
  }

  /** One prompt on screen at a time: waits its turn, then shows the form or the url consent. */
  private async queueAndPresent(req: CheckedRequest, ticket: Ticket, extra: HandleExtra): Promise<ElicitResult> {
    const { prepared } = req;
    const turn = await this.queue.turn(ticket);
    if (turn !== 'go') {
      this.finish(req, turn, ticket.decidedBy ?? 'user');
      return { action: turn };
    }
    return prepared.kind === 'form'
      ? await this.presentForm(req, prepared, ticket, extra)
      : await this.presentUrl(req, prepared, ticket, extra);
  }

  private async presentForm(req: CheckedRequest, prepared: PreparedForm, ticket: Ticket, extra: HandleExtra): Promise<ElicitResult> {
    const { form } = prepared;
    // The widgets get sanitised, length-capped texts; the reply is still built from `form`.
    const display = formForDisplay(form);
    const answer: FormAnswer = await this.deps.presenter.presentForm(
      {
        id: req.id,
        asker: req.asker,
        message: req.message.text,
        messageTruncated: req.message.truncated,
        form: display.form,
        warnings: [...display.notes, ...formWarnings(req.rawMessage, form)],
        canRemember: req.fingerprint !== undefined,
      },
      ticket.controller.signal,
      { setAside: (aside) => this.queue.setAside(ticket, aside) },
    );
    const settled = this.settledFromOutside(req, ticket, extra, true);
    if (settled) return settled;
    if (answer.action !== 'accept') {
      this.finish(req, answer.action, 'user');
      return { action: answer.action };
    }
    // The final check: a reply that fails validation is never sent.
    const reply = buildReply(form, answer.content);
    if (!reply.ok) {
      this.deps.log.warn(`[${req.asker.name}] answer failed final validation: ${JSON.stringify(reply.errors)}`);
      this.finish(req, 'cancel', 'user');
      return { action: 'cancel' };
    }
    // We declare `form.applyDefaults`: keys the user left out get their schema default.
    const content = withDefaults(form, reply.content);
    this.finish(req, 'accept', 'user', content);
    if (answer.remember && req.fingerprint !== undefined) {
      // Exactly what goes to the server now is what it gets from memory later.
      void this.deps.memory?.remember(
        {
          fingerprint: req.fingerprint,
          server: req.asker.name,
          message: req.message.text,
          fieldKeys: req.fieldKeys,
          content,
          savedAt: this.now(),
        },
        answer.remember,
      );
      this.deps.log.info(`[${req.asker.name}] answer remembered (${answer.remember})`);
    }
    return { action: 'accept', content };
  }

  private async presentUrl(req: CheckedRequest, prepared: PreparedUrl, ticket: Ticket, extra: HandleExtra): Promise<ElicitResult> {
    const analysis = analyseUrl(prepared.url, { allowHttpLoopback: this.deps.settings().allowHttpLoopback });
    const answer: UrlAnswer = await this.deps.presenter.presentUrl(
      { id: req.id, asker: req.asker, message: req.message.text, url: prepared.url, analysis },
      ticket.controller.signal,
    );
    const settled = this.settledFromOutside(req, ticket, extra, true);
    if (settled) return settled;
    const browser = answer.action === 'decline' ? undefined : answer.browser;
    if (answer.action === 'accept' && analysis.verdict !== 'block') {
      this.queue.awaitCompletion(ticket, this.deps.settings().urlExpiryMs);
      this.finish(req, 'accept', 'user', undefined, browser);
      return { action: 'accept' };
    }
    const action = answer.action === 'accept' ? 'decline' : answer.action;
    this.finish(req, action, analysis.verdict === 'block' ? 'policy' : 'user', undefined, browser);
    return { action };
  }

  /**
   * The reply when the server cancelled, or the request was settled from the list, while the prompt
   * was open. A prompt the user was looking at (`shown`) closed because the server withdrew it:
   * the user is told, or it would look as if it vanished (a disconnect has its own notice).
   */
  private settledFromOutside(req: CheckedRequest, ticket: Ticket, extra: HandleExtra, shown: boolean): ElicitResult | undefined {
    const cancelled = this.cancelledOutcome(ticket, extra);
    if (!cancelled) return undefined;
    if (shown && ticket.decidedBy === 'serverCancel') this.deps.presenter.notifyServerCancelled(req.asker);
    if (shown && ticket.decidedBy === 'callCancel') this.deps.presenter.notifyCallCancelled(req.asker);
    this.finish(req, cancelled, ticket.decidedBy ?? 'user');
    return { action: cancelled };
  }

  /** Records the outcome once, for the history view and the audit log. */
  private finish(
    req: CheckedRequest,
    action: ElicitationAction,
    decidedBy: DecidedBy,
    content?: AnswerContent,
    browser?: BrowserStep,
  ): void {
    // Before the reply goes out (and is traced), and for any later echo in a tool result or stderr.
    for (const key of content ? req.secretKeys : []) {
      const v = content?.[key];
      for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined && one !== '') this.deps.log.addSecret?.(String(one));
    }
    this.queue.recordFinished({
      id: req.id,
      asker: req.asker,
      mode: req.mode,
      // The history view and the audit show this: the sanitised, length-capped text.
      message: req.message.text,
      fieldKeys: req.fieldKeys,
      secretKeys: req.secretKeys,
      action,
      decidedBy,
      durationMs: this.now() - req.started,
      at: new Date(),
      ...(req.prepared.kind === 'url' ? { url: req.prepared.url } : {}),
      ...(content ? { content } : {}),
      ...(browser ? { browser } : {}),
      ...(req.round ? { round: req.round } : {}),
    });
  }

  /**
   * A policy change applies to requests already waiting, not only to new ones: queued requests of
   * a now-blocked server are declined, recorded as the policy's decision, and so are those still
   * waiting on the `ask` notification. The one with the turn stays: the user is looking at it (or
   * set it aside) and can still answer or decline it.
   */
  declineQueuedFromBlocked(isBlocked: (server: string) => boolean): void {
    for (const entry of this.queue.list()) {
      if ((entry.state === 'queued' || entry.state === 'asking') && isBlocked(entry.asker.name)) {
        this.queue.settle(entry.id, 'decline', 'policy');
      }
    }
  }

  /** When the server or the user (from the pending list) settled this request from outside. */
  private cancelledOutcome(ticket: Ticket, extra: HandleExtra): 'cancel' | 'decline' | undefined {
    if (extra.signal.aborted) {
      ticket.decidedBy ??= abortedBy(extra.signal);
      return 'cancel';
    }
    // The queue aborted the ticket (settled from the list, or the server disconnected, which
    // happens before the SDK aborts `extra.signal` when we stop it): its decidedBy is already set.
    if (ticket.controller.signal.aborted) return ticket.external ?? 'cancel';
    return undefined;
  }

  complete(name: string, elicitationId: string): void {
    const entry = this.queue.complete(name, elicitationId);
    if (!entry) {
      // The spec: ignore unknown, foreign or already-completed ids.
      this.deps.log.info(
        `[${name}] ignored notifications/elicitation/complete for unknown id ${JSON.stringify(elicitationId.slice(0, 100))}`,
      );
      return;
    }
    this.deps.log.info(`[${name}] url elicitation ${elicitationId} completed`);
    this.deps.presenter.notifyUrlCompleted(entry.asker);
  }

  serverGone(name: string): void {
    // A crash reports the loss twice (the close, then the restart logic) before the dropped
    // entries are released: tell the user once, for a prompt not already dropped.
    const onScreenNotYetDropped = this.queue
      .list()
      .find((e) => e.asker.name === name && e.state === 'onScreen' && e.payload.ticket.decidedBy !== 'disconnect');
    this.queue.dropServer(name);
    if (onScreenNotYetDropped) this.deps.presenter.notifyServerGone(onScreenNotYetDropped.asker);
  }

  /** Waits until a url elicitation completes, is marked done, dismissed or expires. */
  waitForCompletion(name: string, elicitationId: string): Promise<CompletionOutcome> {
    return this.queue.waitForCompletion(name, elicitationId);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}
