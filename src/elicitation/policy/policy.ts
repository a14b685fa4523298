/**
 * Per-server policy for incoming elicitations and the gate that combines it with rate limiting.
 * Settings arrive as raw `unknown` values: a typo in settings.json must fall back to something
 * safe rather than throw inside a request handler.
 */
import { normaliseRateLimit, type RateLimiter } from './tokenBucket';

/**
 * `allow`: show the request; `ask`: first ask whether to show it at all;
 * `block`: decline without showing anything.
 */
export type ServerPolicy = 'allow' | 'ask' | 'block';

/** The raw policy settings: `mcpElicitation.serverPolicy` and `mcpElicitation.defaultPolicy`. */
export interface PolicySettings {
  readonly serverPolicy: Readonly<Record<string, unknown>>;
  readonly defaultPolicy: unknown;
}

/** True for the three valid policy strings. */
export function isServerPolicy(value: unknown): value is ServerPolicy {
  return value === 'allow' || value === 'ask' || value === 'block';
}

/**
 * The policy for `server`: its own entry if valid, else the default if valid, else `allow`
 * (the spec's baseline: the user sees the request and can still decline it).
 */
export function resolvePolicy(server: string, settings: PolicySettings): ServerPolicy {
  // Own keys only: a server named "constructor" must not pick up Object.prototype members.
  const own = Object.hasOwn(settings.serverPolicy, server) ? settings.serverPolicy[server] : undefined;
  if (isServerPolicy(own)) return own;
  return isServerPolicy(settings.defaultPolicy) ? settings.defaultPolicy : 'allow';
}

/**
 * One scope's `serverPolicy` value without the server's `block` entry (undefined when nothing is
 * left, so the key leaves the settings file), or the very same value when it holds no block for
 * it. Unblocking removes the block; it never writes `allow`.
 */
export function withoutBlock<T extends Readonly<Record<string, unknown>> | undefined>(
  value: T,
  server: string,
): T | Record<string, unknown> | undefined {
  if (value === undefined || !Object.hasOwn(value, server) || value[server] !== 'block') return value;
  const rest = Object.fromEntries(Object.entries(value).filter(([k]) => k !== server));
  return Object.keys(rest).length > 0 ? rest : undefined;
}

/**
 * Merges an object setting across scopes the way VS Code's `get()` does: workspace keys
 * override user keys, other user keys survive. This lets a team commit a workspace setting
 * that blocks a chatty server without wiping each member's own entries. Non-objects count as
 * empty.
 */
export function mergeScopes(user: unknown, workspace: unknown): Record<string, unknown> {
  const entries = (v: unknown): Array<[string, unknown]> =>
    typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.entries(v) : [];
  // fromEntries defines own properties, so a "__proto__" key stays an ordinary key.
  return Object.fromEntries([...entries(user), ...entries(workspace)]);
}

/** Settings the {@link Gatekeeper} reads; `rateLimit` is the raw `mcpElicitation.rateLimit` value. */
export interface GatekeeperSettings extends PolicySettings {
  readonly rateLimit?: unknown;
}

/** What to do with one incoming request. */
export type GateDecision =
  | {
      /** `show`: present it; `ask`: ask the user whether to see it first. */
      readonly outcome: 'show' | 'ask';
      readonly decidedBy: 'user';
      readonly policy: ServerPolicy;
    }
  | { readonly outcome: 'decline'; readonly decidedBy: 'policy'; readonly policy: 'block' }
  | {
      readonly outcome: 'decline';
      readonly decidedBy: 'rateLimit';
      readonly policy: ServerPolicy;
      /** Tell the user (once) that this server is being throttled. */
      readonly firstInWindow: boolean;
      /** Requests in the window so far, for "‹server› sent N requests in M s". */
      readonly windowCount: number;
      readonly windowSeconds: number;
    };

/**
 * Decides, per incoming request, between showing, asking and declining. Blocked servers are
 * declined before rate limiting so they do not use up tokens. Settings can be replaced at any
 * time and apply from the next decision on.
 */
export class Gatekeeper {
  private settings: PolicySettings;
  /** Servers the user chose to let through for the rest of the session ("Allow more"). */
  private readonly unlimited = new Set<string>();

  constructor(
    settings: GatekeeperSettings,
    private readonly limiter: RateLimiter,
  ) {
    this.settings = settings;
    if (settings.rateLimit !== undefined) limiter.setLimit(normaliseRateLimit(settings.rateLimit));
  }

  /** The policy currently in force for `server`. */
  policyFor(server: string): ServerPolicy {
    return resolvePolicy(server, this.settings);
  }

  /** The policy the user set for `server` itself, if any (the default policy is not one). */
  explicitPolicy(server: string): ServerPolicy | undefined {
    const own = Object.hasOwn(this.settings.serverPolicy, server) ? this.settings.serverPolicy[server] : undefined;
    return isServerPolicy(own) ? own : undefined;
  }

  /** Decides one request from `server`; counts it against the rate limit unless blocked or `count` is false. */
  decide(server: string, count = true): GateDecision {
    const policy = this.policyFor(server);
    if (policy === 'block') return { outcome: 'decline', decidedBy: 'policy', policy };
    if (count && !this.unlimited.has(server)) {
      const check = this.limiter.check(server);
      if (!check.allowed) {
        return {
          outcome: 'decline',
          decidedBy: 'rateLimit',
          policy,
          firstInWindow: check.firstRejectionInWindow,
          windowCount: check.countInWindow,
          windowSeconds: check.windowSeconds,
        };
      }
    }
    return { outcome: policy === 'ask' ? 'ask' : 'show', decidedBy: 'user', policy };
  }

  /** Lifts the rate limit for `server` until {@link resetSession} (policy still applies). */
  allowMore(server: string): void {
    this.unlimited.add(server);
  }

  /** Whether {@link allowMore} was used for `server`. */
  isUnlimited(server: string): boolean {
    return this.unlimited.has(server);
  }

  /** Replaces the settings; a present `rateLimit` also updates the limiter. */
  update(settings: GatekeeperSettings): void {
    this.settings = settings;
    if (settings.rateLimit !== undefined) this.limiter.setLimit(normaliseRateLimit(settings.rateLimit));
  }

  /** Forgets every "Allow more" choice, e.g. when the user restarts all servers. */
  resetSession(): void {
    this.unlimited.clear();
  }
}
