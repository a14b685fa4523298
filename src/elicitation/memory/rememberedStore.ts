/**
 * The stored form of remembered answers (issue 26 item 3): what goes into the workspace's state,
 * and the check that reads it back. Pure; no `vscode`. A store that is not exactly this version's
 * shape is never half-read: it is discarded as a whole, and the caller warns once.
 */
import type { AnswerContent, AnswerValue } from '../../shared/fieldModel';

/**
 * Bump when the stored shape changes: an older store is then discarded, not guessed at. Version 1
 * answers recorded no destination (issue 41), so nothing says which server they were given to.
 */
export const STORE_VERSION = 2;

/** At most this many answers are kept per scope; the oldest go first. */
export const MAX_REMEMBERED = 200;

/** Only for the rest of this window's session (memory only), or in this workspace (`workspaceState`). */
export type MemoryScope = 'session' | 'workspace';

/** One remembered answer to one question of one server. */
export interface RememberedAnswer {
  /** The question's fingerprint (fingerprint.ts); also the answer's id, as one question has one answer. */
  readonly fingerprint: string;
  /** The asking server's name (the `Asker` name, the policy key). */
  readonly server: string;
  /**
   * Where that server was when the user answered (`destination()` of its definition, serverFingerprint.ts):
   * a definition of the same name somewhere else is not answered from memory.
   */
  readonly destination: string;
  /** The message as the user saw it (sanitised, capped): for the list, never for matching. */
  readonly message: string;
  /** The form's field names, for the list (`[]` for a confirmation). */
  readonly fieldKeys: readonly string[];
  /** Exactly what was sent with `accept`, and what will be sent again. */
  readonly content: AnswerContent;
  /** When it was remembered, ms since the epoch. */
  readonly savedAt: number;
  readonly scope: MemoryScope;
}

/** What `workspaceState` holds under the store's key. */
export interface StoredAnswers {
  readonly version: typeof STORE_VERSION;
  readonly answers: readonly Omit<RememberedAnswer, 'scope'>[];
}

/** Reading a stored value: nothing there, this version's answers, or a reason to discard it. */
export type StoreRead =
  | { readonly kind: 'empty' }
  | { readonly kind: 'ok'; readonly answers: readonly RememberedAnswer[] }
  | { readonly kind: 'discard'; readonly reason: DiscardReason };

/** Why a store was discarded: unreadable, of an unknown version, or of version 1 (no destinations). */
export type DiscardReason = 'corrupt' | 'otherVersion' | 'noDestination';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isAnswerValue(v: unknown): v is AnswerValue {
  return (
    typeof v === 'string' ||
    typeof v === 'boolean' ||
    (typeof v === 'number' && Number.isFinite(v)) ||
    (Array.isArray(v) && v.every((x) => typeof x === 'string'))
  );
}

function parseAnswer(v: unknown): RememberedAnswer | undefined {
  if (!isRecord(v)) return undefined;
  const { fingerprint, server, destination, message, fieldKeys, content, savedAt } = v;
  if (typeof fingerprint !== 'string' || !/^[0-9a-f]{64}$/.test(fingerprint)) return undefined;
  if (typeof server !== 'string' || server === '' || typeof message !== 'string') return undefined;
  if (typeof destination !== 'string' || destination === '') return undefined;
  if (!Array.isArray(fieldKeys) || !fieldKeys.every((k) => typeof k === 'string')) return undefined;
  if (!isRecord(content) || !Object.values(content).every(isAnswerValue)) return undefined;
  if (typeof savedAt !== 'number' || !Number.isFinite(savedAt)) return undefined;
  return {
    fingerprint,
    server,
    destination,
    message,
    fieldKeys: [...fieldKeys],
    // fromEntries defines own properties, so a "__proto__" answer key stays an ordinary key.
    content: Object.fromEntries(Object.entries(content as Record<string, AnswerValue>)),
    savedAt,
    scope: 'workspace',
  };
}

/**
 * Reads what the workspace state holds. Any answer that fails the check makes the whole store
 * corrupt: a store we did not write as we write it is not trusted to answer for the user.
 */
export function readStore(raw: unknown): StoreRead {
  if (raw === undefined || raw === null) return { kind: 'empty' };
  if (!isRecord(raw)) return { kind: 'discard', reason: 'corrupt' };
  // Answers of version 1 cannot be tied to where their server was: asked again, not applied.
  if (raw['version'] === 1) return { kind: 'discard', reason: 'noDestination' };
  if (raw['version'] !== STORE_VERSION) {
    return { kind: 'discard', reason: typeof raw['version'] === 'number' ? 'otherVersion' : 'corrupt' };
  }
  const list = raw['answers'];
  if (!Array.isArray(list)) return { kind: 'discard', reason: 'corrupt' };
  const answers: RememberedAnswer[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    const a = parseAnswer(item);
    if (!a || seen.has(a.fingerprint)) return { kind: 'discard', reason: 'corrupt' };
    seen.add(a.fingerprint);
    answers.push(a);
  }
  return { kind: 'ok', answers };
}

/** The value to store for these workspace answers (their scope is implied by where they are). */
export function writeStore(answers: readonly RememberedAnswer[]): StoredAnswers {
  return {
    version: STORE_VERSION,
    answers: answers.map(({ fingerprint, server, destination, message, fieldKeys, content, savedAt }) => ({
      fingerprint,
      server,
      destination,
      message,
      fieldKeys: [...fieldKeys],
      content: { ...content },
      savedAt,
    })),
  };
}
