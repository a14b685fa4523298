/**
 * Client extensions we declare to a server on behalf of VS Code's agent. VS Code's own client
 * declares MCP Apps (`extensions["io.modelcontextprotocol/ui"]`) and renders a tool's app in chat
 * itself; a server only offers its app tools to a client that declares it. A server routed through
 * our gateway talks to our client, not VS Code's, so our client declares, for servers the agent
 * reaches, the extensions the agent declared to the gateway: the app's traffic (tools/list with
 * `_meta.ui`, `resources/read` of the `ui://` resource, the app's own tools/call) is plain requests
 * from VS Code that the gateway relays unchanged, so the server gets what it would get from VS Code.
 *
 * Only extensions we can relay faithfully are passed on: an extension that needs the client to
 * answer requests or run a protocol of its own (tasks, sign-in) would be declared and then not kept.
 *
 * The agent declares its capabilities only when it connects, usually after the server started, so
 * the last declaration is remembered (across sessions too): a server that was started offering
 * something else is restarted once, and later launches offer the right thing from the start.
 * No `vscode` import.
 */
import type { JSONObject } from '@modelcontextprotocol/client';

/** Extension id to its settings, as `capabilities.extensions` carries them. */
export type ClientExtensions = Readonly<Record<string, JSONObject>>;

/**
 * The client extensions the gateway relays faithfully. MCP Apps: rendering happens in VS Code's
 * chat, and everything the app needs of the server is a request the gateway relays as it is.
 */
export const RELAYABLE_CLIENT_EXTENSIONS: readonly string[] = ['io.modelcontextprotocol/ui'];

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The extensions of an agent's declared client capabilities (its `initialize` params'
 * `capabilities`, as received) that we can offer upstream; undefined when there are none.
 */
export function relayableExtensions(capabilities: unknown): ClientExtensions | undefined {
  const declared = isObject(capabilities) ? capabilities['extensions'] : undefined;
  if (!isObject(declared)) return undefined;
  const out: Record<string, JSONObject> = {};
  for (const id of RELAYABLE_CLIENT_EXTENSIONS) {
    const settings = declared[id];
    if (isObject(settings)) out[id] = settings;
  }
  return Object.keys(out).length ? out : undefined;
}

/** MCP Apps, as VS Code's client declares it (first in VS Code 1.109, January 2026). */
const MCP_APPS: ClientExtensions = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

/**
 * What VS Code's agent is known to declare, for launches before any agent session told us:
 * without it, the first agent session would restart every running server it reaches.
 */
export function knownAgentExtensions(vscodeVersion: string): ClientExtensions | undefined {
  const [major = 0, minor = 0] = vscodeVersion.split('.').map((p) => Number.parseInt(p, 10));
  return major > 1 || (major === 1 && minor >= 109) ? MCP_APPS : undefined;
}

/** A stable form for comparing two declarations (key order does not matter). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Whether two declarations say the same (undefined and empty are the same: nothing declared). */
export function sameExtensions(a: ClientExtensions | undefined, b: ClientExtensions | undefined): boolean {
  const norm = (x: ClientExtensions | undefined): ClientExtensions => x ?? {};
  return canonical(norm(a)) === canonical(norm(b));
}

/** Where the declarations are kept (the extension's global state), with the VS Code version that made them. */
export interface ExtensionsStore {
  get(): unknown;
  set(value: { readonly vscodeVersion: string; readonly extensions: ClientExtensions }): PromiseLike<void>;
}

/**
 * What VS Code's agent declares, relayable part only. It only grows while one VS Code version
 * runs: a client that declares less (another client holding the key, or a probe) must not take
 * an app away from the agent, nor restart servers back and forth. A new VS Code version starts
 * again from what it is known to declare.
 */
export class AgentExtensions {
  private value: ClientExtensions | undefined;

  /** `initial`: what to offer until an agent session says more ({@link knownAgentExtensions}). */
  constructor(
    private readonly store: ExtensionsStore,
    private readonly vscodeVersion: string,
    initial: ClientExtensions | undefined,
  ) {
    const stored = store.get();
    const same = isObject(stored) && stored['vscodeVersion'] === vscodeVersion;
    // A stored value is re-filtered: a later version of ours may relay less than the one that stored it.
    this.value = merge(initial, same ? relayableExtensions({ extensions: stored['extensions'] }) : undefined);
  }

  get current(): ClientExtensions | undefined {
    return this.value;
  }

  /** Takes an agent's declared client capabilities; true when what we offer upstream changed. */
  learn(capabilities: unknown): boolean {
    const next = merge(this.value, relayableExtensions(capabilities));
    if (sameExtensions(next, this.value)) return false;
    this.value = next;
    // Losing the write only costs one more restart at the next activation.
    void Promise.resolve(this.store.set({ vscodeVersion: this.vscodeVersion, extensions: next ?? {} })).catch(() => undefined);
    return true;
  }
}

/** Both declarations; for an extension in both, the later one's settings. */
function merge(a: ClientExtensions | undefined, b: ClientExtensions | undefined): ClientExtensions | undefined {
  const out = { ...a, ...b };
  return Object.keys(out).length ? out : undefined;
}
