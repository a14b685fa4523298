/**
 * The one place the in-host benchmark reaches into the extension under test. Everything else in
 * bench/host goes through {@link ExtensionUnderTest}, so a change to the extension's internals
 * (the composition root, its test hooks) is adapted here and nowhere else.
 *
 * Public API first (`api/mcpElicitationHost.d.ts`): the server states and the pending list.
 * The internals below have no public equivalent; each says why the benchmark needs it.
 */
import * as vscode from 'vscode';
import { testServices } from '../../test/host/access';
import type { McpElicitationHostApi } from '../../api/mcpElicitationHost';
import { askerFor } from '../../src/elicitation/asker';

export const EXTENSION_ID = 'mcp-elicitation.mcp-elicitation-host';

export interface ExtensionUnderTest {
  /** The public API the extension returns from activate(). */
  readonly api: McpElicitationHostApi;
  /** `true` once every named server is `running` (public `servers()`). */
  allRunning(names: readonly string[]): boolean;
  /** Nothing waits, nothing on screen (public `pending()`). */
  idle(): boolean;

  // ---- internals (the test build's TestServices, test/host/: the host runs out/testExtension) ----
  /**
   * How long `activate()` took to build the services, ms, measured by the extension itself
   * (`hooks.activationMs`; the same figure as the log line "activated in X ms").
   */
  readonly activationMs: number | undefined;
  /**
   * Fires with the extension host's clock (`performance.timeOrigin + performance.now()`) when
   * the presenter calls show() on a prompt (`hooks.onDidShowPrompt`): the host's share of a
   * latency sample, and the burst's count of prompts shown.
   */
  onDidShowPrompt(listener: (e: { readonly id: string; readonly at: number }) => void): vscode.Disposable;
  /** Fires when a request leaves the queue, answered (`broker.queue.onDidFinish`). */
  onDidFinish(listener: (e: { readonly id: string }) => void): vscode.Disposable;
  /**
   * Answers `cancel` to one pending request (`broker.queue.settle`): what the prompt's Cancel
   * does. Escape only sets our question aside, so a quick-input sample is closed this way.
   */
  cancel(id: string): void;
  /** The user's "Allow More" for one server (`gatekeeper.allowMore`): the latency servers send far more than 10 a minute. */
  allowMore(server: string): void;
  /** Starts the server's rate-limit window afresh (`limiter.forget`), between bursts. */
  forgetRateLimit(server: string): void;
  /** Writes out the audit lines queued so far (`audit.flush`): part of the work a burst causes. */
  flushAudit(): Promise<void>;
  /** Our gateway offers this server to VS Code's agent (`gateway.has`). */
  offeredToAgent(server: string): boolean;
  /**
   * One `sampling/createMessage` from `server`, as a session hands it to the sampling broker
   * (`sampler.handle`): the whole path of a pushed sample after the wire, with no MCP server
   * needed to send it; the bench compares it with calling `vscode.lm` directly.
   */
  sample(server: string, params: unknown): Promise<{ model: string; text: string }>;
}

/** Activates the extension (normally already done by its activation event) and wraps it. */
export async function extensionUnderTest(): Promise<ExtensionUnderTest> {
  const ext = vscode.extensions.getExtension<McpElicitationHostApi>(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} not found in the host`);
  const api = await ext.activate();
  // The services, through the test build's own way in (it throws if this is not the test build).
  const s = await testServices();
  return {
    api,
    allRunning: (names) => names.every((n) => api.servers().find((x) => x.name === n)?.state === 'running'),
    idle: () => api.pending().length === 0,
    get activationMs() {
      return s.hooks.activationMs;
    },
    onDidShowPrompt: (listener) => s.hooks.onDidShowPrompt((e) => listener({ id: e.id, at: e.at })),
    onDidFinish: (listener) => s.broker.queue.onDidFinish((f) => listener({ id: f.id })),
    cancel: (id) => s.broker.queue.settle(id, 'cancel'),
    allowMore: (server) => s.gatekeeper.allowMore(server),
    forgetRateLimit: (server) => s.limiter.forget(server),
    flushAudit: () => s.audit.flush(),
    offeredToAgent: (server) => s.gateway.has(server),
    sample: async (server, params) => {
      // Read as plain data: the reply's shape is what the wire carries back to the server.
      const r = (await s.sampler.handle(askerFor(server, undefined), params, { signal: new AbortController().signal, requestId: 0 })) as {
        model: string;
        content: { type: string; text?: string } | { type: string; text?: string }[];
      };
      const content = Array.isArray(r.content) ? r.content[0] : r.content;
      return { model: r.model, text: content?.text ?? '' };
    },
  };
}
