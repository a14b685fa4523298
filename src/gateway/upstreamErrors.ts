import { ProtocolError } from '@modelcontextprotocol/server';

/** JSON-RPC's first implementation-defined server error (SDK 1.x called it ConnectionClosed). */
const SERVER_UNAVAILABLE = -32000;

/**
 * The error the agent gets when its server is not there: a JSON-RPC error with a reason it can
 * show, never a request left waiting.
 */
export function notRunningError(name: string, state: { readonly kind: string; readonly reason?: string } | undefined): ProtocolError {
  const why = state?.kind === 'error' && state.reason ? `: ${state.reason}` : state ? ` (${state.kind})` : '';
  return new ProtocolError(SERVER_UNAVAILABLE, `MCP server "${name}" is not running${why}`);
}
