/**
 * Which definition sources VS Code reads itself. A server there is VS Code's to run while its
 * chat can run servers (gateway/ownership.ts decides); ours otherwise. Pure, no `vscode` import.
 */

/** VS Code reads Copilot Global's `mcp-config.json` from 1.140 on. */
const COPILOT_GLOBAL_SINCE: readonly [number, number] = [1, 140];

function atLeast(version: string, [major, minor]: readonly [number, number]): boolean {
  const [ma = 0, mi = 0] = version.split('.').map((p) => Number.parseInt(p, 10));
  return ma > major || (ma === major && mi >= minor);
}

/**
 * Whether VS Code itself reads the place a server is defined in, so that its chat runs it when it
 * can: every mcp.json-style file (the folders' `.vscode/mcp.json` and `.mcp.json`, a
 * `.code-workspace` file, the profile's `mcp.json`), and Copilot Global from 1.140. Never our setting.
 */
export function vscodeReads(source: { readonly kind: string; readonly origin?: string }, vscodeVersion: string): boolean {
  if (source.kind === 'setting') return false;
  if (source.kind === 'userFile' && source.origin === 'copilot') return atLeast(vscodeVersion, COPILOT_GLOBAL_SINCE);
  return true;
}
