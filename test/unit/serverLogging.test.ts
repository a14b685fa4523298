/**
 * Server logging (issue 24 item 4) in plain Node: the level a server is asked for follows ours,
 * through `logging/setLevel` on 2025-11-25 and the per-request `_meta` key on 2026-07-28, and what
 * the server logs is written at its own level.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mcpLevel, metaLevel, writeServerMessage, type HostLogLevel, type LogLevelSource } from '../../src/servers/capabilities/logging';
import { Session } from '../../src/servers/session';
import { Emitter } from '../../src/util/emitter';
import { FakeLaunches, MemoryLog, RecordingSampler, RecordingSink, stdioDef } from './support/fakeLaunches';

class Level implements LogLevelSource {
  readonly changed = new Emitter<HostLogLevel>();
  readonly onDidChangeLogLevel = this.changed.event;
  constructor(public logLevel: HostLogLevel) {}
  set(l: HostLogLevel): void {
    this.logLevel = l;
    this.changed.fire(l);
  }
}

void describe('log levels', () => {
  void it('maps every host level to an MCP level; off sends no _meta level', () => {
    assert.deepEqual(([0, 1, 2, 3, 4, 5] as const).map(mcpLevel), ['emergency', 'debug', 'debug', 'info', 'warning', 'error']);
    assert.equal(metaLevel(new Level(0)), undefined);
    assert.equal(metaLevel(undefined), undefined);
    assert.equal(metaLevel(new Level(4)), 'warning');
  });

  void it('a server message is written at its own level, with its logger', () => {
    const log = {
      lines: [] as string[],
      trace() {},
      debug(m: string) {
        this.lines.push(`debug ${m}`);
      },
      info(m: string) {
        this.lines.push(`info ${m}`);
      },
      warn(m: string) {
        this.lines.push(`warn ${m}`);
      },
      error(m: string) {
        this.lines.push(`error ${m}`);
      },
    };
    writeServerMessage(log, { level: 'debug', data: 'a' });
    writeServerMessage(log, { level: 'notice', logger: 'db', data: { n: 1 } }, '[s] ');
    writeServerMessage(log, { level: 'warning', data: 'w' });
    writeServerMessage(log, { level: 'critical', data: 'c' });
    assert.deepEqual(log.lines, [
      'debug [server log] a',
      'info [s] [server log db] {"n":1}',
      'warn [server log] w',
      'error critical: [server log] c',
    ]);
  });
});

void describe('a Session keeps a 2025 server at our level', () => {
  void it('logging/setLevel once connected and on every change; nothing after dispose', async () => {
    const launches = new FakeLaunches();
    const level = new Level(3);
    const prepared = launches.create(stdioDef('one'), { stderr: () => undefined, warn: () => undefined });
    const asked: string[] = [];
    let heard: () => void = () => undefined;
    launches.last.server?.server.setRequestHandler(SetLevelRequestSchema, (r) => {
      asked.push(r.params.level);
      heard();
      return {};
    });
    const next = (): Promise<void> => new Promise((resolve) => (heard = resolve));
    const first = next();
    const log = new MemoryLog();
    const session = new Session(prepared, {
      name: 'one',
      clientInfo: { name: 'test-host', version: '0.0.0' },
      sink: new RecordingSink(),
      sampler: new RecordingSampler(),
      log,
      protocolVersion: undefined,
      logLevel: level,
    });
    await session.connect(5_000);
    await first;
    const second = next();
    level.set(2);
    await second;
    assert.deepEqual(asked, ['info', 'debug']);
    // What the server logs reaches our log at its level.
    await launches.last.server?.server.sendLoggingMessage({ level: 'warning', data: 'disk almost full' });
    await session.refreshTools();
    assert.ok(log.lines.includes('warn: [server log] disk almost full'), log.lines.join('\n'));
    await session.dispose();
    level.set(5);
    assert.deepEqual(asked, ['info', 'debug']);
  });
});
