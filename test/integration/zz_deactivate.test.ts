// Runs last (files load in name order): it deactivates the extension.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { EXTENSION_ID, elicitVia, nextPrompt, services, waitFor, waitForRunning } from './helpers';

suite('Deactivation', () => {
  let s: TestServices;
  suiteSetup(async () => {
    s = await services();
    await waitForRunning(s, 'fixture');
  });

  test('answers open prompts with cancel and leaves no server process behind', async () => {
    const pid = s.manager.get('fixture')?.pid;
    assert.ok(pid);
    const wire = elicitVia(
      'fixture',
      { message: 'Still open at shutdown', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } },
      { tag: 'shutdown', keepOnCallCancel: true },
    );
    await nextPrompt(s);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    // The host loaded this very module; deactivate() is what VS Code calls on shutdown.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(ext.extensionPath, (ext.packageJSON as { main: string }).main)) as { deactivate(): Promise<void> };
    // The tool call itself dies with the connection; the server's own record says what it got.
    await Promise.allSettled([wire, mod.deactivate()]);
    const recordFile = path.join(process.env['MCP_TEST_RECORD_DIR'] ?? '', 'fixture.jsonl');
    await waitFor(
      () => existsSync(recordFile) && readFileSync(recordFile, 'utf8').includes('"tag":"shutdown"'),
      'server recorded the answer',
    );
    const last = readFileSync(recordFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tag?: string; kind: string; response?: unknown })
      .filter((r) => r.tag === 'shutdown')
      .at(-1);
    assert.deepEqual(last?.response, { action: 'cancel' });
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, `stdio server ${pid} gone`);
  });
});
