/**
 * How the mcp.json readers report a bad entry: each error names its file and, when known, its
 * line and column, so one typo is shown where it is and never takes the other servers down.
 */
import type { JsoncPosition } from './jsonc';
import { sourceFile, type ConfigError, type ServerSource } from './definitions';

export type Locate = (container: object, key: string | number) => JsoncPosition | undefined;
export type Report = (error: { server?: string; key?: string; message: string; at?: JsoncPosition | undefined }) => void;

/** Collects a file's errors, each naming the file and, when known, its line and column. */
export function fileReporter(source: ServerSource): { errors: ConfigError[]; report: Report } {
  const file = sourceFile(source);
  const errors: ConfigError[] = [];
  const report: Report = ({ server, key, message, at }) =>
    errors.push({
      ...(file !== undefined && { file }),
      ...(server !== undefined && { server }),
      ...(key !== undefined && { key }),
      message,
      ...(at && { line: at.line, column: at.column }),
    });
  return { errors, report };
}

/** One line for logs and the Problems-style output: `file:line:col: server "x" (key): message`. */
export function formatConfigError(e: ConfigError): string {
  const where =
    e.file === undefined ? '' : `${e.file}${e.line === undefined ? '' : `:${e.line}${e.column === undefined ? '' : `:${e.column}`}`}: `;
  const what =
    e.server === undefined
      ? e.key === undefined
        ? ''
        : `${e.key}: `
      : `server "${e.server}"${e.key === undefined ? '' : ` (${e.key})`}: `;
  return `${where}${what}${e.message}`;
}
