/**
 * Where a server is (issue 41): what its sign-in, remembered answers, model choice and stored
 * inputs are tied to. A definition of the same name elsewhere is another server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { destination, urlDestination } from '../../src/config/parse/serverFingerprint';
import { destinationModelMemory, MODEL_MEMORY_KEY, type ModelStateLike } from '../../src/sampling/modelMemory';

function fakeState(initial: Record<string, unknown> = {}): ModelStateLike & { readonly data: Map<string, unknown> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: (key) => data.get(key),
    update: (key, value) => (data.set(key, structuredClone(value)), Promise.resolve()),
  };
}

void describe('destination()', () => {
  void it('is the origin and path of a URL, the command and arguments of a stdio server', () => {
    const at = (url: string) => destination({ type: 'http', url });
    assert.equal(at('https://mcp.example.com/mcp'), at('https://mcp.example.com/mcp?session=1#x'), 'query and fragment left out');
    assert.equal(at('https://MCP.example.com:443/mcp'), at('https://mcp.example.com/mcp'), 'as URLs compare');
    assert.notEqual(at('https://mcp.example.com/mcp'), at('https://proxy.example.net/mcp'));
    assert.notEqual(at('https://mcp.example.com/mcp'), at('https://mcp.example.com/other'));
    assert.notEqual(at('https://mcp.example.com/mcp'), at('http://mcp.example.com/mcp'));
    assert.equal(destination({ type: 'sse', url: 'https://mcp.example.com/mcp' }), at('https://mcp.example.com/mcp'), 'the same place');
    const run = (command: string, args: string[]) => destination({ type: 'stdio', command, args });
    assert.equal(run('npx', ['-y', 'srv']), run('npx', ['-y', 'srv']));
    assert.notEqual(run('npx', ['-y', 'srv']), run('npx', ['-y', 'srv2']));
    assert.notEqual(run('npx', ['-y', 'srv']), run('./evil.sh', ['-y', 'srv']));
    assert.notEqual(run('a b', []), run('a', ['b']), 'framed: no split of the same characters collides');
    assert.notEqual(run('https://x', []), at('https://x'));
  });

  void it('keeps a URL that does not parse as written', () => {
    assert.equal(urlDestination('${input:base}/mcp'), '${input:base}/mcp');
  });
});

void describe('the model chosen for a server', () => {
  void it('is offered again only while the server of that name is where it was when chosen', () => {
    let where: string | undefined = 'A';
    const state = fakeState();
    const memory = destinationModelMemory(state, () => where);
    memory.choose('linear', 'premium-model');
    assert.deepEqual(memory.chosen('linear'), ['premium-model']);
    where = 'B';
    assert.deepEqual(memory.chosen('linear'), [], 'moved: the choice is not inherited');
    assert.deepEqual(destinationModelMemory(state, () => where).chosen('linear'), [], 'nor in the next window');
    where = undefined;
    assert.deepEqual(memory.chosen('linear'), [], 'an unknown server gets none');
    memory.choose('linear', 'other');
    where = 'A';
    assert.deepEqual(memory.chosen('linear'), ['premium-model'], 'nothing was kept for an unknown server');
  });

  void it('does not read the choices of earlier releases, kept by name alone', () => {
    const state = fakeState({
      'mcpElicitation.samplingModels': { linear: 'premium-model' },
      'mcpElicitation.samplingModels.v2': { linear: { model: 'premium-model', destination: 'A' } },
    });
    assert.deepEqual(destinationModelMemory(state, () => 'A').chosen('linear'), []);
    assert.notEqual(MODEL_MEMORY_KEY, 'mcpElicitation.samplingModels');
  });

  void it('a server named like an Object property is an ordinary key', () => {
    const state = fakeState();
    const memory = destinationModelMemory(state, () => 'A');
    assert.deepEqual(memory.chosen('__proto__'), []);
    assert.deepEqual(memory.chosen('constructor'), []);
    memory.choose('__proto__', 'm');
    assert.deepEqual(memory.chosen('__proto__'), ['m']);
  });
});
