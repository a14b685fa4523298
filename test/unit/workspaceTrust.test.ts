/**
 * What an untrusted workspace can reach, in plain Node: which user servers depend on the
 * workspace (and so wait for trust), how a workspace envFile is told apart,
 * which names a configured server may not take.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parseServersSetting } from '../../src/config/parse/mcpJson';
import type { ServerDefinition } from '../../src/config/parse/definitions';
import { dependsOnWorkspace, isInside, mayStart } from '../../src/config/parse/trust';

const CTX = { userHome: '/home/u', env: { HOME: '/home/u', EMPTY: '' }, pathSeparator: '/' };
const user = (raw: Record<string, unknown>): ServerDefinition => {
  const r = parseServersSetting({ s: raw }, 'user');
  assert.deepEqual(r.errors, []);
  const def = r.servers[0];
  assert.ok(def);
  return def;
};
const depends = (raw: Record<string, unknown>): boolean => dependsOnWorkspace(user(raw), CTX, (p) => path.posix.isAbsolute(p));

void describe('a user server that depends on the workspace', () => {
  const cases: [string, Record<string, unknown>, boolean][] = [
    ['absolute command and args', { command: '/usr/bin/node', args: ['/opt/srv.js'] }, false],
    ['${workspaceFolder} in args', { command: 'node', args: ['${workspaceFolder}/srv.js'] }, true],
    ['${workspaceFolderBasename} in env', { command: 'node', env: { P: '${workspaceFolderBasename}' } }, true],
    ['${config:…} in args (a workspace setting could choose it)', { command: 'node', args: ['${config:my.path}'] }, true],
    ['${workspaceFolder:Name} in args', { command: 'node', args: ['${workspaceFolder:repo}/x.js'] }, true],
    ['relative envFile', { command: 'node', envFile: '.env' }, true],
    ['envFile under the home folder', { command: 'node', envFile: '${userHome}/.mcp.env' }, false],
    ['envFile from an unset variable (empty, so relative)', { command: 'node', envFile: '${env:EMPTY}.env' }, true],
    ['envFile led by an input (unknown yet, so relative)', { command: 'node', envFile: '${input:dir}/.env' }, true],
    ['relative cwd', { command: 'node', cwd: 'tools' }, true],
    ['absolute cwd', { command: 'node', cwd: '/srv' }, false],
    [
      'http server with ${workspaceFolder} in a header',
      { type: 'http', url: 'https://x.example/mcp', headers: { X: '${workspaceFolder}' } },
      true,
    ],
    ['http server', { type: 'http', url: 'https://x.example/mcp' }, false],
  ];
  for (const [name, raw, expected] of cases) void it(name, () => assert.equal(depends(raw), expected));

  void it('is held back in an untrusted workspace like a workspace server, and starts once trusted', () => {
    assert.equal(mayStart({ workspaceDefined: false, usesWorkspace: true }, false), false);
    assert.equal(mayStart({ workspaceDefined: false, usesWorkspace: true }, true), true);
    assert.equal(mayStart({ workspaceDefined: false, usesWorkspace: false }, false), true);
  });
});

void describe('an envFile inside an untrusted workspace', () => {
  void it('is told apart from a file beside the workspace on a path-segment boundary', () => {
    assert.equal(isInside('/ws/repo/.env', '/ws/repo', '/', false), true);
    assert.equal(isInside('/ws/repo-other/.env', '/ws/repo', '/', false), false);
    assert.equal(isInside('C:\\WS\\Repo\\.env', 'c:\\ws\\repo\\', '\\', true), true);
  });
});

void describe('names a configured server may not take', () => {
  void it("rejects a server named like an API caller, so neither can borrow the other's policy", () => {
    const r = parseServersSetting(
      { 'extension:ms-python.python': { command: 'node' }, 'Extension:other': { command: 'node' }, ok: { command: 'node' } },
      'user',
    );
    assert.deepEqual(
      r.servers.map((d) => d.name),
      ['ok'],
    );
    assert.equal(r.errors.length, 2);
    assert.match(r.errors[0]?.message ?? '', /kept for extensions that use the API/);
  });
});
