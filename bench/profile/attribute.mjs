#!/usr/bin/env node
// Reads a V8 CPU profile (bench/profile/clientCall.ts --profile, or node --cpu-prof) and prints self
// time by module group and by function: where one relayed call's CPU goes. Usage:
//   node bench/profile/attribute.mjs <file.cpuprofile> [--calls N] [--top 40]
// The profiler samples wall time on this thread: time the thread spent descheduled inside a call
// (a `writev` that woke the server on a busy machine) is counted too, so compare shares, and take
// CPU figures from clientCall.ts's process.cpuUsage() instead.
import { readFileSync } from 'node:fs';

/**
 * @typedef {{ functionName: string; url: string; lineNumber: number }} CallFrame
 * @typedef {{ id: number; callFrame: CallFrame; children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }} Profile
 */

const file = process.argv[2];
if (!file) throw new Error('usage: attribute.mjs <file.cpuprofile> [--calls N] [--top N]');
const opt = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const calls = opt('calls', 0);
const top = opt('top', 40);

const raw = /** @type {unknown} */ (JSON.parse(readFileSync(file, 'utf8')));
const profile = /** @type {Profile} */ (raw);
/** @type {Map<number, ProfileNode>} */
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
/** Self microseconds per node id. @type {Map<number, number>} */
const self = new Map();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

/** The group a frame's code belongs to. */
function group(/** @type {string} */ url, /** @type {string} */ fn) {
  if (fn === 'writev' || fn === 'writeBuffer' || fn === 'writeUtf8String') return 'socket write (syscall)';
  if (!url) return fn === '(garbage collector)' ? 'gc' : fn === '(idle)' || fn === '(program)' ? fn : 'native/builtin';
  if (url.includes('/src/')) return 'ours (src/)';
  if (url.includes('@modelcontextprotocol/')) return 'MCP SDK';
  if (url.includes('/zod/')) return 'zod';
  if (url.includes('/ajv')) return 'ajv';
  if (url.includes('eventsource-parser')) return 'eventsource-parser';
  if (url.includes('/tsx/') || url.includes('esbuild')) return 'tsx loader';
  if (url.startsWith('node:internal/webstreams') || url.includes('internal/deps/undici')) return 'node web streams, Response/Headers';
  if (url.startsWith('node:_http') || url.startsWith('node:net') || url.startsWith('node:internal/streams')) return 'node http/net/streams';
  if (url.startsWith('node:')) return 'node other';
  if (url.includes('node_modules')) return 'other node_modules';
  return 'other';
}

/** @type {Map<string, number>} */
const groups = new Map();
/** @type {Map<string, number>} */
const fns = new Map();
let total = 0;
for (const [id, us] of self) {
  const n = byId.get(id);
  if (!n) continue;
  const { functionName, url, lineNumber } = n.callFrame;
  const g = group(url, functionName);
  if (g === '(idle)') continue;
  total += us;
  groups.set(g, (groups.get(g) ?? 0) + us);
  const short = url.replace(/^.*node_modules\//, '').replace(/^.*\/src\//, 'src/');
  const key = `${functionName || '(anonymous)'}  ${short}:${lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
}
const per = (/** @type {number} */ us) => (calls ? `${(us / 1000 / calls).toFixed(3)} ms/call` : '');
const pct = (/** @type {number} */ us) => `${((100 * us) / total).toFixed(1)}%`.padStart(6);
console.log(`non-idle self time ${(total / 1000).toFixed(0)} ms ${per(total)}`);
console.log('\nby group:');
for (const [g, us] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`${pct(us)}  ${per(us).padStart(16)}  ${g}`);
console.log(`\ntop ${top} functions by self time:`);
for (const [k, us] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${per(us).padStart(16)}  ${k}`);
