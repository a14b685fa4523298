/**
 * Issue 40: the revision a server is spoken to by default, against real servers over stdio (each
 * a real process; the broker real, the user scripted). 2025-11-25 to whatever accepts it, so a
 * dual-era server's questions reach us as they reach VS Code's users; 2026-07-28 to a server that
 * speaks nothing else, on the same process; a pinned revision as pinned. And the bad inputs: a
 * server that answers `initialize` with garbage or not at all, or refuses both revisions.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import { startListening } from './support/listeningFixture';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ServerDefinition } from '../../src/config/parse/definitions';
import { callToolWithElicitation } from '../../src/servers/toolRunner';
import { eraLine, eraPlan, mayBeModernOnly } from '../../src/servers/era/eraChoice';
import { english } from '../../src/shared/localize';
import { realConnection, type RealConnection } from './support/realConnection';
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const dir = mkdtempSync(path.join(os.tmpdir(), 'era-unit-'));
/** Preloaded into every server process: one line in ERA_STARTS per start, probing siblings included. */
const COUNTER = path.join(dir, 'count.cjs');
writeFileSync(COUNTER, "require('node:fs').appendFileSync(process.env.ERA_STARTS, process.pid + '\\n');\n");

function def(name: string, args: string[], protocolVersion?: ServerDefinition['protocolVersion']): ServerDefinition {
  return {
    name,
    type: 'stdio',
    command: process.execPath,
    args,
    env: { NODE_OPTIONS: `--require ${COUNTER}`, ERA_STARTS: path.join(dir, `${name}.starts`) },
    source: { kind: 'setting', scope: 'user' },
    ...(protocolVersion ? { protocolVersion } : {}),
  };
}

function harness(d: ServerDefinition, connectTimeoutMs = 10_000): RealConnection {
  return realConnection(d, { form: () => ({ action: 'accept', content: { name: 'Ada' } }), connectTimeoutMs });
}

/** How many processes were started for the server `name`. */
const starts = (name: string): number => {
  const f = path.join(dir, `${name}.starts`);
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).length : 0;
};

const textOf = (r: CallToolResult): string => (r.content[0]?.type === 'text' ? r.content[0].text : '');

void describe('the default revision (protocolVersion "auto")', () => {
  it('a dual-era server is spoken to in 2025-11-25, once started, and its question reaches the user', async () => {
    const { conn, log, presenter, broker } = harness(def('dual', [path.join(FIXTURES, 'mrtrStdioServer.mjs'), 'dual', 'dual']));
    try {
      await conn.start();
      assert.equal(conn.state.kind, 'running', log.lines.join('\n'));
      const s = conn.state.kind === 'running' ? conn.state : undefined;
      assert.equal(s?.protocolVersion, '2025-11-25');
      assert.equal(s?.era?.why, 'vscode');
      assert.ok(
        log.lines.some((l) => l.startsWith('MCP revision: 2025-11-25, the default')),
        'the log says which and why',
      );
      const r = await callToolWithElicitation(conn, broker, { name: 'form', arguments: { tag: 'dual' } });
      assert.equal(presenter.forms.length, 1, 'the question was shown');
      assert.match(textOf(r), /"action":"accept"/);
      assert.equal(starts('dual'), 1, 'the server started once');
    } finally {
      await conn.shutdown();
    }
  });

  it('a 2026-07-28-only server: refused initialize, then 2026-07-28 on the same process', async () => {
    const { conn, log, presenter, broker } = harness(def('modern', [path.join(FIXTURES, 'mrtrStdioServer.mjs'), 'modern', 'modern']));
    try {
      await conn.start();
      assert.equal(conn.state.kind, 'running', log.lines.join('\n'));
      const s = conn.state.kind === 'running' ? conn.state : undefined;
      assert.equal(s?.protocolVersion, '2026-07-28');
      assert.equal(s?.era?.why, 'modernOnly');
      assert.match(s?.era?.refused ?? '', /./, 'the refusal is kept for the tooltip');
      assert.equal(starts('modern'), 1, 'one process: the modern attempt used the one that refused initialize');
      const r = await callToolWithElicitation(conn, broker, { name: 'form', arguments: { tag: 'modern' } });
      assert.equal(presenter.forms.length, 1);
      assert.match(textOf(r), /"action":"accept"/);
    } finally {
      await conn.shutdown();
    }
  });

  it('a 2025-only server (SDK v1) is spoken to in 2025-11-25 with no probe at all', async () => {
    const { conn, log } = harness(def('old', [path.join(FIXTURES, 'stdioServer.mjs'), 'old']));
    try {
      await conn.start();
      const s = conn.state.kind === 'running' ? conn.state : undefined;
      assert.equal(s?.era?.why, 'vscode', log.lines.join('\n'));
      assert.ok(!log.lines.some((l) => /server\/discover/.test(l)), 'nothing but initialize was needed');
    } finally {
      await conn.shutdown();
    }
  });

  it('a pinned revision is spoken as pinned, and a pinned 2026-07-28 starts the server once (no probing sibling)', async () => {
    for (const [pin, version] of [
      ['2025-11-25', '2025-11-25'],
      ['2026-07-28', '2026-07-28'],
    ] as const) {
      const { conn, log } = harness(def(`pin-${pin}`, [path.join(FIXTURES, 'mrtrStdioServer.mjs'), 'pinned', 'dual'], pin));
      try {
        await conn.start();
        const s = conn.state.kind === 'running' ? conn.state : undefined;
        assert.equal(s?.protocolVersion, version, log.lines.join('\n'));
        assert.equal(s?.era?.why, 'pinned');
        assert.equal(starts(`pin-${pin}`), 1, `${pin}: one start`);
      } finally {
        await conn.shutdown();
      }
    }
  });
});

/** A stdio "server" of a few lines of Node: what it does with each line it reads. */
function scripted(name: string, body: string): ServerDefinition {
  const src = `const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => { const m = JSON.parse(line); ${body} });`;
  return def(name, ['-e', src]);
}

void describe('the default revision over Streamable HTTP', () => {
  const children: ChildProcess[] = [];
  after(() => children.forEach((c) => c.kill()));
  const http = (name: string, url: string): ServerDefinition => ({
    name,
    type: 'http',
    url,
    headers: {},
    source: { kind: 'setting', scope: 'user' },
  });

  it('a 2025 server (SDK v1) gets 2025-11-25; a 2026-only one (SDK v2) refuses it with a 400 and gets 2026-07-28', async () => {
    const old = await startListening(process.execPath, [path.join(FIXTURES, 'httpServer.mjs'), '0', 'old-http']);
    const modern = await startListening(process.execPath, [path.join(FIXTURES, 'modernHttpServer.mjs'), '0', 'modern-http']);
    children.push(old.child, modern.child);
    for (const [d, want] of [
      [http('old-http', old.url), '2025-11-25 vscode'],
      [http('modern-http', modern.url), '2026-07-28 modernOnly'],
    ] as const) {
      const { conn, log } = harness(d);
      try {
        await conn.start();
        const st = conn.state;
        assert.equal(st.kind === 'running' ? `${st.protocolVersion} ${st.era?.why}` : JSON.stringify(st), want, log.lines.join('\n'));
      } finally {
        await conn.shutdown();
      }
    }
  });
});

void describe('bad answers to the revision steps', () => {
  it('garbage in answer to initialize: a clear error naming the step; a neighbour is unaffected', async () => {
    const bad = harness(
      scripted(
        'garbage',
        `if (m.id !== undefined) process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + ',"result":{"nonsense":true}}\\n');`,
      ),
    );
    const good = harness(def('neighbour', [path.join(FIXTURES, 'mrtrStdioServer.mjs'), 'neighbour', 'dual']));
    try {
      await Promise.all([bad.conn.start(), good.conn.start()]);
      assert.equal(bad.conn.state.kind, 'error');
      const reason = bad.conn.state.kind === 'error' ? bad.conn.state.reason : '';
      assert.match(reason, /initialize \(MCP 2025-11-25\)/, reason);
      assert.equal(good.conn.state.kind, 'running');
    } finally {
      await Promise.all([bad.conn.shutdown(), good.conn.shutdown()]);
    }
  });

  it('no answer to initialize: the error names the step and the wait', async () => {
    const silent = harness(scripted('silent', ''), 1_500);
    try {
      await silent.conn.start();
      const reason = silent.conn.state.kind === 'error' ? silent.conn.state.reason : '';
      assert.match(reason, /initialize \(MCP 2025-11-25\) failed: .*timed out/i, reason);
    } finally {
      await silent.conn.shutdown();
    }
  });

  it('a server that claims 2026-07-28 and then does not speak it: the failing step is named with the revision', async () => {
    const liar = harness(
      scripted(
        'liar',
        `if (m.id === undefined) return;
const answer = m.method === 'initialize'
  ? { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '2025-11-25' } } }
  : m.method === 'server/discover'
    ? { result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, serverInfo: { name: 'liar', version: '1' } } }
    : { error: { code: -32601, message: 'no ' + m.method + ' here' } };
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, ...answer }) + '\\n');`,
      ),
    );
    try {
      await liar.conn.start();
      assert.ok(
        liar.log.lines.some((l) => /tools\/list \(MCP 2026-07-28\) failed: .*no tools\/list here/.test(l)),
        liar.log.lines.join('\n'),
      );
    } finally {
      await liar.conn.shutdown();
    }
  });

  it('a server that refuses initialize and then does not speak 2026-07-28 either: both steps named', async () => {
    const both = harness(
      scripted(
        'neither',
        `if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method ' + m.method } }) + '\\n');`,
      ),
    );
    try {
      await both.conn.start();
      const reason = both.conn.state.kind === 'error' ? both.conn.state.reason : '';
      assert.match(reason, /initialize \(MCP 2025-11-25\) failed: .*no such method initialize/, reason);
      assert.match(reason, /server\/discover \(MCP 2026-07-28\) failed/, reason);
    } finally {
      await both.conn.shutdown();
    }
  });
});

void describe('a server that changes between restarts', () => {
  /**
   * The server a start finds, as `kindFile` says at that start: mrtrStdioServer.mjs dual or
   * modern-only, or stdioServer.mjs (SDK v1, 2025 only), as a server updated in place would be.
   */
  function changing(name: string, kindFile: string): ServerDefinition {
    const v2 = JSON.stringify(path.join(FIXTURES, 'mrtrStdioServer.mjs'));
    const v1 = JSON.stringify(path.join(FIXTURES, 'stdioServer.mjs'));
    const src = `const kind = require('node:fs').readFileSync(${JSON.stringify(kindFile)}, 'utf8').trim();
process.argv = [process.argv[0], 'x', ${JSON.stringify(name)}, kind];
import(kind === 'legacy' ? ${v1} : ${v2});`;
    return def(name, ['-e', src]);
  }

  it('the revision is chosen again at every start: dual, then 2026-only, then dual again', async () => {
    const kind = path.join(dir, 'changing.kind');
    writeFileSync(kind, 'dual');
    const { conn, log } = harness(changing('changing', kind));
    const why = (): string | undefined =>
      conn.state.kind === 'running' ? `${conn.state.protocolVersion} ${conn.state.era?.why}` : conn.state.kind;
    try {
      await conn.start();
      assert.equal(why(), '2025-11-25 vscode', log.lines.join('\n'));
      writeFileSync(kind, 'modern');
      await conn.restart();
      assert.equal(why(), '2026-07-28 modernOnly');
      writeFileSync(kind, 'dual');
      await conn.restart();
      assert.equal(why(), '2025-11-25 vscode');
    } finally {
      await conn.shutdown();
    }
  });

  it('a revision learned for a tool that the server no longer speaks is forgotten, and the choice made again', async () => {
    const kind = path.join(dir, 'learned.kind');
    writeFileSync(kind, 'dual');
    const { conn, log } = harness(changing('learned', kind));
    try {
      await conn.start();
      assert.equal(await conn.useEra('modern', 'form'), true, 'a dual server takes 2026-07-28 when a tool needs it');
      assert.equal(conn.state.kind === 'running' ? conn.state.era?.why : undefined, 'learned');
      // The server now speaks 2025 only (a v1 build, say): the learned 2026-07-28 is refused at
      // the next start, so nothing learned is kept and 2025-11-25 is chosen.
      writeFileSync(kind, 'legacy');
      await conn.restart();
      assert.equal(
        conn.state.kind === 'running' ? `${conn.state.protocolVersion} ${conn.state.era?.why}` : conn.state.kind,
        '2025-11-25 vscode',
        log.lines.join('\n'),
      );
      assert.equal(conn.eras.of('form'), undefined, 'forgotten');
      assert.ok(
        log.lines.some((l) => /refused MCP 2026-07-28 .*choosing the revision again/.test(l)),
        'the log says so',
      );
    } finally {
      await conn.shutdown();
    }
  });
});

void describe('eraChoice, the pure rule', () => {
  it('plans legacy first unless pinned, learned or SSE', () => {
    assert.deepEqual(eraPlan(undefined, 'stdio'), { kind: 'legacyFirst' });
    assert.deepEqual(eraPlan('auto', 'http'), { kind: 'legacyFirst' });
    assert.deepEqual(eraPlan(undefined, 'sse'), { kind: 'single', era: 'legacy', why: 'sse' });
    assert.deepEqual(eraPlan('2026-07-28', 'stdio'), { kind: 'single', era: 'modern', why: 'pinned' });
    assert.deepEqual(eraPlan('2025-11-25', 'http', { era: 'modern', tool: 't' }), { kind: 'single', era: 'legacy', why: 'pinned' });
    assert.deepEqual(eraPlan(undefined, 'stdio', { era: 'modern', tool: 't' }), {
      kind: 'single',
      era: 'modern',
      why: 'learned',
      tool: 't',
    });
  });

  it('asks for 2026-07-28 after a JSON-RPC refusal or an HTTP 4xx, never after silence, a crash or a sign-in challenge', () => {
    assert.equal(mayBeModernOnly(new ProtocolError(-32601, 'Method not found'), 'stdio'), true);
    assert.equal(mayBeModernOnly(new SdkHttpError(SdkErrorCode.ClientHttpUnexpectedContent, 'bad', { status: 400 }), 'http'), true);
    assert.equal(mayBeModernOnly(new SdkHttpError(SdkErrorCode.ClientHttpAuthentication, 'no', { status: 401 }), 'http'), false);
    assert.equal(mayBeModernOnly(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'), 'stdio'), false);
    assert.equal(mayBeModernOnly(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), 'stdio'), false);
    assert.equal(mayBeModernOnly(new ProtocolError(-32601, 'x'), 'sse'), false);
  });

  it('says which revision and why in one line', () => {
    assert.equal(
      eraLine({ version: '2026-07-28', why: 'learned', tool: 'book' }, english),
      'MCP revision: 2026-07-28, because its tool “book” asks its questions this revision’s way',
    );
  });
});
