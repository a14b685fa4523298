// What another extension receives from activate(): the public API's members, frozen, and no path
// from them to the broker, the server manager or anything else inside (issue 22: the internals
// are never returned to other extensions).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Event } from 'vscode';
import type { ElicitParams, ElicitResult, McpElicitationHostApi, PendingElicitation, ServerInfo } from '../../api/mcpElicitationHost';
import { publicSurface } from '../../src/api/publicSurface';

const PUBLIC = ['elicit', 'onDidChangePending', 'onDidChangeServers', 'pending', 'servers', 'version'];

/** Shaped like the real PublicApi: its collaborators are fields, reachable at run time. */
class InsideApi implements McpElicitationHostApi {
  readonly version = 1 as const;
  readonly calls: unknown[][] = [];
  readonly listeners: ((e: void) => unknown)[] = [];
  constructor(
    readonly broker = { secret: 'gateway key' },
    readonly manager = { kill: () => 'killed' },
  ) {}
  elicit(params: ElicitParams, options: { source: string; signal?: AbortSignal }): Promise<ElicitResult> {
    this.calls.push(['elicit', params, options]);
    return Promise.resolve({ action: 'decline' });
  }
  servers(): readonly ServerInfo[] {
    return [{ name: 'fixture', state: 'running', detail: '', tools: [] }];
  }
  pending(): readonly PendingElicitation[] {
    return [];
  }
  private subscribe: Event<void> = (listener) => {
    this.listeners.push(listener);
    return { dispose: () => void this.listeners.splice(this.listeners.indexOf(listener), 1) };
  };
  readonly onDidChangeServers: Event<void> = this.subscribe;
  readonly onDidChangePending: Event<void> = this.subscribe;
}

/** Every property name reachable from `value` through own properties and prototypes, a few levels down. */
function reachable(value: unknown, depth = 3, seen = new Set<unknown>()): Set<string> {
  const names = new Set<string>();
  if (depth === 0 || value === null || (typeof value !== 'object' && typeof value !== 'function') || seen.has(value)) return names;
  seen.add(value);
  for (
    let o: object | null = value;
    o && o !== Object.prototype && o !== Function.prototype;
    o = Object.getPrototypeOf(o) as object | null
  ) {
    for (const key of Object.getOwnPropertyNames(o)) {
      names.add(key);
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (d && 'value' in d) for (const n of reachable(d.value, depth - 1, seen)) names.add(n);
    }
  }
  return names;
}

void describe('publicSurface: what activate() returns to other extensions', () => {
  void it('has exactly the members of the public API, frozen, on a plain object', () => {
    const surface = publicSurface(new InsideApi());
    assert.deepEqual(Object.keys(surface).sort(), PUBLIC);
    assert.ok(Object.isFrozen(surface));
    assert.equal(Object.getPrototypeOf(surface), Object.prototype);
    assert.equal(surface.version, 1);
  });

  void it('no property of it, or of its functions, leads to an internal', () => {
    const names = reachable(publicSurface(new InsideApi()));
    for (const inside of ['broker', 'manager', 'secret', 'kill', 'calls', 'listeners', 'subscribe']) {
      assert.ok(!names.has(inside), `${inside} is reachable`);
    }
    // The plain API object itself would leak them: the walk does find what is there.
    assert.ok(reachable(new InsideApi()).has('secret'));
  });

  void it('forwards every call and subscription to the API', async () => {
    const inside = new InsideApi();
    const surface = publicSurface(inside);
    const params: ElicitParams = { message: 'Which?', requestedSchema: { type: 'object', properties: {} } };
    assert.deepEqual(await surface.elicit(params, { source: 'Other Extension' }), { action: 'decline' });
    assert.deepEqual(inside.calls, [['elicit', params, { source: 'Other Extension' }]]);
    assert.deepEqual(
      surface.servers().map((s) => s.name),
      ['fixture'],
    );
    assert.deepEqual(surface.pending(), []);
    const sub = surface.onDidChangeServers(() => undefined);
    surface.onDidChangePending(() => undefined);
    assert.equal(inside.listeners.length, 2);
    sub.dispose();
    assert.equal(inside.listeners.length, 1);
  });

  void it('cannot be changed by the extension that received it', () => {
    const surface = publicSurface(new InsideApi()) as { elicit: unknown };
    // Test modules are strict, as the extension host's are: writing a frozen property throws.
    assert.throws(() => {
      surface.elicit = () => 'hijacked';
    }, TypeError);
  });
});
