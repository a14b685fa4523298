import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'jsonc-parser';
import { inputIdsIn, putIntoMcpJson, removeFromOurs } from '../../src/config/parse/serverMove';

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

void describe('Give Back: moving a server from our setting into mcp.json', () => {
  void it('finds the inputs a definition references, once each', () => {
    assert.deepEqual(inputIdsIn({ env: { A: '${input:a}', B: '${input:b}-${input:a}' }, args: ['${env:HOME}'] }), ['a', 'b']);
  });

  void it('puts a server back, adding only the inputs the file lacks, or creates the file', () => {
    const taken = {
      server: { command: 'node', args: ['t.js'], env: { TOKEN: '${input:token}', S: '${input:shared}' } },
      inputs: [
        { type: 'promptString', id: 'token', description: 'API token', password: true },
        { type: 'promptString', id: 'shared', description: 'Shared' },
      ],
    };
    const without = MCP_JSON.replace(/\n {4}"tickets": .*\n/, '\n').replace(/\n {4}\{ "type": "promptString", "id": "token".*\n/, '\n');
    assert.doesNotMatch(without, /tickets|"token"/);
    const text = putIntoMcpJson(without, 'tickets', taken.server, taken.inputs);
    assert.match(text, /\/\/ team servers/, 'comments survive');
    const back = parse(text) as {
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

  void it('our setting loses the server, and the inputs only that server used', () => {
    const server = { command: 'node', env: { T: '${input:token}', S: '${input:shared}' } };
    const added = {
      servers: { keep: { url: 'https://k.example', headers: { S: '${input:shared}' } }, tickets: server },
      inputs: [
        { id: 'shared', type: 'promptString', description: 'ours' },
        { id: 'token', type: 'promptString' },
      ],
    };
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
