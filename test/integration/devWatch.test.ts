import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

// `dev.watch` (issue 23): a change to a watched file restarts the server, as VS Code does for the
// servers it runs; a burst of changes restarts it once.

type ToolText = { content: { text: string }[] };
const pidOf = async (name: string): Promise<number> =>
  Number((await vscode.commands.executeCommand<ToolText>('mcpElicitation.runTool', name, 'pid', {})).content[0]?.text);

suite('dev.watch: a watched file changes, the server restarts', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  let watched = '';

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    watched = path.join(vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '', 'watched-src');
    mkdirSync(watched, { recursive: true });
  });
  suiteTeardown(async () => {
    mcpJson.restore();
    await waitFor(() => !s.manager.get('dev-watch'), 'dev-watch removed');
    rmSync(watched, { recursive: true, force: true });
  });

  test('saving a file under the glob restarts the running server once, even for a burst of twenty files', async () => {
    const json = JSON.parse(mcpJson.original) as { servers: Record<string, { args?: string[] }> };
    const fixture = json.servers['fixture']?.args?.[0] ?? '';
    json.servers['dev-watch'] = {
      command: 'node',
      args: [fixture, 'dev-watch'],
      dev: { watch: 'watched-src/**/*.js', debug: { type: 'node' } },
    } as never;
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    await waitForRunning(s, 'dev-watch');
    const before = await pidOf('dev-watch');
    // Counted on the transition into `starting`: the view hears several changes while one start runs.
    let restarts = 0;
    let last = s.manager.get('dev-watch')?.state.kind;
    const sub = s.manager.onDidChange(() => {
      const now = s.manager.get('dev-watch')?.state.kind;
      if (now === 'starting' && last !== 'starting') restarts++;
      last = now;
    });
    try {
      // The host's file watcher can start delivering events a moment after the server runs, and
      // under load a first save may land before it does. Saving again until the first restart
      // proves the watch is live; only then is the burst counted.
      const first = path.join(watched, 'first.js');
      for (let i = 0; restarts === 0 && i < 10; i++) {
        writeFileSync(first, `// ${Date.now()}\n`);
        await waitFor(() => restarts > 0, 'first restart', 3_000).catch(() => undefined);
      }
      await waitFor(() => restarts > 0 && s.manager.get('dev-watch')?.state.kind === 'running', 'restarted after a save', 30_000);
      const afterFirst = await pidOf('dev-watch');
      assert.notEqual(afterFirst, before, 'a new process after a save');
      // Let any save still in flight settle before the burst is counted.
      await new Promise((r) => setTimeout(r, 1500));
      restarts = 0;
      for (let i = 0; i < 20; i++) writeFileSync(path.join(watched, `f${i}.js`), `// ${Date.now()}\n`);
      await waitFor(() => restarts > 0 && s.manager.get('dev-watch')?.state.kind === 'running', 'restarted after the burst', 30_000);
      const after = await pidOf('dev-watch');
      assert.notEqual(after, afterFirst, 'a new process after the burst');
      // Another settle window passes with no further restart.
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(restarts, 1, 'one restart for the burst');
      writeFileSync(path.join(watched, 'notes.txt'), 'not matched');
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(restarts, 1, 'a file outside the glob restarts nothing');
    } finally {
      sub.dispose();
    }
  });
});
