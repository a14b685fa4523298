/**
 * Elicitations waiting for the user, across all servers, and a short history of finished ones.
 * Requests are shown one at a time, oldest first, so a busy server cannot jump the queue or
 * stack dialogs on top of each other. Change events use the one `Emitter` of util/.
 */
import { Emitter, type Event } from '../../util/emitter';

import type { CallRound, RequestMode } from '../outcome';
import type { Asker } from '../asker';

/** The lifecycle of a pending elicitation. */
export type PendingState =
  /** `ask` policy: waiting on the notification that asks whether to show it; holds no turn yet. */
  | 'asking'
  /** Waiting its turn. */
  | 'queued'
  /** The one request currently presented to the user. */
  | 'onScreen'
  /**
   * Its turn, but its prompt was hidden (Escape, or another quick input took the place): still
   * unanswered, offered again by a notification. It keeps the turn, so no other prompt pops up
   * over whatever the user opened instead.
   */
  | 'aside'
  /** URL mode: the user opened the link; waiting for the server's completion notification. */
  | 'awaitingCompletion';

/** One pending elicitation. `payload` is whatever the UI layer needs to answer it. */
export interface PendingEntry<T> {
  /** Unique within the queue (not the JSON-RPC id, which is only unique per server). */
  readonly id: string;
  readonly asker: Asker;
  readonly mode: RequestMode;
  readonly message: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly state: PendingState;
  /** URL mode: the server's `elicitationId`, which its completion notification refers to. */
  readonly elicitationId?: string;
  /** Set when the request is one round of a 2026-07-28 call. */
  readonly round?: CallRound;
  readonly payload: T;
}

/**
 * What {@link PendingQueue.enqueue} takes. New entries start `queued`, or `asking` under the
 * `ask` policy; a url-mode request may carry its `elicitationId` from the start.
 */
export type NewPendingEntry<T> = Omit<PendingEntry<T>, 'state'> & { readonly state?: 'queued' | 'asking' };

/** The states that hold the one turn: nothing else is shown while an entry is in one. */
function holdsTurn(state: PendingState): boolean {
  return state === 'onScreen' || state === 'aside';
}

/**
 * The queue of pending elicitations. Entries keep arrival order; {@link next} moves the oldest
 * queued entry on screen, and only when nothing else is on screen.
 */
export class PendingQueue<T> {
  // A Map keeps insertion order, and replacing a value keeps the key's place.
  private readonly entries = new Map<string, PendingEntry<T>>();
  private readonly listeners: Emitter<void>;

  /** `onListenerError` hears a listener that threw; the other listeners still run. */
  constructor(onListenerError?: (err: unknown) => void) {
    this.listeners = new Emitter<void>(onListenerError);
  }

  /** Fires after every change. */
  get onDidChange(): Event<void> {
    return this.listeners.event;
  }

  /** Number of entries in any state. */
  get size(): number {
    return this.entries.size;
  }

  /** Adds a request, `queued` unless it says `asking`. Throws if `entry.id` is already present. */
  enqueue(entry: NewPendingEntry<T>): PendingEntry<T> {
    if (this.entries.has(entry.id)) throw new Error(`Pending elicitation ${entry.id} is already queued`);
    const added: PendingEntry<T> = { ...entry, state: entry.state ?? 'queued' };
    this.entries.set(entry.id, added);
    this.listeners.fire();
    return added;
  }

  /** The entry that has the turn (on screen or set aside), if any. */
  current(): PendingEntry<T> | undefined {
    for (const e of this.entries.values()) if (holdsTurn(e.state)) return e;
    return undefined;
  }

  /** `ask` policy: the user chose to answer; the entry now waits its turn in arrival order. */
  admit(id: string): PendingEntry<T> | undefined {
    const e = this.entries.get(id);
    return e?.state === 'asking' ? this.replace(e, { ...e, state: 'queued' }) : undefined;
  }

  /** The prompt of the entry with the turn was hidden (`aside`) or shown again (`onScreen`). */
  setAside(id: string, aside: boolean): PendingEntry<T> | undefined {
    const e = this.entries.get(id);
    if (!e || !holdsTurn(e.state)) return undefined;
    const state = aside ? 'aside' : 'onScreen';
    return e.state === state ? e : this.replace(e, { ...e, state });
  }

  /**
   * Puts the oldest queued entry (from any server) on screen and returns it. Returns
   * undefined if another entry has the turn or nothing is queued.
   */
  next(): PendingEntry<T> | undefined {
    if (this.current()) return undefined;
    for (const e of this.entries.values()) {
      if (e.state === 'queued') return this.replace(e, { ...e, state: 'onScreen' });
    }
    return undefined;
  }

  /**
   * URL mode: the user accepted and opened the link; the entry now waits for the server's
   * `notifications/elicitation/complete` and no longer blocks the screen.
   */
  markAwaitingCompletion(id: string, elicitationId: string): PendingEntry<T> | undefined {
    const e = this.entries.get(id);
    return e && this.replace(e, { ...e, state: 'awaitingCompletion', elicitationId });
  }

  /** Finds the URL-mode entry a completion notification from the asker named `name` refers to. */
  findByElicitationId(name: string, elicitationId: string): PendingEntry<T> | undefined {
    for (const e of this.entries.values()) {
      if (e.asker.name === name && e.elicitationId === elicitationId) return e;
    }
    return undefined;
  }

  /** Looks up an entry by id. */
  get(id: string): PendingEntry<T> | undefined {
    return this.entries.get(id);
  }

  /** Removes an entry that was answered; returns it. */
  finish(id: string): PendingEntry<T> | undefined {
    return this.remove(id);
  }

  /** Removes an entry for any reason (cancelled, timed out…); returns it. */
  remove(id: string): PendingEntry<T> | undefined {
    const e = this.entries.get(id);
    if (!e) return undefined;
    this.entries.delete(id);
    this.listeners.fire();
    return e;
  }

  /**
   * Removes every entry matching `predicate` (say, all of one server on disconnect or when
   * its policy becomes `block`) and returns them in arrival order. Fires one change event.
   */
  removeWhere(predicate: (entry: PendingEntry<T>) => boolean): PendingEntry<T>[] {
    const removed = [...this.entries.values()].filter(predicate);
    for (const e of removed) this.entries.delete(e.id);
    if (removed.length > 0) this.listeners.fire();
    return removed;
  }

  /** All entries in arrival order. */
  list(): PendingEntry<T>[] {
    return [...this.entries.values()];
  }

  private replace(old: PendingEntry<T>, updated: PendingEntry<T>): PendingEntry<T> {
    this.entries.set(old.id, updated);
    this.listeners.fire();
    return updated;
  }
}

/** How many finished elicitations {@link History} keeps by default. */
export const DEFAULT_HISTORY_CAPACITY = 50;

/** A bounded ring buffer of recent items; the oldest is dropped when full. */
export class History<T> {
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;
  private readonly listeners: Emitter<void>;

  constructor(
    readonly capacity: number = DEFAULT_HISTORY_CAPACITY,
    onListenerError?: (err: unknown) => void,
  ) {
    this.listeners = new Emitter<void>(onListenerError);
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`History capacity must be a positive integer (got ${capacity})`);
    this.items = new Array<T | undefined>(capacity);
  }

  /** Number of items held. */
  get size(): number {
    return this.count;
  }

  /** Adds an item, dropping the oldest when full. */
  push(item: T): void {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item;
      this.count++;
    } else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
    this.listeners.fire();
  }

  /** Items from oldest to newest. */
  list(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T);
    return out;
  }

  /** Drops everything. */
  clear(): void {
    this.items.fill(undefined);
    this.start = 0;
    this.count = 0;
    this.listeners.fire();
  }

  /** Fires after every change. */
  get onDidChange(): Event<void> {
    return this.listeners.event;
  }
}
