import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parsePortableMcpJson } from '../../src/config/parse/portableJson';
import type { ServerSource } from '../../src/config/parse/definitions';

const DOT_MCP: ServerSource = { kind: 'workspaceFile', file: '/ws/a/.mcp.json', folder: '/ws/a', format: 'portable' };
const COPILOT: ServerSource = { kind: 'userFile', file: '/home/ada/.copilot/mcp-config.json', origin: 'copilot' };

void describe('parsePortableMcpJson (.mcp.json, Copilot Global)', () => {
  void it('reads mcpServers; type defaults to stdio with a command and to http with a url', () => {
    const r = parsePortableMcpJson(
      JSON.stringify({
        mcpServers: {
          local: { command: 'npx', args: ['-y', 'srv'], env: { N: 1 } },
          remote: { url: 'https://mcp.example.com/mcp', headers: { A: 'b' } },
          legacy: { type: 'sse', url: 'https://x/sse' },
        },
      }),
      DOT_MCP,
    );
    assert.deepEqual(r.errors, []);
    assert.deepEqual(
      r.servers.map((s) => [s.name, s.type, s.source]),
      [
        ['local', 'stdio', DOT_MCP],
        ['remote', 'http', DOT_MCP],
        ['legacy', 'sse', DOT_MCP],
      ],
    );
    const local = r.servers[0];
    assert.ok(local?.type === 'stdio');
    assert.deepEqual(local.env, { N: '1' });
  });

  void it('accepts the map alone at the top, as VS Code does', () => {
    const r = parsePortableMcpJson('{ "a": { "command": "x" } }', COPILOT);
    assert.deepEqual(
      r.servers.map((s) => s.name),
      ['a'],
    );
  });

  void it('accepts comments and trailing commas; an empty file is no error', () => {
    assert.deepEqual(parsePortableMcpJson('// servers\n{ "mcpServers": { "a": { "command": "x", }, }, }', DOT_MCP).servers.length, 1);
    assert.deepEqual(parsePortableMcpJson('  \n', DOT_MCP), { servers: [], errors: [] });
  });

  const bad: Array<[title: string, text: string, key: string | undefined, message: RegExp]> = [
    ['not JSON', '{ "mcpServers": ', undefined, /Invalid JSON at 1:/],
    ['a top-level array', '[{ "command": "x" }]', undefined, /JSON object with "mcpServers", not an array/],
    ['mcpServers as a string', '{ "mcpServers": "npx srv" }', 'mcpServers', /"mcpServers" must be an object/],
    ['the .vscode/mcp.json shape', '{ "servers": { "a": { "command": "x" } } }', 'servers', /"servers" belong in .vscode\/mcp.json/],
  ];
  for (const [title, text, key, message] of bad) {
    void it(`a clear error naming the file: ${title}`, () => {
      const r = parsePortableMcpJson(text, DOT_MCP);
      assert.deepEqual(r.servers, []);
      assert.equal(r.errors.length, 1);
      const e = r.errors[0];
      assert.equal(e?.file, '/ws/a/.mcp.json');
      assert.equal(e?.key, key);
      assert.match(e?.message ?? '', message);
      assert.equal(typeof e?.line, 'number');
    });
  }

  void it('a server with both command and url is an error naming it and its line; the others are kept', () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "both": { "command": "x",',
      '      "url": "https://x" },',
      '    "ok": { "command": "y" }',
      '  }',
      '}',
    ].join('\n');
    const r = parsePortableMcpJson(text, DOT_MCP);
    assert.deepEqual(
      r.servers.map((s) => s.name),
      ['ok'],
    );
    assert.deepEqual(
      r.errors.map((e) => [e.server, e.key, e.line]),
      [['both', 'url', 4]],
    );
    assert.match(r.errors[0]?.message ?? '', /either "command".*or "url".*not both/);
  });

  void it('an ${input:…} reference is an error (the format has no inputs); the server is skipped, not run with the literal', () => {
    const r = parsePortableMcpJson(
      JSON.stringify({ mcpServers: { s: { command: 'x', env: { T: '${input:token}' } }, t: { command: 'y' } } }),
      DOT_MCP,
    );
    assert.deepEqual(
      r.servers.map((s) => s.name),
      ['t'],
    );
    assert.match(r.errors[0]?.message ?? '', /"\$\{input:token\}" cannot be used here/);
  });

  void it('bad entries are reported with the same checks as mcp.json, and never hide the good ones', () => {
    const r = parsePortableMcpJson(
      JSON.stringify({ mcpServers: { a: { command: 'x', args: 'no' }, b: 'npx srv', c: { url: 'ftp://x' }, d: { command: 'ok' } } }),
      DOT_MCP,
    );
    assert.deepEqual(
      r.servers.map((s) => s.name),
      ['d'],
    );
    assert.deepEqual(
      r.errors.map((e) => [e.server, e.key]),
      [
        ['a', 'args'],
        ['b', undefined],
        ['c', 'url'],
      ],
    );
  });
});
