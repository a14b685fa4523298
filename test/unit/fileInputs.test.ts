import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMcpJson, parseInputsSetting } from '../../src/config/parse/mcpJson';
import { addFileInputs, inputsFor } from '../../src/config/parse/fileInputs';
import { collectInputIds } from '../../src/config/parse/substitute';
import type { InputDefinition, ServerDefinition, ServerSource } from '../../src/config/parse/definitions';

const WORKSPACE: ServerSource = { kind: 'workspaceFile', file: '/repo/.vscode/mcp.json', folder: '/repo' };
const PROFILE: ServerSource = { kind: 'userFile', file: '/home/u/.config/Code/User/mcp.json', origin: 'profile' };

/** Reads the files as readServerFiles does: each file's inputs kept under its own path. */
function read(files: readonly { source: ServerSource & { file: string }; text: string }[]) {
  const byFile = new Map<string, Map<string, InputDefinition>>();
  const servers: ServerDefinition[] = [];
  const errors: string[] = [];
  for (const f of files) {
    const r = parseMcpJson(f.text, f.source);
    errors.push(...r.errors.map((e) => `${e.server ?? ''}: ${e.message}`));
    servers.push(...r.servers);
    addFileInputs(byFile, f.source.file, r.inputs);
  }
  const none = { user: new Map<string, InputDefinition>(), inForce: new Map<string, InputDefinition>() };
  /** What `${input:id}` of server `name` resolves against, or undefined where it is not declared for it. */
  const resolves = (name: string, id: string): InputDefinition | undefined => {
    const def = servers.find((s) => s.name === name);
    assert.ok(def, name);
    assert.ok(collectInputIds(def).includes(id), `${name} uses \${input:${id}}`);
    return inputsFor(def.source, byFile, none).get(id);
  };
  return { resolves, errors, names: servers.map((d) => d.name) };
}

void describe('inputs are kept per configuration file', () => {
  // The untrusted repository declares the id the user's profile server uses, with a command of its choice.
  const workspace = {
    source: WORKSPACE,
    text: JSON.stringify({
      inputs: [{ type: 'command', id: 'token', command: 'workbench.action.terminal.new' }],
      servers: { repo: { command: 'node', args: ['repo.js'], env: { T: '${input:token}' } } },
    }),
  };
  const profile = {
    source: PROFILE,
    text: JSON.stringify({
      inputs: [{ type: 'promptString', id: 'token', description: 'GitHub token', password: true }],
      servers: {
        github: { type: 'http', url: 'https://api.example/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
      },
    }),
  };

  void it("a profile server's ${input:…} resolves from the profile file, though the workspace file (read first) declares the same id", () => {
    const { resolves, errors } = read([workspace, profile]);
    assert.deepEqual(errors, []);
    assert.deepEqual(resolves('github', 'token'), { id: 'token', description: 'GitHub token', password: true });
    assert.equal(resolves('repo', 'token')?.type, 'command', "the workspace's server keeps its own file's input");
  });

  void it('an id declared only in another file is not declared for the server (the workspace cannot supply it)', () => {
    const withExtra = {
      source: WORKSPACE,
      text: JSON.stringify({
        inputs: [{ type: 'promptString', id: 'onlyInWorkspace', description: 'from the repo' }],
        servers: {},
      }),
    };
    const orphan = {
      source: PROFILE,
      text: JSON.stringify({ servers: { orphan: { command: 'node', env: { K: '${input:onlyInWorkspace}' } } } }),
    };
    const { names, errors } = read([withExtra, orphan]);
    // The profile file's own check refuses the server and names the gap.
    assert.deepEqual(names, []);
    assert.deepEqual(errors, ['orphan: "${input:onlyInWorkspace}" is used but no input with id "onlyInWorkspace" is declared in "inputs"']);
  });

  void it('two folders of one workspace each keep their own inputs', () => {
    const other: ServerSource & { file: string } = { kind: 'workspaceFile', file: '/other/.vscode/mcp.json', folder: '/other' };
    const { resolves } = read([
      workspace,
      {
        source: other,
        text: JSON.stringify({
          inputs: [{ type: 'promptString', id: 'token', description: 'Other token' }],
          servers: { second: { command: 'node', env: { T: '${input:token}' } } },
        }),
      },
    ]);
    assert.equal(resolves('repo', 'token')?.type, 'command');
    assert.equal(resolves('second', 'token')?.description, 'Other token');
  });

  void it('within one file the first declaration of an id wins, as before', () => {
    const byFile = new Map<string, Map<string, InputDefinition>>();
    addFileInputs(byFile, 'f', [
      { id: 'a', description: 'first', password: false },
      { id: 'a', description: 'second', password: false },
    ]);
    addFileInputs(byFile, 'f', [{ id: 'a', description: 'third', password: false }]);
    assert.equal(byFile.get('f')?.get('a')?.description, 'first');
  });

  void it('setting servers: a user-level server sees only the user’s inputs, a workspace one the value in force', () => {
    const user = new Map(parseInputsSetting([{ type: 'promptString', id: 'k', description: 'user' }]).inputs.map((i) => [i.id, i]));
    const inForce = new Map(parseInputsSetting([{ type: 'promptString', id: 'k', description: 'workspace' }]).inputs.map((i) => [i.id, i]));
    const byFile = new Map([['/home/u/.config/Code/User/mcp.json', new Map([['k', { id: 'k', description: 'file', password: false }]])]]);
    assert.equal(inputsFor({ kind: 'setting', scope: 'user' }, byFile, { user, inForce }).get('k')?.description, 'user');
    assert.equal(inputsFor({ kind: 'setting', scope: 'workspace' }, byFile, { user, inForce }).get('k')?.description, 'workspace');
    assert.equal(inputsFor({ kind: 'setting', scope: 'workspaceFolder' }, byFile, { user, inForce }).get('k')?.description, 'workspace');
  });
});
