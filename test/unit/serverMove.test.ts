import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'jsonc-parser';
import { addToOurs, inputIdsIn, putIntoMcpJson, removeFromOurs, takeFromMcpJson } from '../../src/config/parse/serverMove';

const MCP_JSON = `{
  // team servers
  "inputs": [
    { "type": "promptString", "id": "token", "description": "API token", "password": true },
    { "type": "promptString", "id": "shared", "description": "Shared" }
  ],
  "servers": {
    "tickets": { "command": "node", "args": ["t.js"], "env": { "TOKEN": "\${input:token}", "S": "\${input:shared}" } },
    "other": { "type": "http", "url": "https://x.example/mcp", "headers": { "X": "\${input:shared}" } }
  }
}
`;

void describe('moving a server between mcp.json and our setting', () => {
  void it('finds the inputs a definition references, once each', () => {
    assert.deepEqual(inputIdsIn({ env: { A: '${input:a}', B: '${input:b}-${input:a}' }, args: ['${env:HOME}'] }), ['a', 'b']);
  });

  void it('takes a server out with its inputs, keeps inputs others still use, and keeps comments', () => {
    const taken = takeFromMcpJson(MCP_JSON, 'tickets');
    assert.ok(taken);
    assert.deepEqual(taken.server, { command: 'node', args: ['t.js'], env: { TOKEN: '${input:token}', S: '${input:shared}' } });
    assert.deepEqual(
      taken.inputs.map((i) => i['id']),
      ['token', 'shared'],
    );
    const rest = parse(taken.text) as { inputs: { id: string }[]; servers: Record<string, unknown> };
    assert.deepEqual(Object.keys(rest.servers), ['other']);
    assert.deepEqual(
      rest.inputs.map((i) => i.id),
      ['shared'],
      'shared is still used by "other"',
    );
    assert.match(taken.text, /\/\/ team servers/);
    assert.equal(takeFromMcpJson(MCP_JSON, 'missing'), undefined);
    assert.equal(takeFromMcpJson('not json', 'tickets'), undefined);
  });

  void it('puts a server back, adding only the inputs the file lacks, or creates the file', () => {
    const taken = takeFromMcpJson(MCP_JSON, 'tickets');
    assert.ok(taken);
    const back = parse(putIntoMcpJson(taken.text, 'tickets', taken.server, taken.inputs)) as {
      inputs: { id: string }[];
      servers: Record<string, unknown>;
    };
    assert.deepEqual(back.servers['tickets'], taken.server);
    assert.deepEqual(back.inputs.map((i) => i.id).sort(), ['shared', 'token']);
    const fresh = parse(putIntoMcpJson('', 'tickets', taken.server, taken.inputs)) as {
      inputs: { id: string }[];
      servers: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(fresh.servers), ['tickets']);
    assert.deepEqual(
      fresh.inputs.map((i) => i.id),
      ['token', 'shared'],
    );
  });

  void it('our setting gains the server and new inputs, and loses inputs only that server used', () => {
    const server = { command: 'node', env: { T: '${input:token}', S: '${input:shared}' } };
    const before = {
      servers: { keep: { url: 'https://k.example', headers: { S: '${input:shared}' } } },
      inputs: [{ id: 'shared', type: 'promptString', description: 'ours' }],
    };
    const added = addToOurs(before, 'tickets', server, [
      { id: 'token', type: 'promptString' },
      { id: 'shared', type: 'promptString', description: 'theirs' },
    ]);
    assert.deepEqual(Object.keys(added.servers), ['keep', 'tickets']);
    assert.deepEqual(
      added.inputs.map((i) => [i['id'], i['description']]),
      [
        ['shared', 'ours'],
        ['token', undefined],
      ],
    );
    const removed = removeFromOurs(added, 'tickets');
    assert.ok(removed);
    assert.deepEqual(removed.server, server);
    assert.deepEqual(
      removed.inputs.map((i) => i['id']),
      ['shared', 'token'],
    );
    assert.deepEqual(
      removed.cfg.inputs.map((i) => i['id']),
      ['shared'],
      'still used by "keep"',
    );
    assert.equal(removeFromOurs(added, 'nope'), undefined);
  });
});
