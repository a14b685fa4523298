/**
 * Two workspaces that declare the same `${input:…}` id (issue 22, item 3): a password typed in one
 * is never given to the other, and clearing in one leaves the other's. One code-server and one
 * browser profile, so one SecretStorage, as a user who opens a second project has; the folders
 * differ. Each launch of the fixture writes the value it received to its workspace's record.
 */
import { after, before, describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { makeWorkspace } from '../../scripts/lib/fixtures.mjs';
import { repoRoot } from '../../scripts/hostPaths.mjs';
import { notification, openWorkbench, quickInput, runCommand, waitForServers, type Workbench } from './workbench';

const INPUT = { type: 'promptString', id: 'shared-token', description: 'Team token for pw', password: true };

function server(record: string): Record<string, unknown> {
  return {
    pw: {
      command: 'node',
      args: [path.join(repoRoot, 'test', 'fixtures', 'stdioServer.mjs'), 'pw'],
      env: { FIXTURE_INPUT: '${input:shared-token}', FIXTURE_INPUT_RECORD: record },
    },
  };
}

/** The values the launches of one workspace received, oldest first. */
function launches(record: string): (string | null)[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { value: string | null }).value);
}

async function waitForLaunches(record: string, count: number): Promise<(string | null)[]> {
  const t0 = Date.now();
  while (launches(record).length < count) {
    if (Date.now() - t0 > 60_000) throw new Error(`${record}: ${launches(record).length} launches, want ${count}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return launches(record);
}

/** Waits for our input box asking for the token, types `value` and accepts it. */
async function answerInput(page: Page, value: string): Promise<void> {
  const box = quickInput(page);
  await box.filter({ hasText: 'Team token for pw' }).waitFor({ state: 'visible', timeout: 60_000 });
  await box.locator('input').fill(value);
  await page.keyboard.press('Enter');
  await box.waitFor({ state: 'hidden' });
}

describe('Workbench: two workspaces with the same input id keep their own passwords', () => {
  let wb: Workbench;
  const records = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-inputs-'));
  const recordA = path.join(records, 'a.jsonl');
  const recordB = path.join(records, 'b.jsonl');
  const b = makeWorkspace({ servers: server(recordB), inputs: [INPUT] });

  before(async () => {
    wb = await openWorkbench({ servers: server(recordA), inputs: [INPUT] });
  });
  after(async () => {
    await wb?.close();
    b.dispose();
    rmSync(records, { recursive: true, force: true });
  });

  it('A asks and its server gets A’s value; B, with the same id, asks again and gets its own', async () => {
    await answerInput(wb.page, 'alpha-token-1');
    await waitForLaunches(recordA, 1);
    await waitForServers(wb.page, 1);

    await wb.openFolder(b.dir);
    // Not A's secret, silently: B's launch waits for B's own answer.
    await answerInput(wb.page, 'bravo-token-2');
    await waitForLaunches(recordB, 1);
    await waitForServers(wb.page, 1);
    // Every launch of each workspace (a window may start its server more than once) got its own value.
    assert.deepEqual([...new Set(launches(recordA))], ['alpha-token-1']);
    assert.deepEqual([...new Set(launches(recordB))], ['bravo-token-2']);
  });

  it('clearing in B forgets B’s value only: A starts with its own without asking, B asks again', async () => {
    await runCommand(wb.page, 'MCP Elicitation: Clear Remembered Inputs');
    // B's one remembered value, and only that: A's is not among what this workspace forgets.
    await notification(wb.page, 'Forgot 1 remembered input value(s).');

    // A starts without asking: had it asked, nothing would answer and no launch would come.
    const aBefore = launches(recordA).length;
    await wb.openFolder(wb.workspace);
    await waitForLaunches(recordA, aBefore + 1);
    await waitForServers(wb.page, 1);
    assert.equal(await quickInput(wb.page).filter({ hasText: 'Team token for pw' }).isVisible(), false, 'A did not ask');
    assert.deepEqual([...new Set(launches(recordA))], ['alpha-token-1']);

    const bBefore = launches(recordB).length;
    await wb.openFolder(b.dir);
    await answerInput(wb.page, 'bravo-token-3');
    await waitForLaunches(recordB, bBefore + 1);
    assert.equal(launches(recordB).at(-1), 'bravo-token-3');
    assert.deepEqual([...new Set(launches(recordB))], ['bravo-token-2', 'bravo-token-3']);
  });
});
