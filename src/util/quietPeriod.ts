/**
 * Says a thing once per key within a quiet period: a server that gives up again a minute after
 * its notice (the user pressed Restart, or a configuration edit started it again) must not stack
 * a second notification with the same words on the first. Pure, so the rule is unit-tested.
 */
export class QuietPeriod {
  private readonly said = new Map<string, number>();
  /** Keys whose notice is still on screen: quiet however long it stays. */
  private readonly open = new Set<string>();

  constructor(
    readonly quietMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether `key` may be said now: nothing said for it within {@link quietMs}, and nothing still
   * open. When it may, the period starts and the key counts as open until `done` is called.
   */
  begin(key: string): { done(): void } | undefined {
    const at = this.now();
    const last = this.said.get(key);
    if (this.open.has(key) || (last !== undefined && at - last < this.quietMs)) return undefined;
    this.said.set(key, at);
    this.open.add(key);
    return { done: () => void this.open.delete(key) };
  }
}
