/**
 * A real Connection to a real server process, behind the real broker; only the user is scripted
 * (the presenter's form answers, and the answer to a revision offer). For the tests that start
 * servers of every kind and framework (eraChoice, eraFrameworks).
 */
import type { ServerDefinition } from '../../../src/config/parse/definitions';
import { ElicitationBroker } from '../../../src/elicitation/broker';
import type { FormAnswer, FormPrompt } from '../../../src/elicitation/presenter';
import { Connection } from '../../../src/servers/connection';
import type { EraSwitchPort } from '../../../src/servers/connectionDeps';
import { FakePresenter, type Script } from './fakePresenter';
import { MemoryLog, RecordingSampler } from './fakeLaunches';

export interface RealConnection {
  readonly conn: Connection;
  readonly log: MemoryLog;
  readonly presenter: FakePresenter;
  readonly broker: ElicitationBroker;
}

export function realConnection(
  def: ServerDefinition,
  o: { readonly form: Script<FormPrompt, FormAnswer>; readonly connectTimeoutMs?: number; readonly eraSwitch?: EraSwitchPort },
): RealConnection {
  const presenter = new FakePresenter({ form: o.form });
  const broker = new ElicitationBroker({
    presenter,
    gate: () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
    settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: false, urlExpiryMs: 0 }),
    log: { info: () => undefined, warn: () => undefined },
  });
  const log = new MemoryLog();
  const conn = new Connection(def, {
    log,
    clientInfo: { name: 'era-test', version: '0.0.0' },
    sink: broker,
    sampler: new RecordingSampler(),
    onGaveUp: () => undefined,
    restartDelaysMs: [],
    ...(o.connectTimeoutMs !== undefined ? { connectTimeoutMs: () => o.connectTimeoutMs ?? 0 } : {}),
    ...(o.eraSwitch ? { eraSwitch: o.eraSwitch } : {}),
  });
  return { conn, log, presenter, broker };
}
