import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseJsonc } from '../../src/config/parse/jsonc';
import { parseMcpJson, parseServersSetting } from '../../src/config/parse/mcpJson';
import { mergeDefinitions } from '../../src/config/parse/mergeDefinitions';
import { formatConfigError } from '../../src/config/parse/report';
import { fingerprint } from '../../src/config/parse/serverFingerprint';
import type { ConfigError, ServerDefinition, ServerSource } from '../../src/config/parse/definitions';

const FILE: ServerSource = { kind: 'workspaceFile', file: '/ws/a/.vscode/mcp.json', folder: '/ws/a' };
const FILE_B: ServerSource = { kind: 'workspaceFile', file: '/ws/b/.vscode/mcp.json', folder: '/ws/b' };

function only<T>(items: readonly T[]): T {
  assert.equal(items.length, 1, `expected one item, got ${JSON.stringify(items)}`);
  return items[0] as T;
}

function parseServer(entry: unknown): { servers: ServerDefinition[]; errors: ConfigError[] } {
  return parseMcpJson(JSON.stringify({ servers: { s: entry } }), FILE);
}

void describe('parseJsonc', () => {
  void it('accepts comments and trailing commas and keeps comment-like text inside strings', () => {
    const r = parseJsonc('// top\n{ /* a */ "a": "x // not a comment /* nor this */", "b": [1, 2,], }\n');
    assert.ok(r.ok);
    assert.deepEqual(r.value, { a: 'x // not a comment /* nor this */', b: [1, 2] });
  });

  void it('decodes escapes, numbers and literals like JSON.parse', () => {
    const text = '{"s":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9","n":[-1.5e3,0,12],"t":true,"f":false,"z":null}';
    const r = parseJsonc(text);
    assert.ok(r.ok);
    assert.deepEqual(r.value, JSON.parse(text));
  });

  void it('reports the line and column of a syntax error', () => {
    const r = parseJsonc('{\n  "a": 1\n  "b": 2\n}');
    assert.ok(!r.ok);
    assert.equal(r.error.line, 3);
    assert.equal(r.error.column, 3);
    assert.match(r.error.message, /Expected ',' or '}'/);
  });

  void it('handles a BOM and CRLF line endings when placing errors', () => {
    const r = parseJsonc('\uFEFF{\r\n  "a": 1,\r\n  "b" 2\r\n}');
    assert.ok(!r.ok);
    assert.deepEqual([r.error.line, r.error.column], [3, 7]);
    const ok = parseJsonc('\uFEFF{\r\n  "a": 1\r\n}');
    assert.ok(ok.ok);
    assert.deepEqual(ok.value, { a: 1 });
  });

  void it('reports unterminated strings at their start and unterminated comments', () => {
    const s = parseJsonc('{"a": "abc');
    assert.ok(!s.ok);
    assert.deepEqual([s.error.line, s.error.column, s.error.message], [1, 7, 'Unterminated string']);
    const c = parseJsonc('{} /* open');
    assert.ok(!c.ok);
    assert.match(c.error.message, /Unterminated block comment/);
  });

  void it('rejects trailing garbage, bare words, lone commas and raw newlines in strings', () => {
    for (const bad of ['{} x', '{"a": yes}', '[,]', '{,}', '{"a": "x\ny"}', '', '-']) {
      assert.equal(parseJsonc(bad).ok, false, bad);
    }
  });

  void it('bounds nesting depth instead of overflowing the stack', () => {
    const r = parseJsonc('['.repeat(100_000));
    assert.ok(!r.ok);
    assert.match(r.error.message, /too deep/);
  });

  void it('keeps __proto__ as an own property', () => {
    const r = parseJsonc('{"__proto__": {"polluted": true}}');
    assert.ok(r.ok);
    const v = r.value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.ok(Object.hasOwn(v, '__proto__'));
  });

  void it('gives positions of properties and elements', () => {
    const r = parseJsonc('{\n  "x": [\n    1,\n    2\n  ]\n}');
    assert.ok(r.ok);
    const root = r.value as { x: unknown[] };
    assert.deepEqual(r.positionOf(root, 'x'), { line: 2, column: 3 });
    assert.deepEqual(r.positionOf(root.x, 1), { line: 4, column: 5 });
    assert.equal(r.positionOf(root, 'missing'), undefined);
  });
});

void describe('parseMcpJson: valid servers', () => {
  void it('parses stdio, http, sse and an omitted type, keeping the source', () => {
    const text = `{
      // Comments and trailing commas, as VS Code allows
      "inputs": [
        { "type": "promptString", "id": "token", "description": "API token", "password": true, },
      ],
      "servers": {
        "local": { "type": "stdio", "command": "node", "args": ["server.js", "--port", "1"], "env": { "A": "1" }, "envFile": ".env", "cwd": "/tmp" },
        "implicit": { "command": "uvx", "somethingNew": 42 },
        "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
        "legacy": { "type": "sse", "url": "http://localhost:3000/sse" },
        "inferred": { "url": "https://example.com/inferred" },
      },
    }`;
    const r = parseMcpJson(text, FILE);
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.inputs, [{ id: 'token', description: 'API token', password: true }]);
    assert.deepEqual(r.servers, [
      {
        name: 'local',
        source: FILE,
        type: 'stdio',
        command: 'node',
        args: ['server.js', '--port', '1'],
        env: { A: '1' },
        envFile: '.env',
        cwd: '/tmp',
      },
      { name: 'implicit', source: FILE, type: 'stdio', command: 'uvx', args: [], env: {}, ignoredKeys: ['somethingNew'] },
      { name: 'remote', source: FILE, type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
      { name: 'legacy', source: FILE, type: 'sse', url: 'http://localhost:3000/sse', headers: {} },
      { name: 'inferred', source: FILE, type: 'http', url: 'https://example.com/inferred', headers: {} },
    ]);
  });

  void it('treats an empty file and a file without servers as empty', () => {
    assert.deepEqual(parseMcpJson('  \n', FILE), { servers: [], inputs: [], errors: [] });
    assert.deepEqual(parseMcpJson('{ /* nothing yet */ }', FILE), { servers: [], inputs: [], errors: [] });
  });

  void it('defaults input description and password, and keeps a default value', () => {
    const r = parseMcpJson('{"inputs":[{"type":"promptString","id":"a"},{"type":"promptString","id":"b","default":"x"}]}', FILE);
    assert.deepEqual(r.inputs, [
      { id: 'a', description: '', password: false },
      { id: 'b', description: '', password: false, default: 'x' },
    ]);
  });
});

void describe('parseMcpJson: errors', () => {
  void it('reports invalid JSON once, with file, line and column', () => {
    const r = parseMcpJson('{\n  "servers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}', FILE);
    const e = only(r.errors);
    assert.equal(e.file, FILE.file);
    assert.equal(e.line, 4);
    assert.equal(e.column, 5);
    assert.match(e.message, /^Invalid JSON at 4:5: /);
    assert.deepEqual(r.servers, []);
  });

  void it('rejects a document that is not an object', () => {
    assert.match(only(parseMcpJson('[]', FILE).errors).message, /JSON object/);
  });

  const cases: Array<[title: string, entry: unknown, key: string | undefined, message: RegExp]> = [
    ['unknown type', { type: 'websocket', url: 'ws://x' }, 'type', /Unknown server type "websocket"/],
    ['missing command', { type: 'stdio', args: [] }, 'command', /"command" is required/],
    ['empty command', { command: '  ' }, 'command', /"command" is required/],
    ['missing url', { type: 'http' }, 'url', /"url" is required for http/],
    ['non-http url', { type: 'sse', url: 'file:///etc/passwd' }, 'url', /http:\/\/ or https:\/\//],
    ['unparsable url', { type: 'http', url: 'not a url' }, 'url', /http:\/\/ or https:\/\//],
    ['args not an array', { command: 'x', args: '--flag' }, 'args', /array of strings/],
    ['non-string arg', { command: 'x', args: ['ok', 3] }, 'args[1]', /"args\[1\]" must be a string/],
    ['env not an object', { command: 'x', env: ['A=1'] }, 'env', /object of string, number or null values/],
    ['boolean env value', { command: 'x', env: { DEBUG: true } }, 'env.DEBUG', /"env.DEBUG" must be a string, a number or null/],
    ['object env value', { command: 'x', env: { CFG: { a: 1 } } }, 'env.CFG', /"env.CFG" must be a string, a number or null/],
    ['non-string header', { type: 'http', url: 'https://x', headers: { 'X-N': true } }, 'headers.X-N', /must be a string/],
    ['non-string cwd', { command: 'x', cwd: 1 }, 'cwd', /"cwd" must be a string/],
    [
      'http client metadata document',
      { url: 'https://x', clientMetadataUrl: 'http://c.example/doc.json' },
      'clientMetadataUrl',
      /https:\/\/ URL with a path/,
    ],
    [
      'client metadata document without a path',
      { url: 'https://x', clientMetadataUrl: 'https://c.example' },
      'clientMetadataUrl',
      /with a path/,
    ],
    ['non-string envFile', { command: 'x', envFile: null }, 'envFile', /"envFile" must be a string/],
    ['entry not an object', 'node server.js', undefined, /must be an object/],
  ];
  for (const [title, entry, key, message] of cases) {
    void it(`names file, server and key: ${title}`, () => {
      const r = parseServer(entry);
      assert.deepEqual(r.servers, []);
      const e = only(r.errors);
      assert.equal(e.file, FILE.file);
      assert.equal(e.server, 's');
      assert.equal(e.key, key);
      assert.match(e.message, message);
      assert.equal(typeof e.line, 'number');
    });
  }

  void it('skips only the bad server and points at the offending line', () => {
    const text = [
      '{',
      '  "servers": {',
      '    "good": { "command": "a" },',
      '    "bad": {',
      '      "command": "b",',
      '      "args": ["x", 1]',
      '    },',
      '    "alsoGood": { "url": "https://x" }',
      '  }',
      '}',
    ].join('\n');
    const r = parseMcpJson(text, FILE);
    assert.deepEqual(
      r.servers.map((s) => s.name),
      ['good', 'alsoGood'],
    );
    const e = only(r.errors);
    assert.deepEqual([e.server, e.key, e.line], ['bad', 'args[1]', 6]);
  });

  void it('reports every problem of one server', () => {
    const r = parseServer({ command: 1, args: [1], env: { A: false } });
    assert.deepEqual(
      r.errors.map((e) => e.key),
      ['command', 'args[0]', 'env.A'],
    );
  });

  void it('takes env values as VS Code does: a number becomes its string, null (remove the variable) stays null', () => {
    const r = parseServer({ command: 'x', env: { PORT: 8080, RATIO: 0.5, UNSET_ME: null, NAME: 'n' } });
    assert.deepEqual(r.errors, []);
    const def = only(r.servers);
    assert.ok(def.type === 'stdio');
    assert.deepEqual(def.env, { PORT: '8080', RATIO: '0.5', UNSET_ME: null, NAME: 'n' });
  });

  void it('a remote server keeps its pre-registered clientId and its clientMetadataUrl (sign-in, issue 25)', () => {
    const r = parseServer({ url: 'https://x/mcp', clientId: 'pre-id', clientMetadataUrl: 'https://c.example/client.json' });
    assert.deepEqual(r.errors, []);
    const def = only(r.servers);
    assert.ok(def.type === 'http');
    assert.equal(def.clientId, 'pre-id');
    assert.equal(def.clientMetadataUrl, 'https://c.example/client.json');
    assert.equal(def.ignoredKeys, undefined, 'both keys are acted on');
  });

  void it('headers stay strings only: a number or null header is an error naming it', () => {
    const r = parseServer({ type: 'http', url: 'https://x', headers: { 'X-A': 1, 'X-B': null } });
    assert.deepEqual(
      r.errors.map((e) => e.key),
      ['headers.X-A', 'headers.X-B'],
    );
  });

  void it('reads dev.watch (a glob or a list) and names every key it does not act on, dev.debug and sandbox included', () => {
    const r = parseServer({ command: 'x', dev: { watch: 'src/**/*.ts', debug: { type: 'node' } }, sandboxEnabled: true, agrs: ['typo'] });
    assert.deepEqual(r.errors, []);
    const def = only(r.servers);
    assert.deepEqual(def.devWatch, ['src/**/*.ts']);
    assert.deepEqual(def.ignoredKeys, ['sandboxEnabled', 'agrs', 'dev.debug']);
    assert.deepEqual(only(parseServer({ url: 'https://x', dev: { watch: ['a/**', 'b.json'] } }).servers).devWatch, ['a/**', 'b.json']);
    assert.deepEqual(
      parseServer({ command: 'x', dev: { watch: 3 } }).errors.map((e) => e.key),
      ['dev.watch'],
    );
    assert.deepEqual(
      parseServer({ command: 'x', dev: 'watch' }).errors.map((e) => e.key),
      ['dev'],
    );
  });

  void it('ignores unknown keys', () => {
    const r = parseServer({ command: 'x', dev: { watch: '**' }, sandbox: true });
    assert.deepEqual(r.errors, []);
    assert.equal(r.servers.length, 1);
  });

  void it('rejects a server using an input that is not declared, naming the key', () => {
    const text = JSON.stringify({
      inputs: [{ type: 'promptString', id: 'known' }],
      servers: { s: { command: 'x', args: ['${input:known}'], env: { T: '${input:unknown}' } }, t: { command: '${input:known}' } },
    });
    const r = parseMcpJson(text, FILE);
    assert.deepEqual(
      r.servers.map((s) => s.name),
      ['t'],
    );
    const e = only(r.errors);
    assert.deepEqual([e.server, e.key], ['s', 'env.T']);
    assert.match(e.message, /"unknown"/);
  });

  void it('reports bad inputs and keeps the good ones', () => {
    const r = parseMcpJson(
      JSON.stringify({
        inputs: [
          { type: 'promptString', id: 'a' },
          { type: 'pickString', id: 'b' },
          { type: 'promptString' },
          { type: 'promptString', id: 'a' },
          { type: 'promptString', id: 'c', password: 'yes' },
          'x',
        ],
      }),
      FILE,
    );
    assert.deepEqual(
      r.inputs.map((i) => i.id),
      ['a'],
    );
    assert.deepEqual(
      r.errors.map((e) => e.key),
      ['inputs[1].options', 'inputs[2].id', 'inputs[3].id', 'inputs[4].password', 'inputs[5]'],
    );
    assert.ok(r.errors.every((e) => e.file === FILE.file && e.line !== undefined));
  });

  void it('reads all three input types VS Code has: promptString, pickString (strings or label/value) and command', () => {
    const r = parseMcpJson(
      JSON.stringify({
        inputs: [
          { type: 'promptString', id: 'p', description: 'Token', password: true },
          { type: 'pickString', id: 'k', description: 'Region', options: ['eu', { label: 'United States', value: 'us' }], default: 'us' },
          { type: 'command', id: 'c', command: 'ext.pickPort', args: { min: 1024 } },
        ],
      }),
      FILE,
    );
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.inputs, [
      { id: 'p', description: 'Token', password: true },
      {
        id: 'k',
        type: 'pickString',
        description: 'Region',
        password: false,
        default: 'us',
        options: [
          { label: 'eu', value: 'eu' },
          { label: 'United States', value: 'us' },
        ],
      },
      { id: 'c', type: 'command', description: '', password: false, command: 'ext.pickPort', args: { min: 1024 } },
    ]);
  });

  void it('bad pickString and command inputs are errors naming the key', () => {
    const r = parseMcpJson(
      JSON.stringify({
        inputs: [
          { type: 'pickString', id: 'a', options: [] },
          { type: 'pickString', id: 'b', options: ['x', 3] },
          { type: 'pickString', id: 'c', options: ['x'], default: 'y' },
          { type: 'command', id: 'd' },
          { type: 'shell', id: 'e' },
        ],
      }),
      FILE,
    );
    assert.deepEqual(r.inputs, []);
    assert.deepEqual(
      r.errors.map((e) => e.key),
      ['inputs[0].options', 'inputs[1].options[1]', 'inputs[2].default', 'inputs[3].command', 'inputs[4].type'],
    );
  });

  void it('reports a servers value that is not an object', () => {
    const e = only(parseMcpJson('{"servers": []}', FILE).errors);
    assert.equal(e.key, 'servers');
  });

  void it('formats errors for the log', () => {
    const e: ConfigError = { file: '/f.json', line: 3, column: 7, server: 's', key: 'args[1]', message: 'bad' };
    assert.equal(formatConfigError(e), '/f.json:3:7: server "s" (args[1]): bad');
    assert.equal(formatConfigError({ server: 's', message: 'bad' }), 'server "s": bad');
    assert.equal(formatConfigError({ key: 'inputs[0].id', message: 'bad' }), 'inputs[0].id: bad');
  });
});

void describe('parseServersSetting', () => {
  void it('parses the setting with a setting source and position-free errors', () => {
    const r = parseServersSetting({ a: { command: 'x' }, b: { type: 'http' } }, 'user');
    assert.deepEqual(r.servers, [
      { name: 'a', source: { kind: 'setting', scope: 'user' }, type: 'stdio', command: 'x', args: [], env: {} },
    ]);
    const e = only(r.errors);
    assert.deepEqual(e, { server: 'b', key: 'url', message: e.message });
  });

  void it('treats an unset setting as empty and rejects a non-object', () => {
    assert.deepEqual(parseServersSetting(undefined, 'workspace'), { servers: [], errors: [] });
    assert.equal(only(parseServersSetting('nope', 'workspace').errors).key, 'servers');
  });
});

void describe('mergeDefinitions', () => {
  const stdio = (name: string, source: ServerSource, command = 'x'): ServerDefinition => ({
    name,
    source,
    type: 'stdio',
    command,
    args: [],
    env: {},
  });

  void it('lets the workspace file win over settings and reports the clash', () => {
    const file = stdio('s', FILE, 'from-file');
    const setting = stdio('s', { kind: 'setting', scope: 'workspace' }, 'from-setting');
    const other = stdio('t', { kind: 'setting', scope: 'user' });
    const r = mergeDefinitions([file], [setting, other]);
    assert.deepEqual(new Set(r.servers), new Set([file, other]));
    assert.equal(r.clashes.length, 1);
    assert.match(only(r.clashes), /"s" from workspace settings is ignored: \/ws\/a\/\.vscode\/mcp\.json/);
  });

  void it('reports the later folder as a clash in multi-root workspaces', () => {
    const a = stdio('s', FILE);
    const b = stdio('s', FILE_B);
    const r = mergeDefinitions([a, b], []);
    assert.deepEqual(r.servers, [a]);
    assert.match(only(r.clashes), /\/ws\/b\/\.vscode\/mcp\.json is ignored/);
  });

  void it("prefers the more specific workspace scope among the workspace's settings", () => {
    const ws = stdio('s', { kind: 'setting', scope: 'workspace' });
    const folder = stdio('s', { kind: 'setting', scope: 'workspaceFolder' });
    const r = mergeDefinitions([], [ws, folder]);
    assert.deepEqual(r.servers, [folder]);
    assert.match(only(r.clashes), /workspace settings is ignored: workspaceFolder settings/);
  });

  void it('keeps the user\'s server under its name; a workspace server of that name is listed as "name (workspace)"', () => {
    const user = stdio('github', { kind: 'setting', scope: 'user' }, 'user-cmd');
    const file = stdio('github', FILE, 'repo-cmd');
    const folder = stdio('github', { kind: 'setting', scope: 'workspaceFolder' }, 'folder-cmd');
    const r = mergeDefinitions([file], [user, folder]);
    const byName = new Map(r.servers.map((d) => [d.name, d]));
    assert.equal(byName.get('github'), user, "the name, and so its policy and attribution, stay the user's");
    const renamed = byName.get('github (workspace)');
    assert.equal(renamed?.type === 'stdio' && renamed.command, 'repo-cmd');
    assert.equal(renamed?.writtenAs, 'github', 'the file is still edited under the name written there');
    assert.equal(r.servers.length, 2, "the folder setting of the same name loses to the file, as among the workspace's definitions");
    assert.ok(
      r.clashes.some((c) => /"github" from \/ws\/a\/\.vscode\/mcp\.json is listed as "github \(workspace\)"/.test(c)),
      r.clashes.join('\n'),
    );
  });

  void it('a workspace cannot squat the renamed name either: it gets the next one', () => {
    const user = stdio('db', { kind: 'setting', scope: 'user' });
    const squat = stdio('db (workspace)', FILE, 'squat');
    const clash = stdio('db', FILE_B, 'clash');
    const r = mergeDefinitions([squat, clash], [user]);
    assert.deepEqual(r.servers.map((d) => d.name).sort(), ['db', 'db (workspace 2)', 'db (workspace)']);
    assert.equal(r.servers.find((d) => d.name === 'db (workspace 2)')?.writtenAs, 'db');
  });

  void it('keeps the profile mcp.json\'s server under its name although workspace files are read first: the workspace\'s is listed as "name (workspace)"', () => {
    const profile: ServerSource = { kind: 'userFile', file: '/home/u/.config/Code/User/mcp.json', origin: 'profile' };
    const mine = stdio('github', profile, 'user-cmd');
    const repo = stdio('github', FILE, 'repo-cmd');
    const portable = stdio('db', { ...FILE, file: '/ws/a/.mcp.json', format: 'portable' }, 'repo-db');
    const copilot = stdio('db', { kind: 'userFile', file: '/home/u/.copilot/mcp-config.json', origin: 'copilot' }, 'user-db');
    // The order readServerFiles gives: the folders' files first, then the user's.
    const r = mergeDefinitions([repo, portable, mine, copilot], []);
    const byName = new Map(r.servers.map((d) => [d.name, d]));
    assert.equal(byName.get('github'), mine, "the name, and so its policy, inputs and attribution, stay the user's");
    assert.equal(byName.get('db'), copilot, "Copilot Global is the user's too");
    const moved = byName.get('github (workspace)');
    assert.equal(moved?.type === 'stdio' && moved.command, 'repo-cmd');
    assert.equal(moved?.writtenAs, 'github');
    assert.equal(moved?.source, FILE, 'still attributed to the workspace file');
    assert.equal(byName.get('db (workspace)')?.writtenAs, 'db');
    assert.equal(r.servers.length, 4, 'nothing is dropped');
    assert.ok(
      r.clashes.some((c) =>
        c.includes('"github" from /ws/a/.vscode/mcp.json is listed as "github (workspace)": /home/u/.config/Code/User/mcp.json'),
      ),
      r.clashes.join('\n'),
    );
  });

  void it("compares a workspace name with the user's case-insensitively, as VS Code compares labels", () => {
    const mine = stdio('github', { kind: 'setting', scope: 'user' }, 'user-cmd');
    const lookalike = stdio('GitHub', FILE, 'repo-cmd');
    const r = mergeDefinitions([lookalike], [mine]);
    assert.deepEqual(r.servers.map((d) => d.name).sort(), ['GitHub (workspace)', 'github']);
    assert.equal(r.servers.find((d) => d.name === 'GitHub (workspace)')?.writtenAs, 'GitHub');
  });

  void it("among the user's own definitions the setting comes first, then the profile, then Copilot Global; the later one is ignored, never renamed", () => {
    const setting = stdio('s', { kind: 'setting', scope: 'user' }, 'from-setting');
    const profile = stdio('s', { kind: 'userFile', file: '/u/mcp.json', origin: 'profile' }, 'from-profile');
    const copilot = stdio('s', { kind: 'userFile', file: '/u/.copilot/mcp-config.json', origin: 'copilot' }, 'from-copilot');
    const r = mergeDefinitions([profile, copilot], [setting]);
    assert.deepEqual(r.servers, [setting]);
    assert.equal(r.clashes.length, 2);
    assert.ok(
      r.clashes.every((c) => /is ignored: user settings defines the same name/.test(c)),
      r.clashes.join('\n'),
    );
  });

  void it('reports nothing without clashes', () => {
    assert.deepEqual(mergeDefinitions([stdio('a', FILE)], [stdio('b', { kind: 'setting', scope: 'user' })]).clashes, []);
  });
});

void describe('fingerprint', () => {
  const base: ServerDefinition = {
    name: 's',
    source: FILE,
    type: 'stdio',
    command: 'node',
    args: ['a'],
    env: { A: '1', B: '2' },
    cwd: '/c',
  };

  void it('ignores name, settings scope, file path and key order', () => {
    assert.equal(fingerprint({ ...base, name: 'other' }), fingerprint(base));
    assert.equal(fingerprint({ ...base, source: { ...FILE, file: '/ws/a/other.json' } }), fingerprint(base));
    assert.equal(fingerprint({ ...base, env: { B: '2', A: '1' } }), fingerprint(base));
    const user: ServerDefinition = { ...base, source: { kind: 'setting', scope: 'user' } };
    assert.equal(fingerprint({ ...user, source: { kind: 'setting', scope: 'workspace' } }), fingerprint(user));
  });

  void it('changes when a launch field or the folder changes', () => {
    const variants: ServerDefinition[] = [
      { ...base, command: 'deno' },
      { ...base, args: ['a', 'b'] },
      { ...base, args: ['a b'] },
      { ...base, env: { A: '1', B: '3' } },
      { ...base, envFile: '.env' },
      { ...base, cwd: '/d' },
      { ...base, source: FILE_B },
    ];
    for (const v of variants) assert.notEqual(fingerprint(v), fingerprint(base), JSON.stringify(v));
  });

  void it('covers url, headers and type for remote servers', () => {
    const remote: ServerDefinition = { name: 'r', source: FILE, type: 'http', url: 'https://x/mcp', headers: { A: '1' } };
    assert.notEqual(fingerprint({ ...remote, type: 'sse' }), fingerprint(remote));
    assert.notEqual(fingerprint({ ...remote, url: 'https://y/mcp' }), fingerprint(remote));
    assert.notEqual(fingerprint({ ...remote, headers: { A: '2' } }), fingerprint(remote));
    assert.equal(fingerprint({ ...remote, name: 'q' }), fingerprint(remote));
  });
});
