/**
 * The process VS Code runs for each server we offer its agent (dist/stdioRelay.js): it joins
 * VS Code's stdio to the gateway's socket (socketDoor.ts) and does nothing else. VS Code's stdio
 * client costs less per call than its HTTP client, by more than this extra hop costs, so the agent
 * reaches a server through us faster than through the gateway's HTTP door (bench/README.md).
 *
 * It imports nothing but Node's `net`, `fs` and `path` (through relayEnv.ts and privateDir.ts): it is the
 * whole program, started once per agent session, and every module it loaded would be memory held
 * for as long as that session lasts.
 *
 * The socket's path and the gateway's key come in the environment, which VS Code sets from the
 * resolved server definition (definitionProvider.ts) and does not log. The key is the first line
 * written to the socket; VS Code's messages follow it unchanged, one per line. Before it is
 * written, the socket's directory must be this user's and private, and the socket this user's
 * (privateDir.ts): a socket anybody else put at that path gets nothing.
 */
import * as net from 'node:net';
import { dirname } from 'node:path';
import { gatewaySocketProblem } from './privateDir';
import { KEY_ENV, SOCKET_ENV } from './relayEnv';

function fail(message: string): never {
  // VS Code shows the server's stderr in its output channel, and the exit code as the server's error.
  process.stderr.write(`mcp-elicitation-host gateway relay: ${message}\n`);
  process.exit(1);
}

function main(): void {
  const path = process.env[SOCKET_ENV];
  const key = process.env[KEY_ENV];
  if (!path || !key) fail(`${SOCKET_ENV} and ${KEY_ENV} must be set; this program is started by VS Code for the extension`);
  // Nothing below should see the key: it is not passed on to any child, and not kept in the environment.
  delete process.env[KEY_ENV];
  // A named pipe's name on Windows: no directory to check, and the gateway caps who waits at it.
  const uid = process.getuid?.();
  const problem = uid === undefined ? undefined : gatewaySocketProblem(path, uid);
  if (problem) {
    fail(
      problem.kind === 'missing'
        ? `could not reach the gateway at ${path} (${problem.detail}); the extension may have been reloaded: restart the server`
        : `refusing to send the gateway key to ${path}: ${problem.detail}. This is not the gateway this user's VS Code opened; restart the server, and if this persists check who else can write to ${dirname(dirname(path))}`,
    );
  }
  let connected = false;
  const socket = net.connect(path, () => {
    connected = true;
    socket.write(`${key}\n`);
    process.stdin.pipe(socket);
    socket.pipe(process.stdout);
  });
  socket.setNoDelay(true);
  // The gateway ended the session: a write of VS Code's still on its way may fail now, and that is
  // no failure of the relay ('close' follows, and the exit is clean).
  let ended = false;
  socket.on('end', () => (ended = true));
  socket.on('error', (e) => {
    if (ended) return;
    fail(
      connected
        ? `the connection to the gateway failed: ${e.message}`
        : `could not reach the gateway at ${path} (${e.message}); the extension may have been reloaded: restart the server`,
    );
  });
  // The gateway ended the session (the server left our configuration, or the extension stopped).
  // What the gateway wrote last is flushed first (stdout is asynchronous on some platforms).
  socket.on('close', () => process.stdout.write('', () => process.exit(0)));
  // VS Code stops a server by closing its stdin: the gateway hears the end and closes the session.
  process.stdin.on('end', () => socket.end());
  process.stdout.on('error', () => socket.destroy());
}

main();
