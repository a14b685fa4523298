import type * as Dotenv from 'dotenv';

/**
 * Parses an `envFile` with dotenv's parser, the de-facto `.env` format: `#` comments (also after
 * a value), optional `export `, single, double or backtick quotes, quoted values spanning lines,
 * and `\n` / `\r` escapes inside double quotes. VS Code's own MCP support reads the same subset
 * (its `vs/base/common/envfile.ts`), except that it cannot read multi-line values. No `vscode`
 * import.
 */
export function parseEnvFile(text: string): Record<string, string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load (dist/dotenv.js): few servers have an envFile
  dotenv ??= require('dotenv') as typeof Dotenv;
  return dotenv.parse(text);
}

let dotenv: typeof Dotenv | undefined;
