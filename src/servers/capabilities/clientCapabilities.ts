/**
 * Everything this client declares to a server, and the handlers behind each declaration. A new
 * client capability gets a file of its own in this folder (its declaration and its `install…`),
 * an entry in {@link CLIENT_CAPABILITIES} and a block in {@link installCapabilities}; a Session
 * (session.ts) installs them all for every launch, and nothing else in `servers/` needs to know.
 */
import type { ClientCapabilities } from '@modelcontextprotocol/client';
import { askerFor } from '../../elicitation/asker';
import type { ElicitationSink } from '../../elicitation/broker';
import type { SamplingSink } from '../../sampling/samplingBroker';
import type { HostClient } from '../hostClient';
import { errorText } from '../serverState';
import { ELICITATION_CAPABILITY, installElicitation } from './elicitation';
import { NO_ROOTS, SessionRoots, type RootsSource } from './roots';
import { installSampling, SAMPLING_CAPABILITY, type AskScope } from './sampling';
import { installTasks, SessionTasks, TASKS_CAPABILITY } from './tasks';

/** Everything this client declares to a server; each entry has its block in {@link installCapabilities}. */
export const CLIENT_CAPABILITIES = {
  elicitation: ELICITATION_CAPABILITY,
  roots: { listChanged: true },
  sampling: SAMPLING_CAPABILITY,
  tasks: TASKS_CAPABILITY,
} as const satisfies ClientCapabilities;

/** What the capabilities need of their session. */
export interface CapabilityHost {
  readonly client: HostClient;
  /** The configured server's name. */
  readonly name: string;
  readonly sink: ElicitationSink;
  readonly sampler: SamplingSink;
  readonly roots: RootsSource | undefined;
  readonly log: { debug(message: string): void; warn(message: string): void };
  /** Runs one pushed question with the signal that ends it (Session: the question's link to its call). */
  asked<T>(ctx: Parameters<AskScope>[0], method: string, ask: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Connected, and not yet disposed: notifications may go out. */
  live(): boolean;
  isDisposed(): boolean;
  /** Disposed with the session. */
  own(d: { dispose(): void }): void;
}

/** The handlers behind {@link CLIENT_CAPABILITIES}, one block per capability. */
export function installCapabilities(host: CapabilityHost): void {
  const { client, name } = host;
  const identity = () => askerFor(name, client.getServerVersion());

  // tasks (2025-11-25): a pushed elicitation or sample with `task` is answered with a task at
  // once and asked the same way; the server polls it (capabilities/tasks.ts).
  const tasks = new SessionTasks({ log: (m) => host.log.debug(m) });
  host.own(tasks);
  installTasks(client, tasks);

  // elicitation: pushed requests (2025 servers) reach the broker raw (see hostClient.ts);
  // 2026-07-28 input rounds reach it through sendLeg's caller (mrtr/inputRounds.ts).
  installElicitation(
    client,
    name,
    identity,
    host.sink,
    (ctx, ask) => host.asked(ctx, 'elicitation/create', ask),
    tasks,
    () => host.isDisposed(),
  );

  // roots: the workspace folders this server may see (capabilities/roots.ts). 2026-07-28
  // servers ask in input rounds instead, and have no list_changed notification.
  const roots = new SessionRoots({
    server: name,
    source: host.roots ?? NO_ROOTS,
    notifyChanged: () => {
      if (!host.live() || client.getProtocolEra() === 'modern') return;
      client.sendRootsListChanged().catch((e: unknown) => host.log.warn(`roots/list_changed failed: ${errorText(e)}`));
    },
  });
  host.own(roots);
  client.setRequestHandler('roots/list', () => roots.list());

  // sampling: capabilities/sampling.ts.
  installSampling(client, identity, host.sampler, (ctx, ask) => host.asked(ctx, 'sampling/createMessage', ask), tasks);
}
