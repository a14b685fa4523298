/**
 * Why a server the user defined waits for workspace trust (src/config/trustGate.ts), in plain
 * Node over real folders and links: a command it runs, and an envFile of the workspace, however
 * the path reaches it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { parseInputsSetting, parseServersSetting } from '../../src/config/parse/mcpJson';
import type { InputDefinition, ServerDefinition } from '../../src/config/parse/definitions';
import { insideFolders, userTrustWait } from '../../src/config/trustGate';

const root = mkdtempSync(path.join(os.tmpdir(), 'mcp-eh-trust-'));
after(() => rmSync(root, { recursive: true, force: true }));
const repo = path.join(root, 'repo');
mkdirSync(repo);
writeFileSync(path.join(repo, '.env'), 'GIT_CONFIG_COUNT=1\n');
const home = path.join(root, 'home');
mkdirSync(home);
writeFileSync(path.join(home, 'mine.env'), 'A=1\n');
// A link outside the workspace that leads into it, and the workspace opened through a link.
symlinkSync(path.join(repo, '.env'), path.join(home, 'linked.env'));
symlinkSync(repo, path.join(root, 'repo-link'));
symlinkSync(repo, path.join(home, 'repo-dir-link'));

const substitution = { userHome: home, env: { HOME: home }, pathSeparator: path.sep };
const user = (raw: Record<string, unknown>): ServerDefinition => {
  const r = parseServersSetting({ s: raw }, 'user');
  assert.deepEqual(r.errors, []);
  const def = r.servers[0];
  assert.ok(def);
  return def;
};
const inputs = new Map<string, InputDefinition>(
  parseInputsSetting([
    { type: 'command', id: 'port', command: 'some.extension.pickPort' },
    { type: 'promptString', id: 'token', description: 'Token' },
  ]).inputs.map((i) => [i.id, i]),
);
const wait = (raw: Record<string, unknown>, folders: string[] = [repo]): Promise<string | undefined> =>
  userTrustWait(user(raw), inputs, { substitution, folders, caseInsensitive: false });

void describe('a user’s server waits for trust', () => {
  void it('when it runs a command: a ${command:…} variable, or a command input', async () => {
    assert.equal(await wait({ command: 'node', args: ['--port=${command:python.interpreterPath}'] }), 'command');
    assert.equal(await wait({ type: 'http', url: 'https://x.example/mcp', headers: { A: '${command:auth.token}' } }), 'command');
    assert.equal(await wait({ command: 'node', env: { PORT: '${input:port}' } }), 'command');
    assert.equal(await wait({ command: 'node', env: { TOKEN: '${input:token}' } }), undefined, 'a prompt runs nothing');
  });

  void it('when its envFile is a file of the workspace, by its path, through a link to it, or in a folder opened through a link', async () => {
    assert.equal(await wait({ command: 'node', envFile: path.join(repo, '.env') }), 'envFile');
    assert.equal(await wait({ command: 'node', envFile: path.join(home, 'linked.env') }), 'envFile');
    assert.equal(await wait({ command: 'node', envFile: path.join(home, 'repo-dir-link', 'not-there-yet.env') }), 'envFile');
    assert.equal(await wait({ command: 'node', envFile: path.join(repo, '.env') }, [path.join(root, 'repo-link')]), 'envFile');
    assert.equal(await wait({ command: 'node', envFile: '${userHome}/linked.env' }), 'envFile');
  });

  void it('not for an envFile of the user’s own, nor without a workspace', async () => {
    assert.equal(await wait({ command: 'node', envFile: path.join(home, 'mine.env') }), undefined);
    assert.equal(await wait({ command: 'node', envFile: path.join(repo, '.env') }, []), undefined);
  });

  void it('and still for what reads the workspace (a relative envFile, ${workspaceFolder})', async () => {
    assert.equal(await wait({ command: 'node', envFile: '.env' }), 'workspaceFiles');
    assert.equal(await wait({ command: 'node', cwd: '${workspaceFolder}' }), 'workspaceFiles');
  });
});

void describe('insideFolders', () => {
  void it('compares on a path-segment boundary, links resolved on both sides', async () => {
    assert.equal(await insideFolders(path.join(root, 'repo-other', '.env'), [repo], false), false);
    assert.equal(await insideFolders(path.join(home, 'linked.env'), [path.join(root, 'repo-link')], false), true);
  });
});
