/**
 * Sign-in (issue 25) in plain Node, end to end: the real Connection, transports, SDK OAuth client,
 * loopback redirect and SignInService against test/fixtures/oauthServer.mjs (an SDK MCP server
 * behind the SDK's bearer gate, with its own authorization server). The "browser" is an HTTP
 * client that follows the authorization URL; the consent step is the only stand-in.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { RemoteServerDefinition } from '../../src/config/parse/definitions';
import { Connection } from '../../src/servers/connection';
import { AuthStore, type SecretStore } from '../../src/servers/auth/authStore';
import { LoopbackRedirect } from '../../src/servers/auth/loopbackRedirect';
import { SignInService, type SignInConsentAnswer, type SignInRequest } from '../../src/servers/auth/signIn';
import * as engine from '../../src/servers/httpTransports';
import { MemoryLog, RecordingSampler, RecordingSink } from './support/fakeLaunches';

const children: ChildProcess[] = [];
after(() => {
  for (const c of children) c.kill();
});

/** Starts the fixture; resolves with its base URL once it listens. */
function fixture(env: Record<string, string> = {}): Promise<string> {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'fixtures', 'oauthServer.mjs'), '0'], {
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

class MapSecrets implements SecretStore {
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

interface Stats {
  registrations: { application_type?: string; redirect_uris?: string[] }[];
  authorizations: Record<string, string>[];
  codeGrants: number;
  refreshGrants: number;
}

async function stats(base: string): Promise<Stats> {
  return (await (await fetch(`${base}/fixture/stats`)).json()) as Stats;
}

/** The user: answers the consent, and as the browser follows the authorization URL to the redirect. */
type User = (request: SignInRequest) => Promise<SignInConsentAnswer>;
const approvingUser: User = async (request) => {
  // Not awaited by the consent: the browser goes on its own after "Sign In in Browser".
  void fetch(request.url, { redirect: 'follow' }).catch(() => undefined);
  return Promise.resolve('opened');
};

function harness(base: string, user: User, secrets = new MapSecrets(), timeoutMs = 30_000) {
  const log = new MemoryLog();
  const store = new AuthStore(secrets);
  const asked: SignInRequest[] = [];
  const failures: string[] = [];
  const secretsLogged: string[] = [];
  const redirect = new LoopbackRedirect();
  const signIn = new SignInService({
    store,
    redirect,
    engine: () => engine,
    consent: (request) => {
      asked.push(request);
      return user(request);
    },
    failed: (server, reason) => failures.push(`${server}: ${reason}`),
    log,
    addSecret: (v) => secretsLogged.push(v),
    timeoutMs: () => timeoutMs,
  });
  const def: RemoteServerDefinition = {
    name: 'protected',
    type: 'http',
    url: `${base}/mcp`,
    headers: {},
    source: { kind: 'setting', scope: 'user' },
  };
  const conn = new Connection(def, {
    log,
    clientInfo: { name: 'test-host', version: '0.0.0' },
    sink: new RecordingSink(),
    sampler: new RecordingSampler(),
    onGaveUp: () => undefined,
    signIn,
    restartDelaysMs: [],
  });
  return { conn, signIn, store, asked, failures, log, secrets, secretsLogged, redirect };
}

async function whoami(conn: Connection): Promise<string> {
  const r = (await conn.sendLeg('tools/call', { name: 'whoami', arguments: {} }, {}, 'whoami')) as CallToolResult;
  const first = r.content[0];
  return first?.type === 'text' ? first.text : '';
}

void describe('sign-in to a protected MCP server (plain Node, real fixture)', () => {
  void it('401 → consent → browser → redirect → tool call; then refresh without the user; then sign-out', async () => {
    const base = await fixture();
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running', JSON.stringify(h.conn.state));
    assert.equal(h.asked.length, 1, 'the user was asked once');
    assert.equal(h.asked[0]?.server, 'protected');
    const authUrl = new URL(h.asked[0]?.url ?? '');
    assert.equal(authUrl.origin + authUrl.pathname, `${base}/as/authorize`);
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authUrl.searchParams.get('resource'), `${base}/mcp`, 'RFC 8707 resource indicator');
    assert.equal(authUrl.searchParams.get('scope'), 'mcp:read', "the scope of the 401's WWW-Authenticate, not scopes_supported");
    const s = await stats(base);
    assert.equal(s.registrations.length, 1, 'dynamic registration');
    assert.equal(s.registrations[0]?.application_type, 'native', 'RFC 7591 application_type for a loopback redirect');
    assert.match(await whoami(h.conn), /^client \S+ scopes mcp:read$/);
    assert.equal(h.signIn.stateOf('protected'), 'signedIn');

    // Tokens only in the secret store, keyed by issuer and resource; registered with the log's redaction.
    const keys = [...h.secrets.map.keys()];
    assert.ok(keys.includes(`mcpElicitation.oauth/tokens/${base}/as ${base}/mcp`), keys.join('\n'));
    const tokens = await h.store.tokensOf('protected');
    assert.ok(tokens?.access_token && h.secretsLogged.includes(tokens.access_token));
    assert.ok(!h.log.lines.some((l) => l.includes(tokens.access_token)), 'no token in the log');

    // The server stops taking the access token: the refresh token gets a new one, nobody is asked.
    await fetch(`${base}/fixture/expire`, { method: 'POST' });
    assert.match(await whoami(h.conn), /^client /);
    assert.equal((await stats(base)).refreshGrants, 1);
    assert.equal(h.asked.length, 1, 'a refresh asks nobody');

    // Sign out: the tokens are gone; starting again asks again.
    await h.conn.stop();
    assert.equal(await h.signIn.signOut('protected'), true);
    assert.equal(await h.store.tokensOf('protected'), undefined);
    assert.equal(h.signIn.stateOf('protected'), 'signedOut');
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running');
    assert.equal(h.asked.length, 2);
    assert.equal((await stats(base)).registrations.length, 1, 'the registered client is reused');
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('the loopback listener opens at the first sign-in, not when a remote server starts: a stored token opens none', async () => {
    const base = await fixture();
    const first = harness(base, approvingUser);
    await first.conn.start();
    assert.equal(first.asked.length, 1);
    assert.match(first.redirect.current() ?? '', /^http:\/\/127\.0\.0\.1:\d+\/mcp-elicitation\/oauth\/callback$/);
    await first.conn.shutdown();
    first.signIn.dispose();

    // The next window, with the token in its secret store: the server starts and answers, no listener opens.
    const next = harness(base, approvingUser, first.secrets);
    await next.conn.start();
    assert.equal(next.conn.state.kind, 'running', JSON.stringify(next.conn.state));
    assert.match(await whoami(next.conn), /^client /);
    assert.equal(next.asked.length, 0, 'nobody asked');
    assert.equal(next.redirect.current(), undefined, 'no loopback listener');
    await next.conn.shutdown();
    next.signIn.dispose();
  });

  void it('a token about to expire is refreshed before it is sent', async () => {
    // Tokens live 30 s, inside the refresh margin: each new connection refreshes first.
    const base = await fixture({ FIXTURE_TOKEN_SECONDS: '30' });
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.equal(h.conn.state.kind, 'running');
    const before = (await stats(base)).refreshGrants;
    assert.match(await whoami(h.conn), /^client /);
    assert.ok((await stats(base)).refreshGrants > before, 'refreshed before the call');
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('step-up: a tool that needs mcp:write gets 403 insufficient_scope, the user is asked for the wider scope, and the call then runs', async () => {
    const base = await fixture();
    const h = harness(base, approvingUser);
    await h.conn.start();
    assert.equal(h.asked.length, 1);
    const r = (await h.conn.sendLeg('tools/call', { name: 'write', arguments: {} }, {}, 'write')) as CallToolResult;
    assert.deepEqual(r.content, [{ type: 'text', text: 'written' }]);
    assert.equal(h.asked.length, 2, 'asked again, for the wider scope');
    const scope = new URL(h.asked[1]?.url ?? '').searchParams.get('scope') ?? '';
    assert.deepEqual(scope.split(' ').sort(), ['mcp:read', 'mcp:write']);
    assert.match(await whoami(h.conn), /scopes mcp:read mcp:write$/);
    await h.conn.shutdown();
    h.signIn.dispose();
  });

  void it('declining the consent opens nothing, asks once, and leaves the server stopped with the reason', async () => {
    const base = await fixture();
    const h = harness(base, () => Promise.resolve('declined'));
    await h.conn.start();
    assert.ok(h.conn.state.kind === 'error' && h.conn.state.gaveUp);
    assert.match(h.conn.state.kind === 'error' ? h.conn.state.reason : '', /declined/);
    assert.equal((await stats(base)).authorizations.length, 0, 'the authorization URL was never opened');
    assert.deepEqual(h.failures, [], 'no error notice for a choice the user made');
    h.signIn.dispose();
  });

  void it('bad input ends the sign-in with the server and the reason: a foreign iss, a non-JSON token answer, 10 MB of metadata, a browser that never comes back', async () => {
    const cases: [string, Record<string, string>, RegExp, User?, number?][] = [
      ['badIss', { FIXTURE_AUTH_MODE: 'badIss' }, /Issuer mismatch in authorization response \(RFC 9207\)/],
      ['notJson', { FIXTURE_AUTH_MODE: 'notJson' }, /the authorization server sent an answer that is not JSON/],
      ['hugeMetadata', { FIXTURE_AUTH_MODE: 'hugeMetadata' }, /more than the 1000000 bytes/],
      ['browser never comes back', {}, /did not come back within 1 second/, () => Promise.resolve('opened'), 300],
    ];
    for (const [label, env, reason, user, timeout] of cases) {
      const base = await fixture(env);
      const h = harness(base, user ?? approvingUser, new MapSecrets(), timeout);
      await h.conn.start();
      assert.ok(h.conn.state.kind === 'error' && h.conn.state.gaveUp, `${label}: ${JSON.stringify(h.conn.state)}`);
      assert.match(h.conn.state.kind === 'error' ? h.conn.state.reason : '', reason, label);
      assert.equal(await h.store.tokensOf('protected'), undefined, `${label}: no token stored`);
      h.signIn.dispose();
    }
  });
});
