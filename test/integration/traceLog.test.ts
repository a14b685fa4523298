// The log at Trace, read from the file VS Code writes it to, after real traffic with fixture
// servers over stdio and Streamable HTTP: every wire message is traced at this level, so each kind
// of secret the README promises to keep out of the log is sent for real, and none may be found.
// Each secret is unique to the run, so a hit can only come from this suite's traffic.
import * as assert from 'node:assert/strict';
import { destination } from '../../src/config/parse/serverFingerprint';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { services, waitFor, waitForRunning, workspaceMcpJson } from './helpers';

const STDIO = 'trace-stdio';
const HTTP = 'trace-http';
/**
 * A log channel's file: `<logsLocation>/<extension id>/<channel name>.log`, the name without the
 * characters a file name cannot hold (VS Code's extHostOutput). Ours are the extension's log and
 * one per server ("MCP Elicitation: <server>"); all of them are read.
 */
const serverLogFile = (server: string): string => `MCP Elicitation ${server}.log`;

function runTool(server: string, tool: string, args: Record<string, unknown>): Promise<{ content: { text: string }[] }> {
  return Promise.resolve(vscode.commands.executeCommand<{ content: { text: string }[] }>('mcpElicitation.runTool', server, tool, args));
}

/** Starts the Streamable HTTP fixture on a free loopback port (it prints `LISTENING <port>`). */
function startHttpFixture(repo: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [path.join(repo, 'test', 'fixtures', 'httpServer.mjs'), '0', HTTP], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the HTTP fixture did not start in 30 s')), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`the HTTP fixture exited ${String(code)}`)));
  });
}

suite('Trace log: real traffic at Trace level leaves no secret in the log file', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  let http: { child: ChildProcess; port: number } | undefined;
  let levelBefore = 'info';
  const run = randomBytes(6).toString('hex');
  /** Every value that must never be in the log, by what it is. */
  const secrets = {
    passwordInput: `pwinput-${run}`,
    envSecretName: `envkey-${run}`,
    envPlainName: `envplain-${run}`,
    authorizationHeader: `hdrauth-${run}`,
    customHeader: `hdrcustom-${run}`,
    urlQuery: `urlquery-${run}`,
    urlFragment: `urlfrag-${run}`,
    consentUrlState: `urlstate-${run}`,
    consentUrlFragment: `urlhash-${run}`,
    dbPassword: `dbpw-${run}`,
    apiToken: `apitok-${run}`,
    clientSecret: `clsec-${run}`,
    passphrase: `phrase-${run}`,
    pin: `pin-${run}`,
    stderrAssignment: `stderrkv-${run}`,
    stderrBearer: `stderrbearer${run}`,
    resultAssignment: `resultkv-${run}`,
    accessToken: `oauthat-${run}`,
    refreshToken: `oauthrt-${run}`,
    codeVerifier: `oauthcv-${run}`,
  };
  /** What the log must show, so that the absence of secrets means something. */
  const visible = { nickname: `nick-${run}`, stderrLine: `stderr-says-${run}`, echo: `echo-${run}` };

  /** Every log file of the extension, each headed by its name. */
  function logText(): string {
    const dir = s.context.logUri.fsPath;
    if (!existsSync(dir)) return '';
    return readdirSync(dir)
      .filter((f) => f.endsWith('.log'))
      .map((f) => `=== ${f}\n${readFileSync(path.join(dir, f), 'utf8')}`)
      .join('\n');
  }

  function serverLog(server: string): string {
    const file = path.join(s.context.logUri.fsPath, serverLogFile(server));
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  suiteSetup(async function () {
    this.timeout(120_000);
    s = await services();
    mcpJson = workspaceMcpJson();
    const repo = process.env['MCP_TEST_REPO_ROOT'];
    assert.ok(repo, 'MCP_TEST_REPO_ROOT is set by the harness');
    levelBefore = (await vscode.commands.executeCommand<string>('_extensionTests.getLogLevel')) ?? 'info';
    // The whole host's default level: our channel follows it (it has no level of its own).
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'trace');
    await waitFor(() => s.log.isTracing, 'our log channel at Trace');
    http = await startHttpFixture(repo);

    // A remembered password input: the server gets it without a prompt, and it is a known secret.
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const input = { id: 'tracepw', description: 'Trace test password', password: true } as const;
    const command = { type: 'stdio', command: 'node', args: [path.join(repo, 'test', 'fixtures', 'stdioServer.mjs'), STDIO] } as const;
    const key = s.loader.inputs.storageKey(input, {
      server: STDIO,
      source: { kind: 'workspaceFile', file: mcpJson.path, folder },
      destination: destination(command),
    });
    await s.context.secrets.store(key, secrets.passwordInput);

    const json = JSON.parse(mcpJson.original) as { inputs: unknown[]; servers: Record<string, unknown> };
    json.inputs = [...json.inputs, { type: 'promptString', ...input }];
    json.servers[STDIO] = {
      ...command,
      env: { FIXTURE_PASSWORD: '${input:tracepw}', API_KEY: secrets.envSecretName, GREETING: secrets.envPlainName },
    };
    json.servers[HTTP] = {
      type: 'http',
      url: `http://127.0.0.1:${http.port}/mcp?api_key=${secrets.urlQuery}#${secrets.urlFragment}`,
      headers: { Authorization: `Bearer ${secrets.authorizationHeader}`, 'X-Team-Auth': secrets.customHeader },
    };
    // Started after the level changed: a session decides at launch whether it traces the wire.
    writeFileSync(mcpJson.path, JSON.stringify(json, null, 2));
    await waitForRunning(s, STDIO);
    await waitForRunning(s, HTTP);
  });

  suiteTeardown(async function () {
    this.timeout(60_000);
    mcpJson.restore();
    await waitFor(() => !s.manager.get(STDIO) && !s.manager.get(HTTP), 'trace servers removed', 30_000);
    http?.child.kill();
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', levelBefore);
    await vscode.commands.executeCommand('mcpElicitation.clearInputs');
  });

  test('answers, env, headers, the password input, URL queries, stderr, KEY=value and OAuth material in tool results: none in the log', async function () {
    this.timeout(120_000);
    // The server's env really holds the input's value and the env values (the wire carries them back).
    assert.equal((await runTool(STDIO, 'env', { name: 'FIXTURE_PASSWORD' })).content[0]?.text, secrets.passwordInput);
    assert.equal((await runTool(STDIO, 'env', { name: 'GREETING' })).content[0]?.text, secrets.envPlainName);

    // A form with secret-like fields, answered; the fixture returns the answer as its tool result.
    const answers = {
      db_password: secrets.dbPassword,
      apiToken: secrets.apiToken,
      client_secret: secrets.clientSecret,
      passphrase: secrets.passphrase,
      pin: secrets.pin,
      nickname: visible.nickname,
    };
    const answering = s.hooks.presenter.intercept('presentForm', () => () => Promise.resolve({ action: 'accept', content: answers }));
    const consenting = s.hooks.presenter.intercept('presentUrl', () => () => Promise.resolve({ action: 'decline' }));
    try {
      // A url-mode request: its URL is on the wire, query and fragment included.
      await runTool(STDIO, 'elicit', {
        params: {
          mode: 'url',
          message: 'Sign in for the trace test',
          url: `https://login.example.com/authorize?client_id=trace&state=${secrets.consentUrlState}#${secrets.consentUrlFragment}`,
          elicitationId: `trace-${run}`,
        },
      });
      for (const server of [STDIO, HTTP]) {
        const result = await runTool(server, 'elicit', {
          params: {
            mode: 'form',
            message: 'Credentials for the trace test',
            requestedSchema: {
              type: 'object',
              properties: Object.fromEntries(Object.keys(answers).map((k) => [k, { type: 'string' }])),
            },
          },
        });
        assert.match(result.content[0]?.text ?? '', new RegExp(visible.nickname), `${server}: the answer reached the server`);
      }
    } finally {
      answering.dispose();
      consenting.dispose();
    }

    // Free text on stderr, and a tool result with KEY=value and OAuth material returned as JSON text.
    await runTool(STDIO, 'stderr', {
      text: `${visible.stderrLine} SECRET_KEY=${secrets.stderrAssignment} Authorization: Bearer ${secrets.stderrBearer}`,
    });
    const oauth = JSON.stringify({
      access_token: secrets.accessToken,
      refresh_token: secrets.refreshToken,
      code_verifier: secrets.codeVerifier,
      token_type: 'Bearer',
    });
    for (const server of [STDIO, HTTP]) {
      await runTool(server, 'echo', { text: `DB_PASSWORD=${secrets.resultAssignment} ${oauth}` });
      await runTool(server, 'echo', { text: `${visible.echo}-${server}` });
    }

    // The file is written behind the channel: wait until the last traced message is in it.
    await waitFor(
      () => [STDIO, HTTP].every((n) => logText().includes(`${visible.echo}-${n}`)) && logText().includes(visible.stderrLine),
      'the traffic in the log file',
      30_000,
    );
    const log = logText();
    // The log really is at Trace and saw the traffic: wire messages both ways, for both servers.
    for (const n of [STDIO, HTTP]) {
      const own = serverLog(n);
      assert.ok(own.includes('[trace] → ') && own.includes('[trace] ← '), `${n}'s wire messages are traced in its own log`);
    }
    assert.ok(log.includes(visible.nickname), 'the answers were traced (the plain field shows)');
    assert.ok(log.includes('https://login.example.com/authorize'), 'the url-mode URL was traced (without its query)');
    const found = Object.entries(secrets).filter(([, v]) => log.includes(v));
    const context = found.map(([k, v]) => {
      const i = log.indexOf(v);
      return `${k}: …${log.slice(Math.max(0, i - 120), i + v.length + 40)}…`;
    });
    assert.deepEqual(
      found.map(([k]) => k),
      [],
      `secrets in the log:\n${context.join('\n')}`,
    );
  });
});
