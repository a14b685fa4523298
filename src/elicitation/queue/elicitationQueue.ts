/**
 * The broker's view of pending elicitations: turn-taking (one prompt on screen at a time, FIFO
 * across servers), settling from outside (the pending list, a disconnect, a server cancel), url
 * elicitations awaiting completion, and the history of finished ones. Storage and ordering are
 * `PendingQueue`'s; this adds the promises.
 */
import { PendingQueue, History, type PendingEntry } from './pendingQueue';
import type { CallRound, DecidedBy, FinishedElicitation, RequestMode } from '../outcome';
import { abortedBy } from '../callCancel';
import { Emitter, type Event } from '../../util/emitter';
import { onAbort } from '../../util/async';
import type { Asker } from '../asker';

export type CompletionOutcome = 'completed' | 'markedDone' | 'dismissed' | 'expired' | 'disconnected';

/** A request's handle while it is pending. */
export interface Ticket {
  readonly id: string;
  /** Aborted to close the open widget: server cancel, disconnect, or settled from the list. */
  readonly controller: AbortController;
  /** Set when the user settled it from the pending list instead of the prompt. */
  external: 'decline' | 'cancel' | undefined;
  decidedBy: DecidedBy | undefined;
}

interface Waiter {
  ticket: Ticket;
  resolveTurn: (r: 'go' | 'decline' | 'cancel') => void;
}

interface Payload {
  ticket: Ticket;
  /** Removes the listener on the request's signal, once the request is over. */
  stopListening: { dispose(): void };
  completion?: { waiters: ((o: CompletionOutcome) => void)[]; timer: ReturnType<typeof setTimeout> | undefined };
}

export type PendingView = PendingEntry<Payload>;

/** An accepted url elicitation that left the list, and how. */
export interface EndedCompletion {
  readonly entry: PendingView;
  readonly outcome: CompletionOutcome;
}

export class ElicitationQueue {
  private readonly pending = new PendingQueue<Payload>();
  readonly history = new History<FinishedElicitation>(50);
  private readonly waiters = new Map<string, Waiter>();
  private readonly finished = new Emitter<FinishedElicitation>();
  private readonly endedCompletion = new Emitter<EndedCompletion>();

  constructor(private readonly now: () => number) {}

  /** The pending list changed. */
  get onDidChange(): Event<void> {
    return this.pending.onDidChange;
  }

  /** An accepted url elicitation left the list: completed, marked done, dismissed, expired or disconnected. */
  readonly onDidEndCompletion = this.endedCompletion.event;

  /** A request was answered or settled, and went into the history. */
  readonly onDidFinish = this.finished.event;

  list(): readonly PendingView[] {
    return this.pending.list();
  }

  get size(): number {
    return this.pending.size;
  }

  /**
   * A question from the asker named `name` is open: queued, asking, on screen, set aside, or awaiting its
   * browser step. The legs of the server's calls stop their timeouts meanwhile (legDeadline.ts).
   */
  hasOpen(name: string): boolean {
    return this.pending.list().some((e) => e.asker.name === name);
  }

  /**
   * Adds a request to the list: `queued`, or `asking` while the `ask` notification waits. The
   * ticket's controller aborts when the server cancels or the request is settled from outside.
   */
  enter(e: {
    id: string;
    asker: Asker;
    mode: RequestMode;
    message: string;
    signal: AbortSignal;
    elicitationId?: string;
    round?: CallRound;
    asking?: boolean;
  }): Ticket {
    const ticket: Ticket = { id: e.id, controller: new AbortController(), external: undefined, decidedBy: undefined };
    // The signal may outlive the request: a 2026-07-28 call's signal spans all its rounds, and an
    // API caller may pass one signal to many requests. The listener goes when the request is over
    // (`release`), so a late abort neither leaks listeners nor touches a finished ticket.
    const stopListening = onAbort(e.signal, () => {
      ticket.decidedBy ??= abortedBy(e.signal);
      this.abortTicket(ticket, 'cancel');
    });
    this.pending.enqueue({
      id: e.id,
      asker: e.asker,
      mode: e.mode,
      message: e.message,
      createdAt: this.now(),
      state: e.asking ? 'asking' : 'queued',
      ...(e.elicitationId ? { elicitationId: e.elicitationId } : {}),
      ...(e.round ? { round: e.round } : {}),
      payload: { ticket, stopListening },
    });
    return ticket;
  }

  /** Resolves 'go' when the request's prompt may be shown, or how it was settled first. An `asking` entry joins the queue now. */
  turn(ticket: Ticket): Promise<'go' | 'decline' | 'cancel'> {
    if (ticket.controller.signal.aborted || !this.pending.get(ticket.id)) return Promise.resolve(ticket.external ?? 'cancel');
    this.pending.admit(ticket.id);
    return new Promise<'go' | 'decline' | 'cancel'>((resolve) => {
      this.waiters.set(ticket.id, { ticket, resolveTurn: resolve });
      this.pump();
    });
  }

  /** The prompt with the turn was hidden without an answer (`true`), or shown again (`false`). */
  setAside(ticket: Ticket, aside: boolean): void {
    this.pending.setAside(ticket.id, aside);
  }

  private pump(): void {
    // Every queued entry has its waiter: `turn` queues it and registers both in one synchronous step.
    const next = this.pending.next();
    if (!next) return;
    const w = this.waiters.get(next.id);
    this.waiters.delete(next.id);
    w?.resolveTurn('go');
  }

  /** The request is over (answered or settled); frees the on-screen slot unless awaiting completion. */
  release(ticket: Ticket): void {
    this.waiters.delete(ticket.id);
    const entry = this.pending.get(ticket.id);
    // Answered (or settled): a url entry awaiting completion stays listed, but the server's
    // request is done, so its cancel no longer concerns the entry.
    entry?.payload.stopListening.dispose();
    if (entry && entry.state !== 'awaitingCompletion') this.pending.remove(ticket.id);
    this.pump();
  }

  private abortTicket(ticket: Ticket, outcome: 'decline' | 'cancel'): void {
    const w = this.waiters.get(ticket.id);
    if (w) {
      this.waiters.delete(ticket.id);
      w.resolveTurn(outcome);
    }
    ticket.controller.abort();
  }

  /**
   * Answers decline or cancel without showing (or by closing) the prompt: from the pending list
   * (the user decided), or because a policy changed while the request waited.
   */
  settle(id: string, action: 'decline' | 'cancel', decidedBy: DecidedBy = 'user'): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    if (entry.state === 'awaitingCompletion') {
      this.endCompletion(entry, 'dismissed');
      return true;
    }
    entry.payload.ticket.external = action;
    entry.payload.ticket.decidedBy = decidedBy;
    this.abortTicket(entry.payload.ticket, action);
    return true;
  }

  /** Settles every entry of the asker named `name` that is not awaiting completion; returns how many. */
  settleServer(name: string, action: 'decline' | 'cancel'): number {
    const ids = this.pending
      .list()
      .filter((e) => e.asker.name === name && e.state !== 'awaitingCompletion')
      .map((e) => e.id);
    for (const id of ids) this.settle(id, action);
    return ids.length;
  }

  /** A disconnect: every entry of that server goes. Returns whether one had the turn (on screen or set aside). */
  dropServer(name: string): boolean {
    let wasOnScreen = false;
    for (const entry of this.pending.list().filter((e) => e.asker.name === name)) {
      if (entry.state === 'onScreen' || entry.state === 'aside') wasOnScreen = true;
      if (entry.state === 'awaitingCompletion') {
        this.endCompletion(entry, 'disconnected');
      } else {
        entry.payload.ticket.decidedBy = 'disconnect';
        this.abortTicket(entry.payload.ticket, 'cancel');
      }
    }
    return wasOnScreen;
  }

  awaitCompletion(ticket: Ticket, expiryMs: number): void {
    const entry = this.pending.get(ticket.id);
    if (!entry) return;
    this.pending.markAwaitingCompletion(ticket.id, entry.elicitationId ?? ticket.id);
    const timer = expiryMs > 0 ? setTimeout(() => this.endCompletion(entry, 'expired'), expiryMs) : undefined;
    entry.payload.completion = { waiters: entry.payload.completion?.waiters ?? [], timer };
  }

  /** `notifications/elicitation/complete`; undefined when the id is unknown here. */
  complete(name: string, elicitationId: string): PendingView | undefined {
    const entry = this.pending.findByElicitationId(name, elicitationId);
    if (!entry || entry.state !== 'awaitingCompletion') return undefined;
    this.endCompletion(entry, 'completed');
    return entry;
  }

  markDone(id: string): void {
    const entry = this.pending.get(id);
    if (entry?.state === 'awaitingCompletion') this.endCompletion(entry, 'markedDone');
  }

  waitForCompletion(name: string, elicitationId: string): Promise<CompletionOutcome> {
    const entry = this.pending.findByElicitationId(name, elicitationId);
    if (!entry || entry.state !== 'awaitingCompletion') return Promise.resolve('dismissed');
    return new Promise((resolve) => {
      entry.payload.completion ??= { waiters: [], timer: undefined };
      entry.payload.completion.waiters.push(resolve);
    });
  }

  private endCompletion(entry: PendingView, outcome: CompletionOutcome): void {
    const c = entry.payload.completion;
    clearTimeout(c?.timer);
    entry.payload.stopListening.dispose();
    this.pending.remove(entry.id);
    this.endedCompletion.fire({ entry, outcome });
    for (const w of c?.waiters.splice(0) ?? []) w(outcome);
  }

  recordFinished(f: FinishedElicitation): void {
    this.history.push(f);
    this.finished.fire(f);
  }

  /** Deactivation: cancel everything still open. */
  cancelAll(): void {
    for (const e of this.pending.list()) {
      if (e.state === 'awaitingCompletion') this.endCompletion(e, 'dismissed');
      else this.settle(e.id, 'cancel');
    }
  }
}
