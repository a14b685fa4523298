import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * The error the agent gets when its server is not there: a JSON-RPC error with a reason it can
 * show, never a request left waiting.
 */
export function notRunningError(name: string, state: { readonly kind: string; readonly reason?: string } | undefined): McpError {
  const why = state?.kind === 'error' && state.reason ? `: ${state.reason}` : state ? ` (${state.kind})` : '';
  return new McpError(ErrorCode.ConnectionClosed, `MCP server "${name}" is not running${why}`);
}
