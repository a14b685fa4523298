import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ServerDefinition, StdioServerDefinition } from '../../src/config/parse/definitions';
import {
  collectCommandIds,
  collectInputIds,
  substituteDefinition,
  substituteVariables,
  type SubstitutionContext,
} from '../../src/config/parse/substitute';

const ctx: SubstitutionContext = {
  workspaceFolder: '/home/me/proj',
  userHome: '/home/me',
  env: { HOME: '/home/me', TOKEN: 's3cret', EMPTY: '', UNSET: undefined, TRICK: '${env:TOKEN}' },
  pathSeparator: '/',
  inputs: { apiKey: 'k-123', blank: '' },
};

const win: SubstitutionContext = {
  workspaceFolder: 'C:\\Users\\me\\proj\\',
  userHome: 'C:\\Users\\me',
  env: { Path: 'C:\\bin' },
  pathSeparator: '\\',
  inputs: {},
};

function value(text: string, c: SubstitutionContext = ctx): string {
  const r = substituteVariables(text, c);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.value;
}

function error(text: string, c: SubstitutionContext = ctx): string {
  const r = substituteVariables(text, c);
  assert.ok(!r.ok, `expected an error for ${text}`);
  return r.error;
}

void describe('substituteVariables', () => {
  void it('resolves every supported variable', () => {
    assert.equal(value('${workspaceFolder}'), '/home/me/proj');
    assert.equal(value('${workspaceFolderBasename}'), 'proj');
    assert.equal(value('${userHome}'), '/home/me');
    assert.equal(value('${env:TOKEN}'), 's3cret');
    assert.equal(value('${input:apiKey}'), 'k-123');
    assert.equal(value('${input:blank}'), '');
    assert.equal(value('${pathSeparator}'), '/');
    assert.equal(value('${/}'), '/');
  });

  void it('resolves several variables embedded in text', () => {
    assert.equal(value('--root=${workspaceFolder}${/}src --key ${input:apiKey}'), '--root=/home/me/proj/src --key k-123');
  });

  void it('expands a missing or unset environment variable to nothing', () => {
    assert.equal(value('[${env:NOPE}]'), '[]');
    assert.equal(value('[${env:UNSET}]'), '[]');
    assert.equal(value('[${env:EMPTY}]'), '[]');
  });

  void it('does not rescan expanded text', () => {
    assert.equal(value('${env:TRICK}'), '${env:TOKEN}');
  });

  void it('leaves text without variables, and an unclosed "${", as it is', () => {
    assert.equal(value('plain $HOME {x} $'), 'plain $HOME {x} $');
    assert.equal(value('cost ${ 5'), 'cost ${ 5');
  });

  void it('names an unknown variable', () => {
    assert.match(error('a ${file} b'), /Unknown variable \$\{file\}/);
    assert.match(error('${}'), /Unknown variable \$\{\}/);
    assert.match(error('${env}'), /needs a variable name/);
  });

  const multi: SubstitutionContext = {
    ...ctx,
    folders: { api: '/ws/api', web: '/ws/web', toString: '/ws/ts' },
    cwd: '/host/cwd',
    config: (key) => ({ 'editor.fontSize': 14, 'editor.wordWrap': 'on', 'files.exclude': { a: true }, 'x.flag': false })[key],
    commands: { 'ext.pickPort': '8080', 'ext.empty': '' },
  };

  const { workspaceFolder: _wf, ...noFolder } = multi;

  void it('every variable VS Code resolves for a server: ${workspaceFolder:Name}, ${workspaceFolderBasename:Name}, ${workspaceRoot}, ${cwd}, ${config:…}, ${command:…}', () => {
    assert.equal(value('${workspaceFolder:web}/srv', multi), '/ws/web/srv');
    assert.equal(value('${workspaceFolderBasename:api}', multi), 'api');
    assert.equal(value('${workspaceRoot}|${workspaceRootFolderName}', multi), '/home/me/proj|proj');
    assert.equal(value('${cwd}', multi), '/home/me/proj', 'the folder when there is one');
    assert.equal(value('${cwd}', noFolder), '/host/cwd', "else the host's working directory");
    assert.equal(value('${cwd:api}', multi), '/ws/api');
    assert.equal(
      value('--size=${config:editor.fontSize} --wrap=${config:editor.wordWrap} ${config:x.flag}', multi),
      '--size=14 --wrap=on false',
    );
    assert.equal(value('--port=${command:ext.pickPort}${command:ext.empty}', multi), '--port=8080');
  });

  void it('each unresolvable one is an error that says why', () => {
    assert.match(error('${workspaceFolder:nope}', multi), /no open folder is named "nope"/);
    assert.match(error('${workspaceFolder:toString}', { ...multi, folders: {} }), /no open folder is named "toString"/);
    assert.match(error('${config:not.set}', multi), /the setting "not.set" is not set/);
    assert.match(error('${config:files.exclude}', multi), /structured value/);
    assert.match(error('${config:}', multi), /needs a setting name/);
    assert.match(error('${command:never.ran}', multi), /\$\{command:never.ran\} has no value/);
    assert.match(error('${config:editor.fontSize}'), /"editor.fontSize" is not set/, 'no settings reader: not set');
  });

  void it('a value is never scanned again: a setting or command output that contains ${…} stays literal', () => {
    const c: SubstitutionContext = { ...multi, config: () => '${env:TOKEN}', commands: { x: '${input:apiKey}' } };
    assert.equal(value('${config:a.b}|${command:x}', c), '${env:TOKEN}|${input:apiKey}');
  });

  void it('collectCommandIds lists each ${command:…} once, in order of first use', () => {
    const def: StdioServerDefinition = {
      name: 's',
      source: { kind: 'setting', scope: 'user' },
      type: 'stdio',
      command: '${command:a}',
      args: ['${command:b}', '${command:a}'],
      env: { X: '${command:c}', Y: null },
    };
    assert.deepEqual(collectCommandIds(def), ['a', 'b', 'c']);
  });

  void it('reports an input with no value as not declared', () => {
    assert.match(error('${input:missing}'), /input "missing" is not declared/);
    assert.match(error('${input:toString}'), /input "toString" is not declared/);
    assert.match(error('${input:}'), /needs an input id/);
    assert.match(error('${env:}'), /needs a variable name/);
  });

  void it('needs a workspace folder for the folder variables', () => {
    const { workspaceFolder: _omit, ...noFolder } = ctx;
    assert.match(error('${workspaceFolder}', noFolder), /no workspace folder/);
    assert.match(error('${workspaceFolderBasename}', noFolder), /no workspace folder/);
    assert.equal(value('${userHome}', noFolder), '/home/me');
  });

  void it('handles Windows paths and case-insensitive environment names', () => {
    assert.equal(value('${workspaceFolder}${/}bin${pathSeparator}x.exe', win), 'C:\\Users\\me\\proj\\\\bin\\x.exe');
    assert.equal(value('${workspaceFolderBasename}', win), 'proj');
    assert.equal(value('${env:PATH}', win), 'C:\\bin');
    // POSIX environment names are case-sensitive.
    assert.equal(value('${env:token}'), '');
  });
});

void describe('substituteDefinition', () => {
  const stdio: StdioServerDefinition = {
    name: 's',
    source: { kind: 'workspaceFile', file: '/home/me/proj/.vscode/mcp.json', folder: '/home/me/proj' },
    type: 'stdio',
    command: '${userHome}/bin/server',
    args: ['--token=${env:TOKEN}', '--key', '${input:apiKey}', 'plain'],
    env: { KEY: '${input:apiKey}', ROOT: '${workspaceFolder}' },
    envFile: '${workspaceFolder}/.env',
    cwd: '${workspaceFolder}${/}sub',
  };

  void it('substitutes command, args, env values, envFile and cwd', () => {
    const r = substituteDefinition(stdio, ctx);
    assert.ok(r.ok);
    assert.deepEqual(r.def, {
      ...stdio,
      command: '/home/me/bin/server',
      args: ['--token=s3cret', '--key', 'k-123', 'plain'],
      env: { KEY: 'k-123', ROOT: '/home/me/proj' },
      envFile: '/home/me/proj/.env',
      cwd: '/home/me/proj/sub',
    });
  });

  void it('leaves environment names alone and omits absent optional fields', () => {
    const { envFile: _e, cwd: _c, ...bare } = stdio;
    const r = substituteDefinition({ ...bare, env: { '${env:TOKEN}': 'x' } }, ctx);
    assert.ok(r.ok);
    assert.deepEqual(Object.keys(r.def.env), ['${env:TOKEN}']);
    assert.ok(!('envFile' in r.def) && !('cwd' in r.def));
  });

  void it('names the server, file and key that failed', () => {
    const r = substituteDefinition({ ...stdio, args: ['ok', '${nope}'] }, ctx);
    assert.ok(!r.ok);
    assert.deepEqual({ ...r.error, message: '' }, { file: '/home/me/proj/.vscode/mcp.json', server: 's', key: 'args[1]', message: '' });
    assert.match(r.error.message, /\$\{nope\}/);
    const env = substituteDefinition({ ...stdio, env: { A: '${input:other}' } }, ctx);
    assert.ok(!env.ok);
    assert.equal(env.error.key, 'env.A');
  });

  void it('substitutes url and header values, then checks the url', () => {
    const remote: ServerDefinition = {
      name: 'r',
      source: { kind: 'setting', scope: 'user' },
      type: 'http',
      url: '${env:BASE}/mcp',
      headers: { Authorization: 'Bearer ${input:apiKey}' },
    };
    const ok = substituteDefinition(remote, { ...ctx, env: { BASE: 'https://api.example.com' } });
    assert.ok(ok.ok);
    assert.deepEqual(ok.def, { ...remote, url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer k-123' } });

    const bad = substituteDefinition(remote, { ...ctx, env: { BASE: 'file://' } });
    assert.ok(!bad.ok);
    assert.deepEqual([bad.error.server, bad.error.key, bad.error.file], ['r', 'url', undefined]);

    const header = substituteDefinition({ ...remote, url: 'https://x', headers: { 'X-A': '${bogus}' } }, ctx);
    assert.ok(!header.ok);
    assert.equal(header.error.key, 'headers.X-A');
  });
});

void describe('collectInputIds', () => {
  void it('lists each referenced input once, in order, across all fields', () => {
    const def: ServerDefinition = {
      name: 's',
      source: { kind: 'setting', scope: 'user' },
      type: 'stdio',
      command: 'x',
      args: ['${input:b}', '${input:a}-${input:b}', '${env:input:c}'],
      env: { A: '${input:c}' },
      cwd: '${input:d}',
    };
    assert.deepEqual(collectInputIds(def), ['b', 'a', 'c', 'd']);
  });

  void it('reads url and header values of remote servers', () => {
    const def: ServerDefinition = {
      name: 'r',
      source: { kind: 'setting', scope: 'user' },
      type: 'sse',
      url: 'https://${input:host}/sse',
      headers: { Authorization: '${input:token}' },
    };
    assert.deepEqual(collectInputIds(def), ['host', 'token']);
  });
});
