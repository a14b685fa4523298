/**
 * The elicitation broker: every `elicitation/create` from every server (and every request handed
 * to us through the public API) passes through here. It checks the request, applies policy and
 * the rate limit, queues it so one prompt is on screen at a time, presents it, checks the answer
 * with the one validator and settles exactly once. No `vscode` import: the UI is a `Presenter`.
 */
import { ProtocolError as McpError, ProtocolErrorCode as ErrorCode, type ElicitResult, type Implementation } from '@modelcontextprotocol/client';
import type { AnswerContent, FormModel } from '../shared/fieldModel';
import { normaliseRequestedSchema } from './form/schema';
import { buildReply } from './form/validator';
import { formForDisplay, formWarnings, sanitiseForDisplay, MAX_LABEL_CHARS, MAX_MESSAGE_CHARS } from './safety/text';
import { analyseUrl } from './safety/url';
import type { Asker, AskAnswer, Presenter, FormAnswer, UrlAnswer } from './presenter';
import type { GateDecision } from './policy/policy';
import { ElicitationQueue, type Ticket, type CompletionOutcome } from './queue/elicitationQueue';
import type { DecidedBy, ElicitationAction } from './outcome';

export interface ServerIdentity {
  readonly name: string;
  readonly serverInfo: Implementation | undefined;
}

export interface HandleExtra {
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  readonly sendProgress?: (token: string | number, progress: number, message?: string) => Promise<void>;
}

/** What a Connection needs from the broker. */
export interface ElicitationSink {
  /** `params` is the raw JSON of the request: the broker validates it (malformed → -32602). */
  handle(server: ServerIdentity, params: unknown, extra: HandleExtra): Promise<ElicitResult>;
  complete(server: string, elicitationId: string): void;
  serverGone(server: string): void;
}

export interface BrokerDeps {
  readonly presenter: Presenter;
  readonly gate: (server: string) => GateDecision;
  readonly settings: () => { readonly sensitiveFields: 'warn' | 'decline'; readonly allowHttpLoopback: boolean; readonly urlExpiryMs: number };
  readonly log: { info(m: string): void; warn(m: string): void };
  readonly now?: () => number;
  /** Interval of keep-alive progress notifications while the user answers. */
  readonly keepAliveMs?: number;
}

const KEEP_ALIVE_MS = 15_000;

function invalid(reason: string): McpError {
  return new McpError(ErrorCode.InvalidParams, reason);
}

function withDefaults(form: FormModel, content: AnswerContent): AnswerContent {
  const out: AnswerContent = { ...content };
  for (const f of form.fields) {
    if (out[f.key] === undefined && f.default !== undefined) out[f.key] = Array.isArray(f.default) ? [...(f.default as readonly string[])] : (f.default as string | number | boolean);
  }
  return out;
}

function askerOf(s: ServerIdentity): Asker {
  const info = s.serverInfo;
  // serverInfo is the server's own claim, shown on every prompt: same rules as any server text.
  return { name: s.name, info: info ? sanitiseForDisplay(`${info.title ?? info.name} ${info.version}`.trim(), MAX_LABEL_CHARS).text : undefined };
}

export class ElicitationBroker implements ElicitationSink {
  readonly queue: ElicitationQueue;
  private nextId = 1;

  constructor(private readonly deps: BrokerDeps) {
    this.queue = new ElicitationQueue(deps.now ?? Date.now);
  }

  async handle(server: ServerIdentity, rawParams: unknown, extra: HandleExtra): Promise<ElicitResult> {
    const started = this.now();
    const asker = askerOf(server);
    if (typeof rawParams !== 'object' || rawParams === null || Array.isArray(rawParams)) {
      this.deps.log.warn(`[${server.name}] rejected elicitation/create (-32602): params must be an object`);
      throw invalid('params must be an object');
    }
    const params = rawParams as Record<string, unknown>;
    // Only an absent mode means form; `null` or any other value is not a mode we know.
    const mode = params['mode'] === undefined ? 'form' : params['mode'];
    if (mode !== 'form' && mode !== 'url') {
      this.deps.log.warn(`[${server.name}] rejected elicitation/create (-32602): unsupported mode`);
      throw invalid(`mode: unsupported elicitation mode ${JSON.stringify(mode).slice(0, 40)} (this client supports "form" and "url")`);
    }
    if (typeof params['message'] !== 'string') {
      this.deps.log.warn(`[${server.name}] rejected elicitation/create (-32602): message is not a string`);
      throw invalid('message: must be a string');
    }
    const rawMessage = params['message'];
    const message = sanitiseForDisplay(rawMessage, MAX_MESSAGE_CHARS);
    const id = `e${this.nextId++}`;

    // 1. Is the request well-formed? Nothing is shown for a request we would reject.
    let prepared: { kind: 'form'; form: ReturnType<typeof normaliseRequestedSchema> } | { kind: 'url'; url: string; elicitationId: string };
    if (mode === 'form') {
      const form = normaliseRequestedSchema(params['requestedSchema']);
      if (!form.ok) {
        this.deps.log.warn(`[${server.name}] rejected elicitation/create (-32602): ${form.error}`);
        throw invalid(form.error);
      }
      prepared = { kind: 'form', form };
    } else {
      const url = params['url'];
      const elicitationId = params['elicitationId'];
      if (typeof url !== 'string' || typeof elicitationId !== 'string' || elicitationId.length === 0) {
        this.deps.log.warn(`[${server.name}] rejected url elicitation (-32602): url and elicitationId are required`);
        throw invalid(typeof url !== 'string' ? 'url: must be a string in url mode' : 'elicitationId: must be a non-empty string in url mode');
      }
      prepared = { kind: 'url', url, elicitationId };
    }

    const fieldKeys = prepared.kind === 'form' && prepared.form.ok ? prepared.form.form.fields.map((f) => f.key) : [];
    const secretKeys = prepared.kind === 'form' && prepared.form.ok ? prepared.form.form.fields.filter((f) => f.secretLike).map((f) => f.key) : [];
    const finish = (action: ElicitationAction, decidedBy: DecidedBy, content?: AnswerContent): void => {
      this.queue.recordFinished({
        id,
        server: server.name,
        mode,
        // The history view and the audit show this: the sanitised, length-capped text.
        message: message.text,
        fieldKeys,
        secretKeys,
        action,
        decidedBy,
        durationMs: this.now() - started,
        at: new Date(),
        ...(prepared.kind === 'url' ? { url: prepared.url } : {}),
        ...(content ? { content } : {}),
      });
    };

    // 2. Policy and rate limit: decided before anything reaches the user.
    if (prepared.kind === 'form' && secretKeys.length > 0 && this.deps.settings().sensitiveFields === 'decline') {
      this.deps.log.info(`[${server.name}] declined: fields look like secrets (${secretKeys.join(', ')})`);
      finish('decline', 'policy');
      return { action: 'decline' };
    }
    const gate = this.deps.gate(server.name);
    if (gate.outcome === 'decline') {
      this.deps.log.info(`[${server.name}] declined by ${gate.decidedBy === 'policy' ? 'policy (blocked)' : 'rate limit'}`);
      if (gate.decidedBy === 'policy') this.deps.presenter.notifyBlocked(server.name);
      else if (gate.firstInWindow) this.deps.presenter.notifyRateLimited(server.name, gate.windowCount, gate.windowSeconds);
      finish('decline', gate.decidedBy);
      return { action: 'decline' };
    }

    // From here on the user may take a while (the `ask` notification too): keep the server waiting.
    const keepAlive = this.startKeepAlive(params, extra);
    if (gate.outcome === 'ask') {
      // Asked before queueing: the notification takes no focus, and a "no" costs the queue nothing.
      let answer: AskAnswer | undefined;
      try {
        answer = await this.deps.presenter.askPermission(asker, message.text, extra.signal);
      } finally {
        if (extra.signal.aborted || answer !== 'answer') clearInterval(keepAlive);
      }
      if (extra.signal.aborted) {
        finish('cancel', 'serverCancel');
        return { action: 'cancel' };
      }
      if (answer !== 'answer') {
        const action = answer === 'dismissed' ? 'cancel' : 'decline';
        finish(action, answer === 'block' ? 'policy' : 'user');
        return { action };
      }
    }

    const { ticket, turn: turnPromise } = this.queue.enter({ id, server: server.name, mode, message: message.text, signal: extra.signal, ...(prepared.kind === 'url' ? { elicitationId: prepared.elicitationId } : {}) });
    try {
      const turn = await turnPromise;
      if (turn !== 'go') {
        finish(turn, ticket.decidedBy ?? 'user');
        return { action: turn };
      }
      if (prepared.kind === 'form' && prepared.form.ok) {
        const { form, warnings } = prepared.form;
        // The widgets get sanitised, length-capped texts; the reply is still built from `form`.
        const display = formForDisplay(form);
        const answer: FormAnswer = await this.deps.presenter.presentForm(
          { id, asker, message: message.text + (message.truncated ? ' …' : ''), form: display.form, warnings: [...display.notes, ...warnings.map((w) => sanitiseForDisplay(w, MAX_MESSAGE_CHARS).text), ...formWarnings(rawMessage, form)] },
          ticket.controller.signal,
        );
        const cancelled = this.cancelledOutcome(ticket, extra);
        if (cancelled) {
          finish(cancelled, ticket.decidedBy ?? 'user');
          return { action: cancelled };
        }
        if (answer.action !== 'accept') {
          finish(answer.action, 'user');
          return { action: answer.action };
        }
        // The final check: a reply that fails validation is never sent.
        const reply = buildReply(form, answer.content);
        if (!reply.ok) {
          this.deps.log.warn(`[${server.name}] answer failed final validation: ${JSON.stringify(reply.errors)}`);
          finish('cancel', 'user');
          return { action: 'cancel' };
        }
        // We declare `form.applyDefaults`: keys the user left out get their schema default.
        const content = withDefaults(form, reply.content);
        finish('accept', 'user', content);
        return { action: 'accept', content };
      }
      if (prepared.kind === 'url') {
        const analysis = analyseUrl(prepared.url, { allowHttpLoopback: this.deps.settings().allowHttpLoopback });
        const answer: UrlAnswer = await this.deps.presenter.presentUrl(
          { id, asker, message: message.text, url: prepared.url, analysis },
          ticket.controller.signal,
        );
        const cancelled = this.cancelledOutcome(ticket, extra);
        if (cancelled) {
          finish(cancelled, ticket.decidedBy ?? 'user');
          return { action: cancelled };
        }
        if (answer.action === 'accept' && analysis.verdict !== 'block') {
          this.queue.awaitCompletion(ticket, this.deps.settings().urlExpiryMs);
          finish('accept', 'user');
          return { action: 'accept' };
        }
        const action = answer.action === 'accept' ? 'decline' : answer.action;
        finish(action, analysis.verdict === 'block' ? 'policy' : 'user');
        return { action };
      }
      throw invalid('unreachable');
    } finally {
      clearInterval(keepAlive);
      this.queue.release(ticket);
    }
  }

  /** When the server or the user (from the pending list) settled this request from outside. */
  private cancelledOutcome(ticket: Ticket, extra: HandleExtra): 'cancel' | 'decline' | undefined {
    if (extra.signal.aborted) {
      ticket.decidedBy ??= 'serverCancel';
      return 'cancel';
    }
    // The queue aborted the ticket (settled from the list, or the server disconnected, which
    // happens before the SDK aborts `extra.signal` when we stop it): its decidedBy is already set.
    if (ticket.controller.signal.aborted) return ticket.external ?? 'cancel';
    return undefined;
  }

  private startKeepAlive(params: Record<string, unknown>, extra: HandleExtra): NodeJS.Timeout | undefined {
    const meta = params['_meta'];
    const token = typeof meta === 'object' && meta !== null ? (meta as { progressToken?: unknown }).progressToken : undefined;
    if ((typeof token !== 'string' && typeof token !== 'number') || !extra.sendProgress) return undefined;
    let n = 0;
    const send = extra.sendProgress;
    return setInterval(() => {
      if (extra.signal.aborted) return;
      send(token, ++n, 'Waiting for the user').catch((e: unknown) => this.deps.log.warn(`keep-alive failed: ${String(e)}`));
    }, this.deps.keepAliveMs ?? KEEP_ALIVE_MS);
  }

  complete(server: string, elicitationId: string): void {
    const entry = this.queue.complete(server, elicitationId);
    if (!entry) {
      // The spec: ignore unknown, foreign or already-completed ids.
      this.deps.log.info(`[${server}] ignored notifications/elicitation/complete for unknown id ${JSON.stringify(elicitationId.slice(0, 100))}`);
      return;
    }
    this.deps.log.info(`[${server}] url elicitation ${elicitationId} completed`);
    this.deps.presenter.notifyUrlCompleted({ name: server, info: undefined });
  }

  serverGone(server: string): void {
    // A crash reports the loss twice (the close, then the restart logic) before the dropped
    // entries are released: tell the user once, for a prompt not already dropped.
    const onScreenNotYetDropped = this.queue.list().some((e) => e.server === server && e.state === 'onScreen' && e.payload.ticket.decidedBy !== 'disconnect');
    this.queue.dropServer(server);
    if (onScreenNotYetDropped) this.deps.presenter.notifyServerGone(server);
  }

  /** Waits until a url elicitation completes, is marked done, dismissed or expires. */
  waitForCompletion(server: string, elicitationId: string): Promise<CompletionOutcome> {
    return this.queue.waitForCompletion(server, elicitationId);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }
}
