import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  collisionPicksOne,
  isRouted,
  parseRoutes,
  providerServerId,
  routeOf,
  vscodeServerId,
  withoutRoute,
  withRoute,
  writtenName,
} from '../../src/gateway/routes';
import type { ServerSource } from '../../src/config/parse/definitions';

// Routing is a per-user choice kept in our workspaceState: a route names a server as written in
// its file, and the ids are those VS Code 1.139 gives the two copies of it (checked in its
// workbench bundle and in the real host by test/integration/gatewayModel.test.ts).

const folder = '/w/app';
const mcpJson: ServerSource = { kind: 'workspaceFile', file: '/w/app/.vscode/mcp.json', folder };
const dotMcp: ServerSource = { kind: 'workspaceFile', file: '/w/app/.mcp.json', folder, format: 'portable' };
const wsFile: ServerSource = { kind: 'workspaceFile', file: '/w/all.code-workspace', folder, format: 'workspaceSettings' };
const profile: ServerSource = { kind: 'userFile', file: '/home/u/.config/Code/User/mcp.json', origin: 'profile' };
const copilot: ServerSource = { kind: 'userFile', file: '/home/u/.copilot/mcp-config.json', origin: 'copilot' };
const setting: ServerSource = { kind: 'setting', scope: 'workspace' };

describe('routes: what Route records and Give Back removes', () => {
  it('a route is the name as written in its file, for every source VS Code reads; our own setting has none', () => {
    assert.deepEqual(routeOf({ name: 'tickets', source: mcpJson }), { name: 'tickets', file: mcpJson.file });
    assert.deepEqual(routeOf({ name: 'tickets (workspace)', writtenAs: 'tickets', source: dotMcp }), {
      name: 'tickets',
      file: dotMcp.file,
    });
    assert.deepEqual(routeOf({ name: 't', source: wsFile }), { name: 't', file: wsFile.file });
    assert.deepEqual(routeOf({ name: 't', source: profile }), { name: 't', file: profile.file });
    assert.equal(routeOf({ name: 't', source: setting }), undefined);
  });

  it('the same name in two folders is two routes: routing one leaves the other VS Code’s', () => {
    const other: ServerSource = { kind: 'workspaceFile', file: '/w/api/.vscode/mcp.json', folder: '/w/api' };
    const routes = withRoute([], { name: 'db', file: mcpJson.file });
    assert.equal(isRouted(routes, { name: 'db', source: mcpJson }), true);
    assert.equal(isRouted(routes, { name: 'db', source: other }), false);
  });

  it('Give Back removes exactly its route; adding twice records once', () => {
    const a = { name: 'a', file: mcpJson.file };
    const b = { name: 'b', file: dotMcp.file };
    const routes = withRoute(withRoute(withRoute([], a), b), a);
    assert.deepEqual(routes, [a, b]);
    assert.deepEqual(withoutRoute(routes, a), [b]);
    assert.deepEqual(withoutRoute(routes, { name: 'a', file: dotMcp.file }), routes, 'another file’s server of that name stays routed');
  });

  it('what workspaceState holds is checked: malformed entries are dropped, never trusted', () => {
    assert.deepEqual(parseRoutes(undefined), []);
    assert.deepEqual(parseRoutes({ name: 'a', file: 'f' }), []);
    assert.deepEqual(
      parseRoutes([{ name: 'a', file: 'f' }, null, { name: 3, file: 'f' }, { name: '', file: 'f' }, { name: 'a', file: 'f' }, 'x']),
      [{ name: 'a', file: 'f' }],
    );
  });
});

describe("routes: VS Code's ids for the two copies", () => {
  it("VS Code's own copy, by source (the folder's index for folder files)", () => {
    assert.equal(vscodeServerId({ name: 'x', source: mcpJson }, 0, false), 'mcp.config.ws0.x');
    assert.equal(vscodeServerId({ name: 'x', source: mcpJson }, 2, false), 'mcp.config.ws2.x');
    assert.equal(vscodeServerId({ name: 'x', source: dotMcp }, 1, false), 'workspace-dot-mcp.1.x');
    assert.equal(vscodeServerId({ name: 'x', source: wsFile }, undefined, false), 'mcp.config.workspace.x');
    assert.equal(vscodeServerId({ name: 'x', source: profile }, undefined, false), 'mcp.config.usrlocal.x', 'a local window: the profile');
    assert.equal(
      vscodeServerId({ name: 'x', source: profile }, undefined, true),
      'mcp.config.usrremote.x',
      'a remote window (code-server too): the file is the remote user’s',
    );
    assert.equal(
      vscodeServerId({ name: 'x (workspace)', writtenAs: 'x', source: mcpJson }, 0, false),
      'mcp.config.ws0.x',
      'by the key as written',
    );
  });

  it('unknown where VS Code’s id cannot be told: Copilot Global, a folder not open, our setting', () => {
    assert.equal(vscodeServerId({ name: 'x', source: copilot }, undefined, false), undefined);
    assert.equal(vscodeServerId({ name: 'x', source: mcpJson }, undefined, false), undefined);
    assert.equal(vscodeServerId({ name: 'x', source: setting }, 0, false), undefined);
  });

  it('our gateway’s copy carries the label VS Code lists its own by, under our extension id', () => {
    assert.equal(writtenName({ name: 'x (workspace)', writtenAs: 'x', source: mcpJson }), 'x');
    assert.equal(providerServerId('Publisher.MCP-Elicitation-Host', 'x'), 'publisher.mcp-elicitation-host/x');
  });
});

describe("routes: whether VS Code's collision rule lets the routed copy take over", () => {
  it('only `disable` (the default, also when unset) runs one copy of a label; `suffix` or anything else runs both', () => {
    assert.equal(collisionPicksOne('disable'), true);
    assert.equal(collisionPicksOne(undefined), true);
    assert.equal(collisionPicksOne('suffix'), false);
    assert.equal(collisionPicksOne('Disable'), false, 'VS Code compares the value exactly');
  });
});
