import * as os from 'node:os';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SdkHttpError, type OAuthClientProvider, type Transport } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../config/parse/definitions';
import { installAnsweringReadBuffer } from './answeringReadBuffer';

export { installAnsweringReadBuffer };
import type * as HttpTransports from './httpTransports';
import { stdioLaunch } from './launch';
import { StderrLines } from './stderrLines';
import { shareDrainWait } from './stdioDrain';
import type { StreamOrigins } from './questionLinks';

export type TransportKind = 'stdio' | 'http' | 'sse';

let httpModule: typeof HttpTransports | undefined;
/**
 * The Streamable HTTP and SSE transports, with the SDK's OAuth client and EventSource they bring
 * (about 50 KB), live in `dist/httpTransports.js` (scripts/build.mjs): they are loaded when the
 * first HTTP server starts, so activation does not parse them and a user of stdio servers never does.
 */
export function httpTransports(): typeof HttpTransports {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; see scripts/build.mjs
  httpModule ??= require('./httpTransports') as typeof HttpTransports;
  return httpModule;
}

/** A transport about to be connected, plus what the connection needs to know about it. */
export interface PreparedTransport {
  readonly transport: Transport;
  readonly kind: TransportKind;
  /** For stdio: the child's pid once started (read after connect). */
  pid(): number | undefined;
  /** Streamable HTTP: which of our requests' streams a question arrived on (questionLinks.ts). */
  readonly origins?: StreamOrigins;
}

/** Where a transport reports a stdio server's stderr lines and its own problems. */
export interface TransportLog {
  stderr(line: string): void;
  warn(message: string): void;
  /** The command line and working directory a stdio server is started with (VS Code logs it at Debug too). */
  debug?(message: string): void;
}

export function createTransport(
  def: ServerDefinition,
  log: TransportLog,
  kindOverride?: TransportKind,
  auth?: OAuthClientProvider,
): PreparedTransport {
  const onStderr = (line: string): void => log.stderr(line);
  if (def.type === 'stdio') {
    // Started as VS Code starts it (launch.ts): a server routed here sees what it saw there.
    const launch = stdioLaunch(def, { hostEnv: process.env, platform: process.platform, home: os.homedir(), folder: def.launchFolder });
    log.debug?.(`command line: ${launch.command} ${launch.args.join(' ')} (in ${launch.cwd})`);
    const transport = new StdioClientTransport({
      command: launch.command,
      args: [...launch.args],
      env: { ...launch.env },
      cwd: launch.cwd,
      stderr: 'pipe',
    });
    if (!installAnsweringReadBuffer(transport)) {
      log.warn('this MCP SDK version changed its stdio framing: malformed requests from this server may go unanswered');
    }
    // A server that reads slower than we answer (a flood) gets one drain wait, not one per answer.
    if (!shareDrainWait(transport)) {
      log.warn(
        'this MCP SDK version changed its stdio transport: a server that reads slowly may make Node warn of too many drain listeners',
      );
    }
    // Whole lines only: the log's redaction must see each secret in one piece (stderrLines.ts).
    const lines = new StderrLines();
    transport.stderr?.on('data', (chunk: Buffer) => lines.push(chunk).forEach(onStderr));
    transport.stderr?.on('end', () => lines.end().forEach(onStderr));
    return { transport, kind: 'stdio', pid: () => transport.pid ?? undefined };
  }
  const { warning, ...http } = httpTransports().createHttpTransport(def, kindOverride ?? def.type, auth);
  if (warning) log.warn(warning);
  return { ...http, pid: () => undefined };
}

/** The HTTP status an error of the SDK's HTTP transports carries, from its field or its text. */
function httpStatus(err: unknown): number | undefined {
  if (err instanceof SdkHttpError && err.status !== undefined) return err.status;
  // The revision steps' error (era/connectByPlan.ts) keeps the status of the refused `initialize`.
  const status = err instanceof Error ? (err as { status?: unknown }).status : undefined;
  if (typeof status === 'number') return status;
  const m = /HTTP (\d{3})/.exec(err instanceof Error ? err.message : '');
  return m ? Number(m[1]) : undefined;
}

/**
 * The server wants the user signed in (MCP authorization): a 401, or the SDK's "unauthorized"
 * after its own OAuth step could not finish without the user. Never a reason to try SSE.
 */
export function isAuthChallenge(err: unknown): boolean {
  // By name: the class lives with the SDK's OAuth code in dist/httpTransports.js, not loaded here.
  return (err instanceof Error && err.name === 'UnauthorizedError') || httpStatus(err) === 401;
}

/**
 * A Streamable HTTP `initialize` answered with a 4xx means the server may speak the legacy SSE
 * transport instead (the spec's backwards-compatibility rule), so the caller retries with SSE.
 * Not a 401 or 403: that server speaks Streamable HTTP and wants a signed-in user (issue 25), and
 * an SSE attempt would only hide why it failed.
 */
export function shouldFallBackToSse(def: ServerDefinition, err: unknown): boolean {
  if (def.type !== 'http' || isAuthChallenge(err)) return false;
  const status = httpStatus(err);
  return status !== undefined && status >= 400 && status < 500 && status !== 403;
}
