/**
 * The largest single MCP message we take in, from a server's stdio or from the agent at the
 * gateway: 128 MiB. VS Code's own client takes and sends messages of any size, so a smaller limit
 * here would make a routed server fail where VS Code running it works (a 12 MB screenshot in a
 * result, a file's contents or an MCP App's upload in a tool call). It stays a limit, well under
 * V8's longest string, against a peer that writes without end.
 */
export const MAX_MESSAGE_BYTES = 128 * 1024 * 1024;
