import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

// What the fixture servers write when started with FIXTURE_RECORD (test/fixtures): one JSON object
// a line, for each message they received or step they took. The suites read it to check what a
// server really got from its client, which the client side alone cannot show.

/** Where a fixture started with `FIXTURE_RECORD` for `name` writes in this run (MCP_TEST_RECORD_DIR). */
export const recordFile = (name: string): string => path.join(process.env['MCP_TEST_RECORD_DIR'] ?? '', `${name}.jsonl`);

/** Every line the fixture recorded in `file`, oldest first; none before it wrote any. */
export function recordedLines(file: string): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
