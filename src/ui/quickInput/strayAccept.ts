/**
 * A question that opens by itself (a server asked; the user ran no command to see it) takes the
 * keyboard focus from wherever the user was typing. An Enter meant for the editor, the terminal or
 * the chat input then lands on our prompt. So for a short while after such a prompt appears, an
 * accept is not taken: neither Enter nor a click answers it yet. Through the agent gateway a
 * prompt-injected agent can even time a question for the moment the user presses Enter.
 *
 * Why 600 ms: people type at 100 to 300 ms between keys, so a stray Enter arrives within a
 * keystroke or two of the prompt appearing; reading a question and deciding takes well over half a
 * second. A prompt the user opened (Answer in the pending list, a step after their own Enter) is
 * not guarded: its Enter is meant for it.
 */
export const STRAY_ACCEPT_MS = 600;

/** Whether an accept now is too early to be meant: `shownAt` is when the prompt appeared. */
export function tooEarly(shownAt: number | undefined, delayMs: number, now: number = Date.now()): boolean {
  return shownAt !== undefined && now - shownAt < delayMs;
}
