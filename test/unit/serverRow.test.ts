import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { serverRowDescription, serverRowTooltip, type ServerRowFacts } from '../../src/ui/wording/serverRow';
import { bundleLocale, english } from './support/localize';

const FILE = '/w/app/.vscode/mcp.json';
const running: ServerRowFacts['state'] = {
  kind: 'running',
  transport: 'stdio',
  serverInfo: { name: 'team-tools', version: '1.0.0' },
  pid: 4242,
  protocolVersion: '2025-11-25',
};
const facts = (over: Partial<ServerRowFacts> = {}): ServerRowFacts => ({
  name: 'team-tools',
  state: running,
  configError: undefined,
  transport: 'stdio',
  signIn: undefined,
  reach: { kind: 'registryOnly' },
  definedIn: FILE,
  routed: false,
  policy: 'allow',
  ...over,
});
const description = (over?: Partial<ServerRowFacts>) => serverRowDescription(facts(over), english);
const tooltip = (over?: Partial<ServerRowFacts>) => serverRowTooltip(facts(over), english);
const offered = { kind: 'offered', door: 'http://127.0.0.1:4711/mcp/team-tools', sessions: 0 } as const;

// About what a sidebar of default width shows of a row's description beside a name of ten
// characters (measured in the workbench, test/e2e/mcpAccess.test.ts checks the real thing).
const FITS = 25;

describe('a server row of the Servers view', () => {
  it('a running server: the agent’s reach first, then transport, what the server reports and the revision', () => {
    assert.equal(description(), 'not offered to the agent (registry only) · stdio · team-tools 1.0.0 · MCP 2025-11-25');
    assert.equal(description({ reach: offered }), 'offered to the agent · stdio · team-tools 1.0.0 · MCP 2025-11-25');
    assert.equal(description({ reach: { ...offered, sessions: 2 } }), 'agent connected · stdio · team-tools 1.0.0 · MCP 2025-11-25');
    assert.equal(description({ reach: { kind: 'notOffered' } }), 'stdio · team-tools 1.0.0 · MCP 2025-11-25');
    assert.equal(description({ reach: { kind: 'agentOff' } }), 'stdio · team-tools 1.0.0 · MCP 2025-11-25');
  });

  it('a stopped server: the state first and the reach after it, short enough for a default sidebar (no transport)', () => {
    const stopped = description({ state: { kind: 'stopped' } });
    assert.equal(stopped, 'stopped · registry only');
    assert.ok(stopped.length <= FITS, `${stopped.length} characters`);
    assert.equal(description({ state: { kind: 'stopped' }, reach: offered }), 'stopped · offered to the agent');
    assert.equal(description({ state: { kind: 'stopped' }, reach: { kind: 'notOffered' } }), 'stopped');
    assert.equal(description({ state: { kind: 'starting', attempt: 1 } }), 'starting… · registry only');
  });

  it('a failed server: its error before the reach (a sign-in state, which often explains the error, before both)', () => {
    assert.equal(description({ state: { kind: 'error', reason: 'spawn nope ENOENT', gaveUp: true } }), 'spawn nope ENOENT · registry only');
    assert.equal(
      description({ state: undefined, configError: 'command is missing', reach: { kind: 'notOffered' } }),
      'configuration error: command is missing',
    );
    assert.equal(
      description({ state: { kind: 'error', reason: 'HTTP 401', gaveUp: false }, signIn: 'signedOut', reach: offered }),
      'not signed in · HTTP 401 · offered to the agent',
    );
    assert.equal(description({ state: { kind: 'untrusted' } }), 'not started: workspace is not trusted · registry only');
  });

  it('the tooltip starts with the name and the state only, never the row’s text', () => {
    for (const over of [{}, { state: { kind: 'stopped' } as const }, { reach: offered }, { signIn: 'signedIn' as const }]) {
      const [first] = tooltip(over);
      assert.ok(first !== undefined && !first.includes(description(over)), `${first} repeats the row`);
    }
    assert.equal(tooltip()[0], 'team-tools — running');
    assert.equal(tooltip({ state: { kind: 'stopped' } })[0], 'team-tools — stopped');
    assert.equal(tooltip({ state: { kind: 'starting', attempt: 2 } })[0], 'team-tools — starting…');
    assert.equal(tooltip({ state: { kind: 'untrusted' } })[0], 'team-tools — not started: workspace is not trusted');
  });

  it('then one fact a line, each said once', () => {
    const lines = tooltip({ reach: offered, signIn: 'signedIn' });
    assert.deepEqual(lines, [
      'team-tools — running',
      'Signed in',
      'Transport: stdio',
      'Server reports: team-tools 1.0.0',
      `Defined in ${FILE}`,
      'MCP revision: 2025-11-25',
      'Elicitation policy: allow',
      "VS Code's agent reaches this server through the gateway (http://127.0.0.1:4711/mcp/team-tools); open sessions: 0. Its questions come here.",
    ]);
    // The old first line repeated the row, so the revision and the transport were said twice.
    const text = lines.join('\n');
    assert.equal(text.split('2025-11-25').length - 1, 1, text);
    assert.equal(text.split('stdio').length - 1, 1, text);
  });

  it('the revision line says why the server speaks it (issue 40), naming the revision once', () => {
    const withEra = (era: NonNullable<Extract<ServerRowFacts['state'], { kind: 'running' }>['era']>) =>
      tooltip({ state: { ...running, protocolVersion: era.version, era } });
    const line = (lines: string[]) => lines.find((l) => l.startsWith('MCP revision: '));
    assert.equal(
      line(withEra({ version: '2025-11-25', why: 'vscode' })),
      'MCP revision: 2025-11-25, the default: the revision VS Code speaks, so this server asks you what it would ask there',
    );
    assert.equal(
      line(withEra({ version: '2026-07-28', why: 'modernOnly', refused: 'MCP error -32022: Unsupported protocol version: 2025-11-25' })),
      'MCP revision: 2026-07-28: the server refused 2025-11-25 (MCP error -32022: Unsupported protocol version: 2025-11-25) and speaks only this one',
    );
    assert.equal(
      line(withEra({ version: '2025-11-25', why: 'pinned' })),
      'MCP revision: 2025-11-25, as the server’s "protocolVersion" sets it',
    );
    const learned = withEra({ version: '2026-07-28', why: 'learned', tool: 'book' });
    assert.equal(line(learned), 'MCP revision: 2026-07-28, because its tool “book” asks its questions this revision’s way');
    assert.equal(learned.join('\n').split('2026-07-28').length - 1, 1, 'the revision, once');
  });

  it('names where the server is written once: by the routed line or the registry line when they name it', () => {
    const registry = tooltip().join('\n');
    assert.equal(registry.split(FILE).length - 1, 1, registry);
    assert.ok(registry.includes(`not those written in ${FILE}.`), registry);
    const routed = tooltip({ routed: true, reach: offered }).join('\n');
    assert.equal(routed.split(FILE).length - 1, 1, routed);
    assert.ok(routed.includes(`Routed here for you alone; it stays defined in ${FILE}, which is unchanged.`), routed);
    assert.ok(
      tooltip({ reach: { kind: 'notOffered' }, definedIn: 'mcpElicitation.servers setting' }).includes(
        'Defined in mcpElicitation.servers setting',
      ),
    );
  });

  it('an error: the state on the first line, the error’s own text on the next, and no revision of a server not running', () => {
    const lines = tooltip({ state: { kind: 'error', reason: 'spawn nope ENOENT', gaveUp: true }, signIn: 'signedOut' });
    assert.deepEqual(lines.slice(0, 4), ['team-tools — failed', 'spawn nope ENOENT', 'Not signed in', 'Transport: stdio']);
    assert.ok(!lines.some((l) => l.startsWith('MCP revision') || l.startsWith('Server reports')), lines.join('\n'));
    const broken = tooltip({ state: undefined, configError: 'command is missing', transport: undefined, definedIn: undefined });
    assert.deepEqual(broken.slice(0, 2), ['team-tools — configuration error', 'command is missing']);
    assert.ok(!broken.some((l) => l.startsWith('Transport') || l.startsWith('Defined in')), broken.join('\n'));
  });

  it('has every line in German, on every path', () => {
    const de = bundleLocale('de');
    const cases: Array<Partial<ServerRowFacts>> = [
      {},
      { reach: offered, signIn: 'signedIn' },
      { reach: { ...offered, sessions: 1 }, signIn: 'signingIn', routed: true },
      { state: { kind: 'stopped' }, signIn: 'signedOut', reach: { kind: 'agentOff' } },
      { state: { kind: 'starting', attempt: 1 }, reach: { kind: 'notOffered' } },
      { state: { kind: 'error', reason: 'x', gaveUp: false } },
      { state: { kind: 'untrusted' } },
      { state: undefined, configError: 'x' },
    ];
    for (const over of cases) {
      serverRowDescription(facts(over), de);
      serverRowTooltip(facts(over), de);
    }
    assert.equal(serverRowDescription(facts({ state: { kind: 'stopped' } }), de), 'beendet · nur Registry');
  });
});
