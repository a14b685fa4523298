import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { services } from './helpers';
import { initializedClients, routeRoundTrip } from './routeFlow';

// Route in a multi-root workspace (scripts/lib/inHost.mjs opens a `.code-workspace` file with two
// folders for this suite alone; it skips itself elsewhere). A server of the second folder's
// `.vscode/mcp.json` is routed from there, so `${workspaceFolder}` still means its own folder, not
// the first; a server of the workspace file's `settings.mcp` is routed from that file. Both round
// trips leave every shared file byte-identical, and Give Back hands each back to VS Code.

suite('Multi-root workspace: Route keeps a server in its folder, changes no shared file, Give Back restores it', () => {
  suiteSetup(function () {
    if (!vscode.workspace.workspaceFile || vscode.workspace.workspaceFolders?.length !== 2) this.skip();
  });

  test("the second folder's server: routed from its own .vscode/mcp.json, `${workspaceFolder}` is still that folder, and the file keeps every byte", async function () {
    this.timeout(240_000);
    const s = await services();
    const [alpha, beta] = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    assert.ok(alpha && beta);
    const file = path.join(beta, '.vscode', 'mcp.json');
    const text = readFileSync(file, 'utf8');
    await routeRoundTrip(s, { name: 'mr-b', file, text, vscodeId: 'mcp.config.ws1.mr-b' });
    assert.ok(
      initializedClients(path.join(beta, 'mr-b.jsonl')).includes('mcp-elicitation-host'),
      'our copy wrote its record into its own folder: `${workspaceFolder}` meant the second folder',
    );
    assert.equal(existsSync(path.join(alpha, 'mr-b.jsonl')), false, 'nothing in the first folder');
    assert.equal(readFileSync(path.join(alpha, '.vscode', 'mcp.json'), 'utf8').includes('mr-b'), false, 'not moved into the first folder');
  });

  test("a server of the .code-workspace file's settings.mcp: routed and given back, the workspace file keeps every byte, comment included", async function () {
    this.timeout(240_000);
    const s = await services();
    const file = vscode.workspace.workspaceFile?.fsPath ?? '';
    const text = readFileSync(file, 'utf8');
    assert.match(text, /^\/\/ shared with the team/);
    await routeRoundTrip(s, { name: 'mr-ws', file, text, vscodeId: 'mcp.config.workspace.mr-ws' });
  });
});
