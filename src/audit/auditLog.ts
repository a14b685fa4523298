import type * as vscode from 'vscode';
import { appendFile, chmod, mkdir, rename, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { buildAuditRecord, serialiseAuditLine, shouldRotate } from './auditRecord';
import type { FinishedElicitation } from '../elicitation/outcome';
import type { Settings } from '../config/settings';
import type { Logger } from '../util/log';

const AUDIT_FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * One JSON line per finished elicitation, in workspace storage (global storage without a
 * workspace). Values only with `audit.includeValues`, never for secret-like fields. Rotates at 5 MB.
 * Writes are chained so lines never interleave, and lines finished in the same turn go to disk in
 * one append: a burst of a thousand declines costs one file write, not a thousand.
 */
export class AuditLog {
  readonly file: string;
  private chain: Promise<void> = Promise.resolve();
  private buffer: string[] = [];
  private size: number | undefined;

  constructor(
    context: vscode.ExtensionContext,
    private readonly settings: () => Settings,
    private readonly log: Logger,
  ) {
    const dir = (context.storageUri ?? context.globalStorageUri).fsPath;
    this.file = path.join(dir, 'audit.jsonl');
    // Before anything is written: a folder and files an older version left readable by others.
    // A turn later, not while the extension activates: every write waits for it all the same.
    this.chain = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.tightenExisting())
      .catch((e: unknown) => this.log.warn(`audit log permissions: ${String(e)}`));
  }

  /**
   * An older version created the storage folder with the default mode (0755 under a usual umask)
   * and the audit files 0644: on start, an existing folder becomes 0700 and existing audit files
   * 0600. Nothing is created here; what does not exist yet is created tight by `append`.
   */
  private async tightenExisting(): Promise<void> {
    if (process.platform === 'win32') return;
    const dir = path.dirname(this.file);
    for (const [p, mode] of [
      [dir, DIR_MODE],
      [this.file, AUDIT_FILE_MODE],
      [`${this.file}.1`, AUDIT_FILE_MODE],
    ] as const) {
      const current = await stat(p).then(
        (st) => st.mode & 0o777,
        () => undefined,
      );
      if (current !== undefined && (current & ~mode) !== 0) await chmod(p, current & mode);
    }
  }

  write(f: FinishedElicitation): void {
    const s = this.settings();
    if (!s.auditEnabled) return;
    const line = serialiseAuditLine(
      buildAuditRecord({
        ...f,
        includeValues: s.auditIncludeValues,
      }),
    );
    this.buffer.push(line);
    if (this.buffer.length > 1) return; // a flush is already scheduled
    this.chain = this.chain
      .then(() => {
        const lines = this.buffer.join('');
        this.buffer = [];
        return this.append(lines);
      })
      .catch((e: unknown) => this.log.warn(`audit log write failed: ${String(e)}`));
  }

  private async append(line: string): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true, mode: DIR_MODE });
    if (this.size === undefined) {
      this.size = await stat(this.file).then(
        (s) => s.size,
        () => 0,
      );
    }
    const bytes = Buffer.byteLength(line);
    if (shouldRotate(this.size, bytes)) {
      await rename(this.file, `${this.file}.1`).catch(() => undefined);
      this.size = 0;
    }
    // Readable by the user only: it says who asked what, and with includeValues, what was answered.
    await appendFile(this.file, line, { encoding: 'utf8', mode: AUDIT_FILE_MODE });
    this.size += bytes;
  }

  /** Resolves when every queued line is on disk (tests, deactivate). */
  flush(): Promise<void> {
    return this.chain;
  }
}
