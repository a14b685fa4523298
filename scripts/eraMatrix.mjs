#!/usr/bin/env node
// Issue 40's evidence: which way of asking reaches the client on which protocol revision. For every
// server in scripts/lib/eraServers.mjs (FastMCP 4, the official Python SDK, the TypeScript SDK v2,
// server-everything) and the conformance suite's MRTR and elicitation scenario servers, it connects
// `@modelcontextprotocol/client` 2.4.0 with each `versionNegotiation` mode (legacy = 2025-11-25, pin
// 2026-07-28, auto), over stdio and over Streamable HTTP where the server offers it, calls each tool
// that asks with a handler that accepts with valid content (2026-07-28 rounds answered by the SDK
// through that handler: `inputRequired: { autoFulfill: true }`), and records whether the question
// reached the handler, whether the call succeeded, and the exact error otherwise.
//   node scripts/eraMatrix.mjs [--only <server id>] [--json <file>]
// Prints a Markdown table. Needs the Python venv (`node scripts/provision.mjs`, or provisionPython).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { repoRoot } from './hostPaths.mjs';
import { provisionNode, provisionPython } from './provision.mjs';
import { answerFor } from './lib/eraAnswers.mjs';
import { ERA_SERVERS, startHttp } from './lib/eraServers.mjs';
import { parseJson } from './lib/json.mjs';

/** @typedef {'legacy' | 'pin' | 'auto'} Mode */
/** @typedef {{ tool: string, reached: boolean, ok: boolean, via?: 'jsonrpc' | 'tool' | 'connect', code?: number | string, error?: string }} Call */
/** @typedef {{ server: string, style: string, transport: string, mode: Mode, negotiated?: string, calls: Call[] }} Cell */

/** @type {Mode[]} */
export const MODES = ['legacy', 'pin', 'auto'];
const CONFORMANCE_CLI = path.join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const CONFORMANCE_SCENARIOS = ['sep-2322-client-request-state', 'elicitation-sep1034-client-defaults'];
const SELF = fileURLToPath(import.meta.url);

/** @param {Mode} mode */
const negotiation = (mode) => ({ mode: mode === 'pin' ? { pin: '2026-07-28' } : mode });

/** @param {unknown} e */
function errorOf(e) {
  const err = /** @type {{ code?: number | string, message?: string }} */ (e);
  return { ...(err.code !== undefined ? { code: err.code } : {}), error: String(err.message ?? e) };
}

/**
 * A client as the extension's own would ask: elicitation (form) declared, every question accepted.
 * @param {Mode} mode @param {{ reached: boolean }} seen
 */
export function matrixClient(mode, seen) {
  const client = new Client(
    { name: 'era-matrix', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: negotiation(mode), inputRequired: { autoFulfill: true } },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    seen.reached = true;
    const params = /** @type {{ requestedSchema?: unknown }} */ (request.params);
    const content = /** @type {Record<string, string | number | boolean | string[]>} */ (answerFor(params.requestedSchema));
    return Promise.resolve({ action: /** @type {const} */ ('accept'), content });
  });
  return client;
}

/**
 * @param {Client} client
 * @param {{ name: string, arguments?: Record<string, unknown> }} tool
 * @param {{ reached: boolean }} seen
 * @returns {Promise<Call>}
 */
export async function callOne(client, tool, seen) {
  seen.reached = false;
  try {
    const r = await client.callTool({ name: tool.name, arguments: tool.arguments ?? {} }, { timeout: 20_000 });
    const text = (r.content ?? []).map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join(' ');
    return r.isError
      ? { tool: tool.name, reached: seen.reached, ok: false, via: 'tool', error: text }
      : { tool: tool.name, reached: seen.reached, ok: true };
  } catch (e) {
    return { tool: tool.name, reached: seen.reached, ok: false, via: 'jsonrpc', ...errorOf(e) };
  }
}

/**
 * One connection: connect in `mode`, call each asking tool, close.
 * @param {() => import('@modelcontextprotocol/client').Transport} transport
 * @param {Mode} mode
 * @param {{ name: string, arguments?: Record<string, unknown> }[] | undefined} tools undefined: every listed tool
 * @returns {Promise<{ negotiated?: string, calls: Call[] }>}
 */
export async function runConnection(transport, mode, tools) {
  const seen = { reached: false };
  const client = matrixClient(mode, seen);
  try {
    await client.connect(transport(), { timeout: 20_000 });
  } catch (e) {
    await client.close().catch(() => undefined);
    return { calls: [{ tool: '(connect)', reached: false, ok: false, via: 'connect', ...errorOf(e) }] };
  }
  const negotiated = client.getNegotiatedProtocolVersion();
  const list = tools ?? (await client.listTools()).tools.map((t) => ({ name: t.name }));
  /** @type {Call[]} */
  const calls = [];
  for (const t of list) calls.push(await callOne(client, t, seen));
  await client.close().catch(() => undefined);
  return { ...(negotiated ? { negotiated } : {}), calls };
}

/** @param {string | undefined} only @returns {Promise<Cell[]>} */
async function frameworkCells(only) {
  /** @type {Cell[]} */
  const cells = [];
  for (const s of ERA_SERVERS.filter((x) => !only || x.id === only)) {
    const stdio = s.stdio;
    if (stdio) {
      for (const mode of MODES) {
        const r = await runConnection(() => new StdioClientTransport({ ...stdio, stderr: 'ignore' }), mode, s.tools);
        cells.push({ server: s.id, style: s.style, transport: 'stdio', mode, ...r });
        process.stderr.write(`${s.id} stdio ${mode}: ${r.negotiated ?? 'no connection'}\n`);
      }
    }
    if (s.http) {
      const { url, child } = await startHttp(s.http);
      try {
        for (const mode of MODES) {
          const r = await runConnection(() => new StreamableHTTPClientTransport(new URL(url)), mode, s.tools);
          cells.push({ server: s.id, style: s.style, transport: 'http', mode, ...r });
          process.stderr.write(`${s.id} http ${mode}: ${r.negotiated ?? 'no connection'}\n`);
        }
      } finally {
        child.kill();
      }
    }
  }
  return cells;
}

/**
 * The conformance suite's scenario servers only run under its own runner: it starts the scenario,
 * then runs this script (`--conformance-client`) with the server's URL, once per mode.
 * @param {string} node Node 24 (the suite's 0.2 alphas need Node >= 22)
 * @returns {Promise<Cell[]>}
 */
async function conformanceCells(node) {
  /** @type {Cell[]} */
  const cells = [];
  for (const scenario of CONFORMANCE_SCENARIOS) {
    for (const mode of MODES) {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'era-matrix-'));
      const out = path.join(dir, 'result.json');
      const args = [CONFORMANCE_CLI, 'client', '--command', `'${node}' '${SELF}' --conformance-client`, '--scenario', scenario];
      args.push('--timeout', '30000', '-o', dir);
      await new Promise((resolve) => {
        const child = spawn(node, args, {
          cwd: repoRoot,
          stdio: 'ignore',
          env: { ...process.env, ERA_MATRIX_MODE: mode, ERA_MATRIX_OUT: out },
        });
        child.on('close', resolve);
      });
      /** @type {{ negotiated?: string, calls: Call[] }} */
      let r;
      try {
        r = /** @type {{ negotiated?: string, calls: Call[] }} */ (parseJson(readFileSync(out, 'utf8')));
      } catch {
        r = { calls: [{ tool: '(run)', reached: false, ok: false, error: 'the suite did not run the client' }] };
      }
      rmSync(dir, { recursive: true, force: true });
      cells.push({ server: `conformance ${scenario}`, style: 'scenario server', transport: 'http', mode, ...r });
      process.stderr.write(`conformance ${scenario} ${mode}: ${r.negotiated ?? 'no connection'}\n`);
    }
  }
  return cells;
}

/** @param {string} s */
const cell = (s) => s.replace(/\|/g, '\\|').replace(/\s+/g, ' ');

/** @param {Cell[]} cells */
export function table(cells) {
  const rows = [
    '| server | style | transport | mode → negotiated | tool | question reached handler | result |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of cells) {
    for (const k of c.calls) {
      const result = k.ok ? 'ok' : `**${k.via ?? 'error'}${k.code !== undefined ? ` ${k.code}` : ''}**: ${cell(k.error ?? '')}`;
      rows.push(
        `| ${c.server} | ${cell(c.style)} | ${c.transport} | ${c.mode} → ${c.negotiated ?? '—'} | ${k.tool} | ${k.reached ? 'yes' : 'no'} | ${result} |`,
      );
    }
  }
  return rows.join('\n');
}

async function conformanceClient() {
  const url = process.argv[process.argv.length - 1] ?? '';
  const mode = /** @type {Mode} */ (process.env['ERA_MATRIX_MODE'] ?? 'auto');
  const r = await runConnection(() => new StreamableHTTPClientTransport(new URL(url)), mode, undefined);
  writeFileSync(process.env['ERA_MATRIX_OUT'] ?? path.join(os.tmpdir(), 'era-matrix.json'), JSON.stringify(r));
}

async function main() {
  const argv = process.argv.slice(2);
  const at = (/** @type {string} */ flag) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  provisionPython();
  const only = at('--only');
  const cells = await frameworkCells(only);
  if (!only || only === 'conformance') cells.push(...(await conformanceCells(provisionNode().node)));
  const json = at('--json');
  if (json) writeFileSync(json, JSON.stringify(cells, null, 2));
  process.stdout.write(`${table(cells)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const run = process.argv.includes('--conformance-client') ? conformanceClient : main;
  run().then(
    () => process.exit(0),
    (/** @type {unknown} */ err) => {
      process.stderr.write(`era matrix: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
