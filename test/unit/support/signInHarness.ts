/**
 * Sign-in tests in plain Node (issue 25): the real Connection, transports, SDK OAuth client,
 * loopback redirect and SignInService against test/fixtures/oauthServer.mjs (an SDK MCP server
 * behind the SDK's bearer gate, with its own authorization server). The "browser" is an HTTP
 * client that follows the authorization URL; the consent step is the only stand-in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { RemoteServerDefinition } from '../../../src/config/parse/definitions';
import { Connection } from '../../../src/servers/connection';
import { AuthStore, type SecretStore, type ServerAt } from '../../../src/servers/auth/authStore';
import { LoopbackRedirect } from '../../../src/servers/auth/loopbackRedirect';
import { SignInService, type SignInConsentAnswer, type SignInRequest } from '../../../src/servers/auth/signIn';
import * as engine from '../../../src/servers/httpTransports';
import { redactSecrets } from '../../../src/util/redact';
import { MemoryLog, RecordingSampler, RecordingSink } from './fakeLaunches';

const children: ChildProcess[] = [];

/** Stops every fixture this file started (call from the test file's `after`). */
export function killFixtures(): void {
  for (const c of children) c.kill();
}

/** Starts the fixture; resolves with its base URL once it listens. */
export function fixture(env: Record<string, string> = {}): Promise<string> {
  return fixtureAt(path.join(__dirname, '..', '..', 'fixtures', 'oauthServer.mjs'), env);
}

/** Starts the fixture at `script` (the bench runs from a bundle elsewhere and names it). */
export function fixtureAt(script: string, env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [script, '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`oauthServer.mjs exited (${code})`)));
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
  });
}

export class MapSecrets implements SecretStore {
  readonly map = new Map<string, string>();
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.map.get(key));
  }
  store(key: string, value: string): Promise<void> {
    this.map.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.map.delete(key);
    return Promise.resolve();
  }
}

export interface Stats {
  registrations: { application_type?: string; redirect_uris?: string[]; scope?: string }[];
  authorizations: Record<string, string>[];
  codeGrants: number;
  codeExchanges: number;
  refreshGrants: number;
  unauthorized: number;
  clientAuth: string[];
  issuers: string[];
}

export async function stats(base: string): Promise<Stats> {
  return (await (await fetch(`${base}/fixture/stats`)).json()) as Stats;
}

/** The user: answers the consent, and as the browser follows the authorization URL to the redirect. */
export type User = (request: SignInRequest, signal: AbortSignal) => Promise<SignInConsentAnswer>;
export const approvingUser: User = async (request) => {
  // Not awaited by the consent: the browser goes on its own after "Sign In in Browser".
  void fetch(request.url, { redirect: 'follow' }).catch(() => undefined);
  return Promise.resolve('opened');
};

/** A server's log as util/log.ts writes it: every line redacted with the secrets known so far. */
export class RedactingLog extends MemoryLog {
  constructor(private readonly secrets: ReadonlySet<string>) {
    super();
  }
  override trace(m: string): void {
    super.trace(redactSecrets(m, this.secrets));
  }
  override info(m: string): void {
    super.info(redactSecrets(m, this.secrets));
  }
  override warn(m: string): void {
    super.warn(redactSecrets(m, this.secrets));
  }
  override error(m: string, err?: unknown): void {
    // As Logger.error words `err`, then redacts the line.
    const detail = err === undefined ? undefined : err instanceof Error ? err.message : JSON.stringify(err);
    super.error(redactSecrets(m, this.secrets), detail === undefined ? undefined : redactSecrets(detail, this.secrets));
  }
}

/**
 * One log per server, as util/serverLogs.ts keeps them (its connection's and its sign-in's lines),
 * all redacting one set of secrets, as the extension's loggers share one.
 */
export class ServerLogsFake {
  private readonly logs = new Map<string, RedactingLog>();
  readonly secrets = new Set<string>();
  for(server: string): RedactingLog {
    let log = this.logs.get(server);
    if (!log) this.logs.set(server, (log = new RedactingLog(this.secrets)));
    return log;
  }
  /** The servers that have a log. */
  servers(): string[] {
    return [...this.logs.keys()];
  }
  /** Logger.addSecret: shorter values would redact too much ordinary text. */
  addSecret(value: string): void {
    if (value.length >= 4) this.secrets.add(value);
  }
}

export interface SignInHarness {
  readonly signIn: SignInService;
  readonly store: AuthStore;
  readonly asked: SignInRequest[];
  /** The notices shown: `server: reason`, the reason redacted as the extension shows it. */
  readonly failures: string[];
  /** The give-up notices the connections asked for (`server: reason`): none when sign-in said why. */
  readonly gaveUp: string[];
  /** Each server's own log: its connection's lines and its sign-in's. */
  readonly logs: ServerLogsFake;
  readonly secrets: MapSecrets;
  /** Every value registered with the log's redaction. */
  readonly secretsLogged: string[];
  readonly redirect: LoopbackRedirect;
}

/** One sign-in service, as the extension has one for all servers. */
export function signInService(user: User, secrets = new MapSecrets(), timeoutMs = 30_000): SignInHarness {
  const logs = new ServerLogsFake();
  const store = new AuthStore(secrets);
  const asked: SignInRequest[] = [];
  const failures: string[] = [];
  const secretsLogged: string[] = [];
  const redirect = new LoopbackRedirect();
  const signIn = new SignInService({
    store,
    redirect,
    engine: () => engine,
    consent: (request, signal) => {
      asked.push(request);
      return user(request, signal);
    },
    failed: (server, reason) => failures.push(`${server}: ${reason}`),
    logFor: (server) => logs.for(server),
    addSecret: (v) => {
      secretsLogged.push(v);
      logs.addSecret(v);
    },
    redact: (text) => redactSecrets(text, logs.secrets),
    timeoutMs: () => timeoutMs,
  });
  return { signIn, store, asked, failures, gaveUp: [], logs, secrets, secretsLogged, redirect };
}

/** The harness's server `protected` at the fixture at `base`, as its credentials are kept (authStore.ts). */
export function protectedAt(base: string): ServerAt {
  return { name: 'protected', url: `${base}/mcp` };
}

/** A connection to the fixture at `base` that signs in through `h`. */
export function connect(h: SignInHarness, base: string, extra: Partial<RemoteServerDefinition> = {}): Connection {
  const def: RemoteServerDefinition = {
    name: 'protected',
    type: 'http',
    url: `${base}/mcp`,
    headers: {},
    source: { kind: 'setting', scope: 'user' },
    ...extra,
  };
  return new Connection(def, {
    log: h.logs.for(def.name),
    clientInfo: { name: 'test-host', version: '0.0.0' },
    sink: new RecordingSink(),
    sampler: new RecordingSampler(),
    onGaveUp: (g) => h.gaveUp.push(`${g.server}: ${g.reason}`),
    signIn: h.signIn,
    restartDelaysMs: [],
  });
}

/** A sign-in service with one connection, named `protected`. */
export function harness(
  base: string,
  user: User,
  secrets = new MapSecrets(),
  timeoutMs = 30_000,
  protocolVersion?: RemoteServerDefinition['protocolVersion'],
): SignInHarness & { conn: Connection } {
  const h = signInService(user, secrets, timeoutMs);
  return { ...h, conn: connect(h, base, protocolVersion ? { protocolVersion } : {}) };
}

export async function whoami(conn: Connection): Promise<string> {
  const r = (await conn.sendLeg('tools/call', { name: 'whoami', arguments: {} }, {}, 'whoami')) as CallToolResult;
  const first = r.content[0];
  return first?.type === 'text' ? first.text : '';
}
