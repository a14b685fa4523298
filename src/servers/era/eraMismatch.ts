/**
 * A call that failed because of the revision the connection speaks, told apart from every other
 * tool error. A server that speaks both revisions may hold tools written each way (issue 40's hard
 * case), and no single revision serves them all: a tool that asks the 2025 way (a request of its
 * own) cannot ask on 2026-07-28, and one that returns 2026-07-28's `input_required` cannot on
 * 2025-11-25. The frameworks say so in words of their own, as a JSON-RPC error or as a tool
 * result with `isError`; these are their texts, as each framework writes them (FastMCP 4.0.10,
 * the Python SDK 2.3.0, the TypeScript SDK 2.4.0). No `vscode` import.
 */
import { ProtocolError, type CallToolResult } from '@modelcontextprotocol/client';
import type { Localize } from '../../shared/localize';
import { revisionOf, type Era } from './eraChoice';

interface EraSignal {
  readonly needs: Era;
  readonly pattern: RegExp;
}

const SIGNALS: readonly EraSignal[] = [
  // FastMCP: `ctx.elicit()` (and sampling, roots) on a 2026-07-28 connection, a ToolError.
  { needs: 'legacy', pattern: /server-initiated requests is unavailable on 2026-07-28/i },
  // The Python SDK: any server-to-client request without a back-channel (-32600).
  { needs: 'legacy', pattern: /no back-channel for server-initiated requests/i },
  // The TypeScript SDK v2: `elicitInput()` and friends while serving a 2026-07-28 request.
  { needs: 'legacy', pattern: /Server-to-client requests are not available on protocol revision 2026/i },
  // FastMCP: a tool returned `InputRequiredResult` on a 2025 connection (-32602).
  { needs: 'modern', pattern: /multi-round-trip result type[\s\S]{0,40}only exists at MCP 2026-07-28/i },
  // The TypeScript SDK v2 over HTTP (`createMcpHandler`, stateless 2025 serving): `inputRequired()`
  // on a 2025 request, which has no channel back to us.
  { needs: 'modern', pattern: /per-request legacy serving cannot receive server-to-client requests/i },
];

/** The revision a failed call says it needs, from its error or its `isError` result; undefined for any other failure. */
export function eraNeeded(outcome: { readonly error?: unknown; readonly result?: CallToolResult | undefined }): Era | undefined {
  const text = outcomeText(outcome);
  if (!text) return undefined;
  return SIGNALS.find((s) => s.pattern.test(text))?.needs;
}

function outcomeText(outcome: { readonly error?: unknown; readonly result?: CallToolResult | undefined }): string {
  if (outcome.error !== undefined) {
    const e = outcome.error;
    if (e instanceof ProtocolError || e instanceof Error) return e.message.slice(0, 4096);
    return '';
  }
  const r = outcome.result;
  if (!r?.isError || !Array.isArray(r.content)) return '';
  return r.content
    .flatMap((c) => (c.type === 'text' ? [c.text] : []))
    .join('\n')
    .slice(0, 4096);
}

/** Why the call cannot be run again on the other revision, for the sentence. */
export type EraBlock = 'pinned' | 'sse' | 'declined' | 'unavailable';

/**
 * The call stays failed, and the error says in one line what would make it work. `original`
 * keeps the server's own error (or result) for the log; the message is ours.
 */
export class EraMismatchError extends Error {
  constructor(
    readonly server: string,
    readonly tool: string,
    readonly needs: Era,
    readonly block: EraBlock,
    readonly original: unknown,
    l10n: Localize,
  ) {
    super(eraMismatchSentence({ server, tool, needs, block }, l10n));
    this.name = 'EraMismatchError';
  }
}

export function eraMismatchSentence(
  m: { readonly server: string; readonly tool: string; readonly needs: Era; readonly block: EraBlock },
  l10n: Localize,
): string {
  const needs = revisionOf(m.needs);
  const speaks = revisionOf(m.needs === 'modern' ? 'legacy' : 'modern');
  switch (m.block) {
    case 'pinned':
      return l10n.t(
        'Tool "{1}" of server "{0}" asks its questions the MCP {2} way, and the server\'s "protocolVersion" pins {3}: set it to "auto" or "{2}" to run this tool.',
        m.server,
        m.tool,
        needs,
        speaks,
      );
    case 'sse':
      return l10n.t(
        'Tool "{1}" of server "{0}" asks its questions the MCP {2} way, which the legacy SSE transport cannot carry: connect it over Streamable HTTP to run this tool.',
        m.server,
        m.tool,
        needs,
      );
    case 'declined':
    case 'unavailable':
      return l10n.t(
        'Tool "{1}" of server "{0}" asks its questions the MCP {2} way, and this connection speaks {3}: reconnect the server with {2} (Run Again does it) to run this tool.',
        m.server,
        m.tool,
        needs,
        speaks,
      );
  }
}
