import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { admit, keyHeaders, type AdmissionRequest } from '../../src/gateway/admission';
import {
  agentCanRunServers,
  agentRunsFileServers,
  mcpJsonOwner,
  offeredThroughGateway,
  offeredToAgent,
  parseMcpJsonMode,
  vscodeReads,
} from '../../src/gateway/ownership';
import { relayedCapabilities } from '../../src/gateway/upstream';

const expected = { port: 41234, secret: 'k3y-from-activation' };
const good: AdmissionRequest = { host: '127.0.0.1:41234', origin: undefined, authorization: `Bearer ${expected.secret}` };

void describe('gateway admission', () => {
  void it('admits VS Code: loopback Host, no Origin, the key', () => {
    assert.deepEqual(admit(good, expected), { ok: true });
    assert.deepEqual(admit({ ...good, host: 'LOCALHOST:41234' }, expected), { ok: true });
  });

  void it('refuses a missing, wrong, repeated or prefix key, and never echoes it', () => {
    for (const secret of ['', 'k3y-from-activatioN', 'k3y-from-activation2', 'k3y', `${expected.secret}, ${expected.secret}`]) {
      const r = admit({ ...good, authorization: `Bearer ${secret}` }, expected);
      assert.equal(r.ok, false, JSON.stringify(secret));
      assert.ok(!r.ok && !r.reason.includes(expected.secret));
    }
    assert.equal(admit({ ...good, authorization: undefined }, expected).ok, false);
  });

  void it('takes the key as a bearer token in Authorization, the one header VS Code masks in its Trace log', () => {
    assert.deepEqual(keyHeaders(expected.secret), { Authorization: `Bearer ${expected.secret}` });
    assert.deepEqual(admit({ ...good, authorization: `bearer ${expected.secret}` }, expected), { ok: true }, 'the scheme in any case');
    for (const authorization of [
      expected.secret,
      `Basic ${expected.secret}`,
      `Bearer  ${expected.secret}`,
      `Bearer ${expected.secret} x`,
    ]) {
      assert.equal(admit({ ...good, authorization }, expected).ok, false, authorization);
    }
  });

  void it('refuses a foreign Host (DNS rebinding), another port, or none', () => {
    for (const host of ['evil.example:41234', '127.0.0.1:41235', '127.0.0.1', '[::1]:41234', undefined, '127.0.0.1.nip.io:41234']) {
      const r = admit({ ...good, host }, expected);
      assert.equal(r.ok, false, String(host));
      assert.ok(!r.ok && r.reason.includes('Host'));
    }
  });

  void it("refuses any Origin but the endpoint's own, even with the key", () => {
    for (const origin of [
      'https://evil.example',
      'http://127.0.0.1:8080',
      'null',
      'vscode-file://vscode-app',
      'http://localhost:41234.evil.example',
    ]) {
      const r = admit({ ...good, origin }, expected);
      assert.equal(r.ok, false, origin);
      assert.ok(!r.ok && r.reason.includes('Origin'));
    }
    assert.deepEqual(admit({ ...good, origin: 'http://127.0.0.1:41234' }, expected), { ok: true });
  });
});

void describe('who runs which server', () => {
  void it("mcp.json servers are VS Code's while its chat can run them, ours otherwise; overrides win", () => {
    assert.equal(mcpJsonOwner('auto', true), 'vscode');
    assert.equal(mcpJsonOwner('auto', false), 'us');
    assert.equal(mcpJsonOwner('vscode', false), 'vscode');
    assert.equal(mcpJsonOwner('ours', true), 'us');
    assert.equal(parseMcpJsonMode('bogus'), 'auto');
    assert.equal(parseMcpJsonMode(undefined), 'auto');
  });

  void it("VS Code's chat runs servers unless AI features or MCP are off", () => {
    assert.equal(agentCanRunServers({}), true);
    assert.equal(agentCanRunServers({ disableAIFeatures: false, mcpAccess: 'all' }), true);
    assert.equal(agentCanRunServers({ disableAIFeatures: true }), false);
    assert.equal(agentCanRunServers({ mcpEnabled: false }), false);
    assert.equal(agentCanRunServers({ mcpAccess: 'none' }), false);
  });

  void it('chat.mcp.access "registry": VS Code 1.139 runs no server of the files it reads, but still runs extensions\' (our gateway\'s)', () => {
    const registry = { disableAIFeatures: false, mcpAccess: 'registry' };
    assert.equal(agentCanRunServers(registry), true, "the gateway's servers still reach the agent");
    assert.equal(agentRunsFileServers(registry), false);
    assert.equal(mcpJsonOwner('auto', agentRunsFileServers(registry)), 'us', "the files' servers are ours, as with AI features off");
    assert.equal(mcpJsonOwner('vscode', agentRunsFileServers(registry)), 'vscode', 'an explicit choice still wins');
    assert.equal(agentRunsFileServers({}), true);
    assert.equal(agentRunsFileServers({ mcpAccess: 'all' }), true);
    assert.equal(mcpJsonOwner('auto', agentRunsFileServers({ mcpAccess: 'all' })), 'vscode', '"all" again: VS Code\'s');
    assert.equal(agentRunsFileServers({ mcpAccess: 'none' }), false);
    assert.equal(agentRunsFileServers({ disableAIFeatures: true, mcpAccess: 'all' }), false);
  });

  void it("the gateway offers our setting's servers always, a routed file server only while VS Code runs that file's servers", () => {
    const setting = { kind: 'setting' };
    const file = { kind: 'workspaceFile' };
    for (const runsFiles of [true, false]) {
      assert.equal(offeredThroughGateway(setting, '1.139.1', false, runsFiles), true);
      assert.equal(offeredThroughGateway(file, '1.139.1', false, runsFiles), false, 'an unrouted file server never');
    }
    assert.equal(offeredThroughGateway(file, '1.139.1', true, true), true, 'routed');
    assert.equal(offeredThroughGateway(file, '1.139.1', true, false), false, 'routed, but "registry" keeps it from the agent');
    assert.equal(
      offeredThroughGateway({ kind: 'userFile', origin: 'copilot' }, '1.139.1', false, false),
      true,
      'Copilot Global on 1.139 is ours',
    );
  });

  void it('only servers VS Code does not read itself are offered to the agent, so none appears twice', () => {
    assert.equal(offeredToAgent({ kind: 'setting' }, '1.139.1'), true);
    assert.equal(offeredToAgent({ kind: 'workspaceFile' }, '1.139.1'), false);
    assert.equal(
      offeredToAgent({ kind: 'workspaceFile', format: 'portable' } as { kind: string }, '1.139.1'),
      false,
      '.mcp.json: VS Code 1.139 reads it',
    );
    assert.equal(offeredToAgent({ kind: 'userFile', origin: 'profile' }, '1.139.1'), false, 'the profile mcp.json');
    // Copilot Global: read by VS Code from 1.140 on; before that only we can bring it to the agent.
    assert.equal(offeredToAgent({ kind: 'userFile', origin: 'copilot' }, '1.139.1'), true);
    assert.equal(offeredToAgent({ kind: 'userFile', origin: 'copilot' }, '1.140.0'), false);
    assert.equal(offeredToAgent({ kind: 'userFile', origin: 'copilot' }, '2.0.0'), false);
    assert.equal(vscodeReads({ kind: 'userFile', origin: 'copilot' }, '1.139.9-insider'), false);
  });

  void it('the gateway declares what upstream declared, without elicitation or tasks; experimental passed on', () => {
    assert.deepEqual(relayedCapabilities(undefined), {});
    assert.deepEqual(relayedCapabilities({ tools: {}, logging: {}, tasks: { list: {} }, experimental: { x: {} } }), {
      tools: { listChanged: true },
      logging: {},
      experimental: { x: {} },
    });
    assert.deepEqual(relayedCapabilities({ prompts: {}, resources: { subscribe: true }, completions: {} }), {
      prompts: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
      completions: {},
    });
  });
});
