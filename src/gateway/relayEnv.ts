/** How VS Code tells our relay process (stdioRelay.ts) where the gateway is: its environment. No imports. */

/** The path of the server's gateway socket (socketDoor.ts). */
export const SOCKET_ENV = 'MCP_ELICITATION_GATEWAY_SOCKET';
/** The gateway's key, which the relay presents as its first line. */
export const KEY_ENV = 'MCP_ELICITATION_GATEWAY_KEY';
