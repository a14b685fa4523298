/**
 * Where the MCP SDK's console lines go. The SDK writes `console.warn` during sign-in and token
 * refresh, quoting the authorization server's `error_description`, which can hold an authorization
 * code, a refresh token or a client secret; in the extension host the global console ends in the
 * extension-host log and the developer tools, unredacted. The SDK has no logger hook, and the
 * global `console` is shared with every other extension, so it is not ours to patch. Instead the
 * build (scripts/build.mjs, `sdkConsoleCalls`) rewrites every `console.<method>(` in the SDK's own
 * files into a call of {@link sdkConsole}, and the composition root routes it to our log, which
 * redacts what it writes (util/log.ts). ajv's lines take the same route (its `logger` option,
 * elicitation/form/ajvFactory.ts): they quote server schemas, and its default logger is the console.
 *
 * One instance for every bundle: the lazy files take this module from dist/extension.js
 * (FROM_EXTENSION in scripts/build.mjs), whether the SDK's code or ours imports it, so the route
 * set at activation serves them too; the build fails if a lazy file holds a copy.
 * Pure (no `vscode`), so the routing is unit-tested in plain Node.
 */

/** The levels of our log that the SDK's console methods map to. */
export type SdkConsoleLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** Takes one SDK console line, formatted; the sink redacts before anything is written. */
export type SdkConsoleSink = (level: SdkConsoleLevel, text: string) => void;

/**
 * Lines kept while no sink is set. The SDK runs only after activation routed its lines, so this
 * holds what it might write before that (a warning at a module's first use) or after the route
 * is gone (a refresh ending during shutdown). Kept rather than dropped so the first such lines
 * still reach the log when a route is set; bounded so a host that never routes does not grow;
 * in memory only, so nothing unredacted leaves the process.
 */
const MAX_HELD = 50;

let sink: SdkConsoleSink | undefined;
const held: { level: SdkConsoleLevel; text: string }[] = [];

/** One argument as console.log would show it, as text our redaction can read (JSON keeps keys quoted). */
function show(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    // A cycle or a BigInt: the plain conversion still says what it was.
    return String(value);
  }
}

function write(level: SdkConsoleLevel, args: readonly unknown[]): void {
  const text = args.map(show).join(' ');
  if (sink) {
    sink(level, text);
    return;
  }
  held.push({ level, text });
  if (held.length > MAX_HELD) held.shift();
}

/**
 * What the SDK's `console.<method>(…)` calls become in our bundles (scripts/build.mjs). Only
 * the methods with a level; another method would be left as it is, and the build test
 * (test/unit/sdkConsoleBuild.test.ts) would then find it.
 */
export const sdkConsole = {
  log: (...args: unknown[]): void => write('info', args),
  info: (...args: unknown[]): void => write('info', args),
  debug: (...args: unknown[]): void => write('debug', args),
  trace: (...args: unknown[]): void => write('trace', args),
  warn: (...args: unknown[]): void => write('warn', args),
  error: (...args: unknown[]): void => write('error', args),
};

/**
 * Sends the SDK's console lines to `to` from now on, the held ones first. Disposing stops it (if
 * no later route replaced it); lines are held again until the next route.
 */
export function routeSdkConsole(to: SdkConsoleSink): { dispose(): void } {
  sink = to;
  for (const line of held.splice(0)) to(line.level, line.text);
  return {
    dispose: () => {
      if (sink === to) sink = undefined;
    },
  };
}
