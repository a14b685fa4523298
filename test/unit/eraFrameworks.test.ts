/**
 * Issue 40 with the servers people already have: FastMCP 4 and the official Python SDK, written
 * as their documentation shows (test/fixtures/py), each a real process, through the real
 * Connection, tool runner and broker; only the user is scripted (the presenter answers every
 * field with a valid value, the revision offer answers as the test says). Under the default
 * revision every question each framework asks reaches the user; a server with tools of both
 * styles gets every call to work, reconnecting only when the user says so, or for a tool already
 * learned, before it is called.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { EraSwitchOffer } from '../../src/servers/connectionDeps';
import type { ServerDefinition } from '../../src/config/parse/definitions';
import { acceptAll } from '../host/validAnswer';
import { callToolWithElicitation } from '../../src/servers/toolRunner';
import { EraMismatchError } from '../../src/servers/era/eraMismatch';
import { realConnection } from './support/realConnection';
import { provisionPython } from '../../scripts/provision.mjs';

const PY = path.join(__dirname, '..', 'fixtures', 'py');
let python = '';

function harness(d: ServerDefinition, offers: { said: EraSwitchOffer[]; answers: boolean[] }) {
  const h = realConnection(d, {
    form: acceptAll,
    eraSwitch: {
      ask: (offer) => {
        offers.said.push(offer);
        return Promise.resolve(offers.answers.shift() ?? false);
      },
    },
  });
  const call = (name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> =>
    callToolWithElicitation(h.conn, h.broker, { name, arguments: args });
  return { ...h, call };
}

function py(name: string, script: string, protocolVersion?: ServerDefinition['protocolVersion']): ServerDefinition {
  return {
    name,
    type: 'stdio',
    command: python,
    args: [path.join(PY, script)],
    env: {},
    source: { kind: 'setting', scope: 'user' },
    ...(protocolVersion ? { protocolVersion } : {}),
  };
}

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

void describe('the frameworks people write servers with, under the default revision', () => {
  before(() => {
    python = provisionPython().python;
  });

  for (const [script, tools] of [
    ['fastmcp_imperative.py', ['ask_text', 'ask_integer', 'ask_confirm', 'ask_choice', 'ask_multi', 'ask_titled', 'ask_form']],
    ['pysdk_imperative.py', ['book', 'confirm']],
    ['pysdk_resolver.py', ['book', 'deploy']],
    ['fastmcp_mrtr.py', ['mrtr_text', 'mrtr_confirm']],
  ] as const) {
    it(`${script}: every question reaches the user and the answer reaches the tool`, async () => {
      const offers = { said: [] as EraSwitchOffer[], answers: [true] };
      const h = harness(py(script, script), offers);
      try {
        await h.conn.start();
        assert.equal(h.conn.state.kind, 'running', h.log.lines.join('\n'));
        for (const tool of tools) {
          const before = h.presenter.forms.length;
          const r = await h.call(tool, tool === 'deploy' ? { target: 'prod' } : {});
          assert.ok(!r.isError, `${tool}: ${textOf(r)}`);
          assert.ok(h.presenter.forms.length > before, `${tool}: its question was shown`);
          // Each returns what it received: the action, or (the resolvers) the accepted values themselves.
          assert.match(textOf(r), /accept|"Ada"|true/, `${tool}: the tool got the answer: ${textOf(r)}`);
        }
        // Only the 2026-07-28-style server needs the newer revision, and it is offered once.
        assert.equal(offers.said.length, script === 'fastmcp_mrtr.py' ? 1 : 0, JSON.stringify(offers.said));
      } finally {
        await h.conn.shutdown();
      }
    });
  }
});

void describe('a FastMCP server with tools of both styles', () => {
  before(() => {
    python = provisionPython().python;
  });

  it('each call works: the user is asked before a tool runs again, and a learned tool switches before it is called', async () => {
    const offers = { said: [] as EraSwitchOffer[], answers: [true, false, true] };
    const h = harness(py('mixed', 'fastmcp_mixed.py'), offers);
    const era = (): string | undefined => (h.conn.state.kind === 'running' ? h.conn.state.era?.why : undefined);
    try {
      await h.conn.start();
      assert.equal(era(), 'vscode');
      assert.match(textOf(await h.call('ask_imperative')), /accept/);
      assert.equal(offers.said.length, 0, 'the 2025 way works on 2025-11-25, asking nobody about revisions');

      // The 2026-07-28 way on a 2025-11-25 connection: offered, accepted, reconnected, run again.
      const shown = h.presenter.forms.length;
      assert.match(textOf(await h.call('ask_mrtr')), /accept/);
      assert.deepEqual(offers.said[0], { server: 'mixed', tool: 'ask_mrtr', needs: 'modern', others: 0 });
      assert.equal(h.presenter.forms.length, shown + 1, 'the question was shown once, on the run the user allowed');
      assert.equal(era(), 'learned');

      // Back to the 2025 way on the 2026-07-28 connection: declined, so the call fails in one line.
      const pid = h.conn.pid;
      await assert.rejects(h.call('ask_imperative'), (e: unknown) => {
        assert.ok(e instanceof EraMismatchError);
        assert.equal(
          e.message,
          'Tool "ask_imperative" of server "mixed" asks its questions the MCP 2025-11-25 way, and this connection speaks 2026-07-28: reconnect the server with 2025-11-25 (Run Again does it) to run this tool.',
        );
        return true;
      });
      assert.equal(h.conn.pid, pid, 'declined: the server was not restarted');

      // Accepted this time; then the learned 2026-07-28 tool switches back before it is called.
      assert.match(textOf(await h.call('ask_imperative')), /accept/);
      assert.equal(offers.said.length, 3);
      assert.match(textOf(await h.call('ask_mrtr')), /accept/);
      assert.equal(offers.said.length, 3, 'a learned tool asks nobody: nothing ran twice');
      assert.ok(
        h.log.lines.some((l) => /reconnecting with MCP 2026-07-28: tool ask_mrtr/.test(l)),
        'the log says why it reconnected',
      );
    } finally {
      await h.conn.shutdown();
    }
  });

  it('pinned, nothing is switched: the call says which setting stands in the way', async () => {
    const offers = { said: [] as EraSwitchOffer[], answers: [true] };
    const h = harness(py('pinned', 'fastmcp_mixed.py', '2025-11-25'), offers);
    try {
      await h.conn.start();
      await assert.rejects(h.call('ask_mrtr'), /"protocolVersion" pins 2025-11-25: set it to "auto" or "2026-07-28"/);
      assert.equal(offers.said.length, 0);
    } finally {
      await h.conn.shutdown();
    }
  });
});
