#!/usr/bin/env node
// Issue 40: can a client probe the revision in place, on the server's real process (or endpoint),
// instead of the SDK's sibling spawn? For each server of scripts/lib/eraServers.mjs (and a 2025-only
// SDK v1 server), raw JSON-RPC, no SDK in between:
//   stdio A: `server/discover` (as the v2 client sends it), then on the same process `initialize`
//            (2025-11-25), `tools/list`, a tool that asks (its `elicitation/create` answered), and a
//            `tools/call` carrying the 2026-07-28 `_meta` on that 2025 session;
//   stdio B: `initialize` first (what a 2026-only server says, and whether it stays alive), then
//            `server/discover` on the same process;
//   http:    POST `server/discover` with the 2026-07-28 headers, then POST `initialize`, then
//            `tools/list` on the session it opened.
//   node scripts/eraProbe.mjs [--only <server id>] [--json <file>]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { provisionPython } from './provision.mjs';
import { answerFor } from './lib/eraAnswers.mjs';
import { ERA_SERVERS, SDK_V1_SERVER, startHttp } from './lib/eraServers.mjs';
import { parseJson } from './lib/json.mjs';

const MODERN = '2026-07-28';
const CLIENT_INFO = { name: 'era-probe', version: '1.0.0' };
const CAPS = { elicitation: { form: {} } };
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
  'io.modelcontextprotocol/clientCapabilities': CAPS,
};
const DISCOVER = { jsonrpc: '2.0', id: 'probe-1', method: 'server/discover', params: { _meta: MODERN_META } };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init-1',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: CAPS, clientInfo: CLIENT_INFO },
};
const MODERN_LIST = { jsonrpc: '2.0', id: 'list-2', method: 'tools/list', params: { _meta: MODERN_META } };
/** The tool each server's 2025 session is asked to run (its imperative one where it has one). */
const ASK = /** @type {Record<string, string>} */ ({
  'fastmcp-imperative': 'ask_text',
  'fastmcp-mrtr': 'mrtr_text',
  'fastmcp-mixed': 'ask_imperative',
  'pysdk-imperative': 'confirm',
  'pysdk-resolver': 'book',
  'ts-v2-dual': 'ask_imperative',
  'ts-v2-modern': 'ask_imperative',
  'server-everything': 'trigger-elicitation-request',
});

/** @typedef {{ id?: unknown, method?: string, params?: { requestedSchema?: unknown }, result?: Record<string, unknown>, error?: { code: number, message: string, data?: unknown } }} Msg */

/** What one answer says, in one line. @param {Msg | undefined} m @param {(r: Record<string, unknown>) => string} [ok] */
function summary(m, ok = () => 'ok') {
  if (!m) return 'no answer (3 s)';
  if (m.error) {
    return `error ${m.error.code}: ${m.error.message}${m.error.data !== undefined ? ` (data ${JSON.stringify(m.error.data)})` : ''}`;
  }
  return m.result ? ok(m.result) : JSON.stringify(m);
}

/** A server process spoken to one JSON line at a time; every `elicitation/create` it sends is accepted. */
class RawStdio {
  /** @param {import('./lib/eraServers.mjs').Launch} launch */
  constructor(launch) {
    this.child = spawn(launch.command, launch.args, { env: { ...process.env, ...launch.env }, stdio: ['pipe', 'pipe', 'ignore'] });
    /** @type {Msg[]} */
    this.inbox = [];
    /** @type {(() => void)[]} */
    this.wake = [];
    this.asked = 0;
    let buf = '';
    this.child.stdout.on('data', (/** @type {Buffer} */ d) => {
      buf += String(d);
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl).trim();
        buf = buf.slice(nl + 1);
        if (line) this.receive(line);
      }
    });
    this.child.stdin.on('error', () => undefined);
  }
  /** @param {string} line */
  receive(line) {
    /** @type {Msg} */
    let m;
    try {
      m = /** @type {Msg} */ (parseJson(line));
    } catch {
      m = { method: `(not JSON: ${line.slice(0, 80)})` };
    }
    if (m.method === 'elicitation/create' && m.id !== undefined) {
      this.asked++;
      this.send({ jsonrpc: '2.0', id: m.id, result: { action: 'accept', content: answerFor(m.params?.requestedSchema) } });
      return;
    }
    this.inbox.push(m);
    for (const w of this.wake.splice(0)) w();
  }
  /** @param {unknown} msg */
  send(msg) {
    if (this.alive()) this.child.stdin.write(`${JSON.stringify(msg)}\n`);
  }
  alive() {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
  /** The answer to request `id`, or undefined after `ms`. @param {unknown} id @param {number} [ms] @returns {Promise<Msg | undefined>} */
  async answer(id, ms = 3000) {
    const end = Date.now() + ms;
    for (;;) {
      const i = this.inbox.findIndex((m) => m.id === id && m.method === undefined);
      if (i >= 0) return this.inbox.splice(i, 1)[0];
      const left = end - Date.now();
      if (left <= 0 || !this.alive()) return undefined;
      await new Promise((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 200));
        this.wake.push(() => {
          clearTimeout(t);
          resolve(undefined);
        });
      });
    }
  }
  /** @param {unknown} msg @param {number} [ms] */
  async request(msg, ms) {
    this.send(msg);
    return this.answer(/** @type {{ id: unknown }} */ (msg).id, ms);
  }
  close() {
    this.child.kill();
  }
}

/** @param {Record<string, unknown>} r */
const versions = (r) => `supportedVersions ${JSON.stringify(r['supportedVersions'])}`;
/** @param {Record<string, unknown>} r */
const initialized = (r) => `protocolVersion ${String(r['protocolVersion'])}`;
/** @param {Record<string, unknown>} r */
const toolResult = (r) => {
  const content = /** @type {{ text?: string }[] | undefined} */ (r['content']);
  return `${r['isError'] ? 'isError: ' : 'ok: '}${(content ?? []).map((c) => c.text ?? '').join(' ')}`.slice(0, 300);
};

/** @param {Record<string, unknown>} r */
const listed = (r) => `${/** @type {unknown[]} */ (r['tools']).length} tools`;

/** @param {import('./lib/eraServers.mjs').EraServer} s */
async function stdioA(s) {
  const p = new RawStdio(/** @type {import('./lib/eraServers.mjs').Launch} */ (s.stdio));
  /** @type {Record<string, string>} */
  const out = {};
  try {
    out['discover'] = summary(await p.request(DISCOVER, 5000), versions);
    out['alive after discover'] = String(p.alive());
    const init = await p.request(INITIALIZE, 5000);
    out['initialize after discover'] = summary(init, initialized);
    out['alive after initialize'] = String(p.alive());
    if (init?.result) {
      p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const list = await p.request({ jsonrpc: '2.0', id: 'list-1', method: 'tools/list', params: {} });
      out['tools/list'] = summary(list, listed);
      const tool = ASK[s.id];
      if (tool) {
        const call = await p.request({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { name: tool, arguments: {} } }, 15_000);
        out[`tools/call ${tool}`] = `${summary(call, toolResult)}; elicitation/create received: ${p.asked}`;
        const modern = { jsonrpc: '2.0', id: 'call-2', method: 'tools/call', params: { name: tool, arguments: {}, _meta: MODERN_META } };
        out[`tools/call ${tool} with 2026 _meta on the 2025 session`] = summary(await p.request(modern, 15_000), toolResult);
      }
    }
    if (init?.error) out['modern tools/list after the refused initialize'] = summary(await p.request(MODERN_LIST), listed);
    out['alive at end'] = String(p.alive());
  } finally {
    p.close();
  }
  return out;
}

/** @param {import('./lib/eraServers.mjs').EraServer} s */
async function stdioB(s) {
  const p = new RawStdio(/** @type {import('./lib/eraServers.mjs').Launch} */ (s.stdio));
  /** @type {Record<string, string>} */
  const out = {};
  try {
    const init = await p.request(INITIALIZE, 5000);
    out['initialize first'] = summary(init, initialized);
    out['alive after initialize'] = String(p.alive());
    const tool = ASK[s.id];
    if (init?.result && tool) {
      p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      const modern = { jsonrpc: '2.0', id: 'call-2', method: 'tools/call', params: { name: tool, arguments: {}, _meta: MODERN_META } };
      out[`tools/call ${tool} with 2026 _meta on the 2025 session`] = summary(await p.request(modern, 15_000), toolResult);
    }
    out['discover after initialize'] = summary(await p.request(DISCOVER, 5000), versions);
    if (init?.error) out['modern tools/list after that'] = summary(await p.request(MODERN_LIST), listed);
    out['alive at end'] = String(p.alive());
  } finally {
    p.close();
  }
  return out;
}

/**
 * One POST, its status and JSON-RPC answer (from a JSON body or the first `data:` of an event stream).
 * @param {string} url @param {Record<string, unknown>} body @param {Record<string, string>} headers
 */
async function post(url, body, headers) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });
  const text = await res.text().catch((/** @type {unknown} */ e) => `(body: ${String(e)})`);
  const data = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .find((l) => l.startsWith('data:') && l.length > 6)
        ?.slice(5)
    : text;
  /** @type {Msg | undefined} */
  let msg;
  try {
    msg = data ? /** @type {Msg} */ (parseJson(data)) : undefined;
  } catch {
    msg = undefined;
  }
  return { status: res.status, session: res.headers.get('mcp-session-id'), msg, raw: text.slice(0, 200) };
}

/** @param {import('./lib/eraServers.mjs').EraServer} s */
async function httpProbe(s) {
  const { url, child } = await startHttp(/** @type {NonNullable<import('./lib/eraServers.mjs').EraServer['http']>} */ (s.http));
  /** @type {Record<string, string>} */
  const out = {};
  try {
    const d = await post(url, DISCOVER, { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' });
    out['POST discover'] = `HTTP ${d.status}: ${d.msg ? summary(d.msg, versions) : d.raw}`;
    const i = await post(url, INITIALIZE, {});
    out['POST initialize'] =
      `HTTP ${i.status}, Mcp-Session-Id ${i.session ? 'set' : 'none'}: ${i.msg ? summary(i.msg, initialized) : i.raw}`;
    if (i.msg?.result) {
      const version = String(i.msg.result['protocolVersion']);
      const h = { 'mcp-protocol-version': version, ...(i.session ? { 'mcp-session-id': i.session } : {}) };
      await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, h).catch(() => undefined);
      const l = await post(url, { jsonrpc: '2.0', id: 'list-1', method: 'tools/list', params: {} }, h);
      out['POST tools/list on that session'] = `HTTP ${l.status}: ${l.msg ? summary(l.msg, listed) : l.raw}`;
      const m = await post(url, { ...MODERN_LIST, id: 'list-3' }, h);
      out['POST tools/list with 2026 _meta on that session'] = `HTTP ${m.status}: ${m.msg ? summary(m.msg, listed) : m.raw}`;
    }
  } finally {
    child.kill();
  }
  return out;
}

async function main() {
  const argv = process.argv.slice(2);
  const at = (/** @type {string} */ flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  provisionPython();
  const only = at('--only');
  /** @type {Record<string, Record<string, Record<string, string>>>} */
  const report = {};
  for (const s of [...ERA_SERVERS, SDK_V1_SERVER].filter((x) => !only || x.id === only)) {
    report[s.id] = {};
    const r = /** @type {Record<string, Record<string, string>>} */ (report[s.id]);
    if (s.stdio) {
      r['stdio A (discover, then initialize)'] = await stdioA(s);
      r['stdio B (initialize, then discover)'] = await stdioB(s);
    }
    if (s.http) r['http'] = await httpProbe(s);
    process.stderr.write(`probed ${s.id}\n`);
  }
  const json = at('--json');
  if (json) writeFileSync(json, JSON.stringify(report, null, 2));
  for (const [id, parts] of Object.entries(report)) {
    process.stdout.write(`\n### ${id}\n`);
    for (const [part, lines] of Object.entries(parts)) {
      process.stdout.write(`- ${part}\n`);
      for (const [k, v] of Object.entries(lines)) process.stdout.write(`  - ${k}: ${v.replace(/\s+/g, ' ')}\n`);
    }
  }
}

main().then(
  () => process.exit(0),
  (/** @type {unknown} */ err) => {
    process.stderr.write(`era probe: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
