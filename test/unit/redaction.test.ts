import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { envSecrets, redactSecrets, redactUrls } from '../../src/util/redact';
import { inputStorageKey } from '../../src/config/parse/inputKey';

describe('the log never shows a secret, at any level', () => {
  it('a secret passed as a command-line flag is redacted on the logged command line; other flags stay', () => {
    const line = redactSecrets(
      'command line: npx server --api-key sk-live-123 --password=hunter22 -t tok-9 --port 8080 --verbose (in /w)',
      [],
    );
    for (const secret of ['sk-live-123', 'hunter22']) assert.ok(!line.includes(secret), `${secret} in ${line}`);
    assert.ok(line.includes('--port 8080'), line);
    assert.ok(line.includes('--verbose (in /w)'), line);
    assert.ok(line.includes('-t tok-9'), 'a one-letter flag names nothing, so it stays');
  });

  it('answers to secret-like fields are redacted in a traced reply and in an MRTR retry, by the form rule', () => {
    const reply = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      result: {
        action: 'accept',
        content: { db_password: 'pw-1', apiToken: 'tok-2', client_secret: 'cs-3', passphrase: 'pp-4', pin: 1234, user: 'alice' },
      },
    });
    const retry = JSON.stringify({
      method: 'tools/call',
      params: { name: 'login', inputResponses: { r1: { action: 'accept', content: { db_password: 'pw-1', note: 'fine' } } } },
    });
    for (const line of [redactSecrets(reply, []), redactSecrets(retry, [])]) {
      for (const secret of ['pw-1', 'tok-2', 'cs-3', 'pp-4', '1234']) assert.ok(!line.includes(secret), `${secret} in ${line}`);
    }
    assert.ok(redactSecrets(reply, []).includes('"user":"alice"'), 'other answers stay readable');
    assert.ok(redactSecrets(retry, []).includes('"note":"fine"'));
  });

  it('a schema that names a secret field keeps its shape; a progress token and error codes stay', () => {
    const request = JSON.stringify({
      id: 1,
      method: 'elicitation/create',
      params: { _meta: { progressToken: 7 }, requestedSchema: { properties: { password: { type: 'string', title: 'Password' } } } },
    });
    const out = redactSecrets(request, []);
    assert.ok(out.includes('"type":"string"') && out.includes('"progressToken":7'), out);
    assert.ok(redactSecrets('{"error":{"code":-32602,"message":"bad"}}', []).includes('"code":-32602'));
  });

  it('header values, env maps and OAuth material are redacted', () => {
    const line = JSON.stringify({
      headers: { Authorization: 'Bearer abc.def.ghi' },
      env: { GH: 'ghp_123456' },
      access_token: 'at-1',
      refresh_token: 'rt-2',
      id_token: 'it-3',
      code_verifier: 'cv-4',
    });
    const out = redactSecrets(line, []);
    for (const secret of ['abc.def.ghi', 'ghp_123456', 'at-1', 'rt-2', 'it-3', 'cv-4']) {
      assert.ok(!out.includes(secret), `${secret} in ${out}`);
    }
    assert.equal(redactSecrets('stderr: sent Authorization: Bearer abcdef123456', []), 'stderr: sent Authorization: Bearer [redacted]');
    assert.equal(redactSecrets('stderr: API_KEY=sk-live-1 PORT=8080', []), 'stderr: API_KEY=[redacted] PORT=8080');
  });

  it('registered values (password inputs, header and env values, secret answers) go wherever they appear, JSON-escaped too', () => {
    assert.equal(redactSecrets('echo: s3cr3t"value and "s3cr3t\\"value"', ['s3cr3t"value']), 'echo: [redacted] and "[redacted]"');
  });

  it('env values: secret-looking names always, other values only when long enough to be a credential', () => {
    assert.deepEqual(envSecrets({ DB_PASSWORD: 'abcd', DEBUG: 'true', GH: 'ghp_0123456789', LEVEL: 'info' }).sort(), [
      'abcd',
      'ghp_0123456789',
    ]);
  });

  it('JSON a tool returns as text, and objects inside lists, are looked into (OAuth material in a tool result)', () => {
    const text = JSON.stringify({
      access_token: 'at-secret-1',
      refresh_token: 'rt-secret-2',
      user: 'alice',
      nested: JSON.stringify({ client_secret: 'cs-secret-3', plan: 'pro' }),
    });
    const traced = redactSecrets(
      JSON.stringify({ jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text }], items: [{ password: 'pw-secret-4' }] } }),
      [],
    );
    for (const secret of ['at-secret-1', 'rt-secret-2', 'cs-secret-3', 'pw-secret-4']) {
      assert.ok(!traced.includes(secret), `${secret}: ${traced}`);
    }
    // The rest stays readable, and still decodes to the same shape.
    const decoded = JSON.parse(traced) as { result: { content: { text: string }[] } };
    const inner = JSON.parse(decoded.result.content[0]?.text ?? '{}') as Record<string, string>;
    assert.equal(inner['user'], 'alice');
    assert.equal(inner['access_token'], '[redacted]');
    assert.equal((JSON.parse(inner['nested'] ?? '{}') as Record<string, string>)['plan'], 'pro');
    // Text that is no JSON is left as it was; a list of plain strings too.
    const plain = JSON.stringify({ content: [{ type: 'text', text: 'He said "hi" {not json' }], tags: ['a', 'b'] });
    assert.equal(redactSecrets(plain, []), plain);
  });

  it('query strings and fragments of URLs never reach the log', () => {
    assert.equal(redactUrls('open https://auth.example/cb?code=abc&state=x#frag now'), 'open https://auth.example/cb?[redacted] now');
    assert.equal(redactSecrets('{"url":"https://h.example/p?token=1#t"}', []), '{"url":"https://h.example/p?[redacted]"}');
    assert.equal(redactUrls('plain https://h.example/path stays'), 'plain https://h.example/path stays');
  });

  it('the password in a URL never reaches the log, nor a token used as its user name (issue 41)', () => {
    assert.equal(
      redactSecrets('connecting to postgres://user:pass@db.internal:5432/app', []),
      'connecting to postgres://user:[redacted]@db.internal:5432/app',
    );
    assert.equal(redactUrls('redis://:s3cr3t@cache:6379'), 'redis://:[redacted]@cache:6379');
    // An unescaped @ in the password: the authority ends at its last one.
    assert.equal(redactUrls('mongodb://admin:p@ss@h.example/db'), 'mongodb://admin:[redacted]@h.example/db');
    assert.equal(redactUrls('git clone https://ghp_0123456789abcdefABCD@github.com/o/r'), 'git clone https://[redacted]@github.com/o/r');
    assert.equal(redactUrls('ssh://git@github.com/o/r and https://h.example/a@b'), 'ssh://git@github.com/o/r and https://h.example/a@b');
    const logged = JSON.stringify({ url: 'postgres://u:hunter22@h/db?sslmode=require' });
    assert.equal(redactSecrets(logged, []), '{"url":"postgres://u:[redacted]@h/db?[redacted]"}');
  });

  it('KEY=value and key: value under the names people use are redacted (issue 41)', () => {
    const line = redactSecrets(
      'DB_PASS=p-1 PGPASSWORD=p-2 DATABASE_URL=p-3 SESSION_TOKEN=p-4 mfa_code=p-5 Passwort=p-6 cookie: p-7 max_tokens=512',
      [],
    );
    for (let i = 1; i <= 7; i++) assert.ok(!line.includes(`p-${i}`), `p-${i} in ${line}`);
    assert.ok(line.includes('max_tokens=512'), line);
  });

  it('a backslash in a query does not end it: what follows is redacted too, and a JSON string still ends at its quote', () => {
    assert.equal(redactUrls(String.raw`GET https://h.example/p?k=a\b&token=SECRET done`), 'GET https://h.example/p?[redacted] done');
    assert.equal(redactUrls(String.raw`GET https://h.example/p?k=a&token=SECRET done`), 'GET https://h.example/p?[redacted] done');
    // As the log writes it: a JSON string, its backslashes escaped, closed by \" inside another string.
    const logged = JSON.stringify({ line: JSON.stringify({ url: 'https://h.example/p?k=a\\b&token=SECRET' }) });
    const out = redactSecrets(logged, []);
    assert.ok(!out.includes('SECRET'), out);
    assert.deepEqual(JSON.parse((JSON.parse(out) as { line: string }).line), { url: 'https://h.example/p?[redacted]' });
  });
});

describe('${input:…} storage keys', () => {
  const D = '["remote","https://api.example.com/mcp"]';
  const file = (folder: string) => ({ kind: 'workspaceFile' as const, file: `${folder}/.vscode/mcp.json`, folder });
  it('differ between workspaces, folders and server definitions declaring the same id', () => {
    const a = inputStorageKey('tok', {
      workspace: 'file:///ws-a',
      server: 's',
      destination: D,
      source: { kind: 'setting', scope: 'workspace' },
    });
    const b = inputStorageKey('tok', {
      workspace: 'file:///ws-b',
      server: 's',
      destination: D,
      source: { kind: 'setting', scope: 'workspace' },
    });
    const c = inputStorageKey('tok', { workspace: 'file:///ws-a', server: 's', destination: D, source: file('/repo-1') });
    const d = inputStorageKey('tok', { workspace: 'file:///ws-a', server: 's', destination: D, source: file('/repo-2') });
    const e = inputStorageKey('tok', { workspace: 'file:///ws-a', server: 'other', destination: D, source: file('/repo-1') });
    assert.equal(new Set([a, b, c, d, e]).size, 5);
    assert.notEqual(a, 'mcpElicitation.input.tok', 'the old global key is never used');
  });
  it('differ when the definition of that name points elsewhere: another URL, or another command or arguments (issue 41)', () => {
    const owner = { workspace: 'file:///ws-a', server: 's', source: file('/repo-1') };
    const keys = [
      '["remote","https://api.example.com/mcp"]',
      '["remote","https://proxy.example.net/mcp"]',
      '["stdio","npx",["-y","server"]]',
      '["stdio","npx",["-y","other-server"]]',
      '["stdio","./evil.sh",["-y","server"]]',
    ].map((destination) => inputStorageKey('tok', { ...owner, destination }));
    assert.equal(new Set(keys).size, keys.length);
  });
  it('are stable for the same owner', () => {
    const owner = { workspace: 'file:///ws', server: 's', destination: D, source: { kind: 'setting' as const, scope: 'user' as const } };
    assert.equal(inputStorageKey('tok', owner), inputStorageKey('tok', owner));
  });
});
