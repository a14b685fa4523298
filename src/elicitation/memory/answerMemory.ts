/**
 * Remembered answers (issue 26 item 3): the user answered a question with "remember", and the
 * same question from the same server is answered from memory afterwards. Pure; no `vscode`: the
 * workspace state comes in as a two-method interface, so plain Node tests use a Map.
 *
 * Match rule: the asking server's name, its destination (where it is: the origin and path of its
 * URL, or its command and arguments; issue 41) and the question's fingerprint (fingerprint.ts) must
 * all be equal. A definition of that name that moved is asked again. Which questions may be
 * remembered at all: `canRemember`.
 */
import { Emitter } from '../../util/emitter';
import type { RequestMode } from '../outcome';
import { MAX_REMEMBERED, readStore, writeStore, type DiscardReason, type MemoryScope, type RememberedAnswer } from './rememberedStore';

/** The key under which the workspace's answers live in `workspaceState` (never in settings, never global). */
export const MEMORY_KEY = 'mcpElicitation.rememberedAnswers';

/** The part of VS Code's `Memento` this needs. */
export interface StateLike {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/**
 * Whether a question may be remembered and answered from memory: only a form (a confirmation is a
 * form without fields), never url mode or sampling, and never a form with a secret-like field.
 */
export function canRemember(q: { readonly mode: RequestMode; readonly secretKeys: readonly string[] }): boolean {
  return q.mode === 'form' && q.secretKeys.length === 0;
}

export class AnswerMemory {
  private readonly session = new Map<string, RememberedAnswer>();
  private readonly workspace = new Map<string, RememberedAnswer>();
  private readonly _onDidChange = new Emitter<void>();
  readonly onDidChange = this._onDidChange.event;
  /** Writes to the workspace state, one after another, so an older write never lands last. */
  private writing: Promise<void> = Promise.resolve();

  /**
   * Reads the workspace's answers once. A corrupt store, or one of another version, is removed
   * (only its own key) and `warn` is called once with the reason; everything else stays.
   * `destinationOf`: where the server of that name is now (undefined: not a server we know, and
   * nothing is remembered for it or recalled).
   */
  constructor(
    private readonly state: StateLike,
    warn: (reason: DiscardReason) => void,
    private readonly destinationOf: (server: string) => string | undefined,
  ) {
    const read = readStore(state.get(MEMORY_KEY));
    if (read.kind === 'ok') for (const a of read.answers) this.workspace.set(a.fingerprint, a);
    if (read.kind === 'discard') {
      warn(read.reason);
      // Removing it cannot fail in a way that matters here: the next write replaces it anyway.
      void this.persist();
    }
  }

  /** The remembered answer to this question of this server where it is now, if any (this session's first). */
  recall(server: string, fingerprint: string): RememberedAnswer | undefined {
    const a = this.session.get(fingerprint) ?? this.workspace.get(fingerprint);
    // The fingerprint already covers the server; checking it again costs nothing and says the rule.
    if (!a || a.server !== server) return undefined;
    const here = this.destinationOf(server);
    return here !== undefined && a.destination === here ? a : undefined;
  }

  /**
   * Remembers an answer for the server where it is now; one question has one answer, so it
   * replaces any in the other scope. A server whose destination is unknown gets nothing remembered.
   */
  remember(given: Omit<RememberedAnswer, 'scope' | 'destination'>, scope: MemoryScope): Promise<void> {
    const destination = this.destinationOf(given.server);
    if (destination === undefined) return Promise.resolve();
    const answer = { ...given, destination };
    const hadWorkspace = this.workspace.delete(answer.fingerprint);
    this.session.delete(answer.fingerprint);
    const target = scope === 'session' ? this.session : this.workspace;
    target.set(answer.fingerprint, { ...answer, scope });
    // Beyond the cap the oldest go (a Map iterates in insertion order).
    for (const key of target.keys()) {
      if (target.size <= MAX_REMEMBERED) break;
      target.delete(key);
    }
    this._onDidChange.fire();
    return scope === 'workspace' || hadWorkspace ? this.persist() : Promise.resolve();
  }

  /** Forgets one answer; false when there was none. */
  forget(fingerprint: string): Promise<boolean> {
    const inSession = this.session.delete(fingerprint);
    const inWorkspace = this.workspace.delete(fingerprint);
    if (!inSession && !inWorkspace) return Promise.resolve(false);
    this._onDidChange.fire();
    return (inWorkspace ? this.persist() : Promise.resolve()).then(() => true);
  }

  /** Forgets every answer (of `server`, when given); resolves with how many. */
  async forgetAll(server?: string): Promise<number> {
    const gone = this.list().filter((a) => server === undefined || a.server === server);
    for (const a of gone) {
      this.session.delete(a.fingerprint);
      this.workspace.delete(a.fingerprint);
    }
    if (gone.length === 0) return 0;
    this._onDidChange.fire();
    if (gone.some((a) => a.scope === 'workspace')) await this.persist();
    return gone.length;
  }

  /** Every remembered answer, newest first. */
  list(): RememberedAnswer[] {
    return [...this.session.values(), ...this.workspace.values()].sort((a, b) => b.savedAt - a.savedAt);
  }

  get size(): number {
    return this.session.size + this.workspace.size;
  }

  private persist(): Promise<void> {
    const value = this.workspace.size > 0 ? writeStore([...this.workspace.values()]) : undefined;
    this.writing = this.writing.then(() => this.state.update(MEMORY_KEY, value)).then(undefined, () => undefined);
    return this.writing;
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}
