// The table rows of `npm run bench` that carry a latency or activation verdict, computed from the
// raw samples the hosts post. Each verdict is decided on a 95 % bootstrap interval
// (stats.mjs bootstrapInterval), not on one median: ✓ when the whole interval meets the target,
// ✗ when none of it does, ? when the target lies inside it.
import { bootstrapInterval, fmt, fmtInterval, median, summarise, verdictAtMost } from './stats.mjs';

/** @typedef {import('../host/latency').Sample} Sample */
/** @typedef {import('../host/latency').ImplName} ImplName */
/** @typedef {import('../host/control').PromptKind} PromptKind */
/** @typedef {import('../host/gateway').GatewayResult} GatewayResult */
/** @typedef {import('./stats.mjs').Row} Row */
/** @typedef {{ low: number, high: number, level: number }} Interval */

/** The agent gateway may add this much per tools/call, at the median. */
export const GATEWAY_ADDED_TARGET_MS = 2;
/** In front of a Streamable HTTP server VS Code could call itself, at most this much (issue 24, Bench). */
export const GATEWAY_HTTP_ADDED_TARGET_MS = 1;
/** Sampling through our path with "allow" may take at most this many times calling `vscode.lm` directly (issue 24, Bench). */
export const SAMPLING_RATIO_TARGET = 1.1;

/**
 * @param {Sample[]} samples
 * @param {ImplName} impl
 * @param {PromptKind} kind
 * @param {'ms' | 'hostMs'} [key]
 * @returns {number[]}
 */
const pick = (samples, impl, kind, key = 'ms') =>
  samples
    .filter((s) => s.impl === impl && s.kind === kind && s[key] !== undefined && Number.isFinite(s[key]))
    .map((s) => /** @type {number} */ (s[key]));

/**
 * Ours (`a`) against a reference (`b`) over several independent host runs: the ratio of the
 * medians of all samples, its 95 % interval (runs and samples resampled), and each run's own ratio.
 * @param {Sample[][]} perRun  the samples of each run
 * @param {ImplName} a
 * @param {ImplName} b
 * @param {PromptKind} kind
 * @param {number} target  the ratio must be at most this
 */
export function ratioFigure(perRun, a, b, kind, target) {
  const runs = perRun
    .map((samples) => ({ a: pick(samples, a, kind), b: pick(samples, b, kind) }))
    .filter((r) => r.a.length > 0 && r.b.length > 0);
  const ratioOf = (/** @type {{ a: number[], b: number[] }[]} */ rs) => median(rs.flatMap((r) => r.a)) / median(rs.flatMap((r) => r.b));
  const interval = runs.length ? bootstrapInterval(runs, ratioOf) : { low: NaN, high: NaN, level: 0.95 };
  const all = (/** @type {ImplName} */ impl, /** @type {'ms' | 'hostMs'} */ key) =>
    summarise(perRun.flatMap((s) => pick(s, impl, kind, key)));
  return {
    a: all(a, 'ms'),
    b: all(b, 'ms'),
    hostA: all(a, 'hostMs'),
    hostB: all(b, 'hostMs'),
    ratio: runs.length ? ratioOf(runs) : NaN,
    interval,
    runRatios: runs.map((r) => median(r.a) / median(r.b)),
    target,
    ok: verdictAtMost(interval, target),
  };
}

/** @param {ReturnType<typeof ratioFigure>} f */
const ratioText = (f) =>
  `ratio **${fmt(f.ratio, 2)}**, 95 % interval ${fmtInterval(f.interval)} (${f.runRatios.length} runs: ${f.runRatios.map((r) => fmt(r, 2)).join(', ')})`;

/**
 * The four latency rows: ours against the baseline per widget, and ours through MRTR against ours
 * pushed, each over every latency run.
 * @param {{ latency: Sample[], mrtr: Sample[] }[]} runs
 * @param {{ nativeRatio: number, webviewRatio: number, mrtrRatio: number }} targets
 */
export function latencyFigures(runs, targets) {
  /** @type {Record<string, string>} */
  const names = { inputBox: 'InputBox (1 text field)', quickPick: 'QuickPick (1 enum field)', webview: 'Webview form (6 fields)' };
  const kinds = /** @type {PromptKind[]} */ (['inputBox', 'quickPick', 'webview']);
  const latency = Object.fromEntries(
    kinds.map((kind) => [
      kind,
      ratioFigure(
        runs.map((r) => r.latency),
        'ours',
        'baseline',
        kind,
        kind === 'webview' ? targets.webviewRatio : targets.nativeRatio,
      ),
    ]),
  );
  const mrtr = ratioFigure(
    runs.map((r) => r.mrtr),
    'mrtr',
    'ours',
    'inputBox',
    targets.mrtrRatio,
  );
  /** @type {Row[]} */
  const rows = kinds.map((kind) => {
    const l = /** @type {ReturnType<typeof ratioFigure>} */ (latency[kind]);
    return {
      measure: `Prompt latency, ${names[kind]}: ours / baseline`,
      result: `${fmt(l.a.median, 1)} / ${fmt(l.b.median, 1)} ms (p95 ${fmt(l.a.p95, 1)} / ${fmt(l.b.p95, 1)}); ${ratioText(l)}`,
      target: `ratio ≤ ${l.target}`,
      ok: l.ok,
    };
  });
  rows.push({
    measure: 'Prompt latency, InputBox (1 text field), ours: MRTR `input_required` (2026-07-28) / pushed `elicitation/create` (2025)',
    result: `${fmt(mrtr.a.median, 1)} / ${fmt(mrtr.b.median, 1)} ms (p95 ${fmt(mrtr.a.p95, 1)} / ${fmt(mrtr.b.p95, 1)}; send → show() ${fmt(mrtr.hostA.median, 1)} / ${fmt(mrtr.hostB.median, 1)} ms); ${ratioText(mrtr)}`,
    target: `ratio ≤ ${mrtr.target}`,
    ok: mrtr.ok,
  });
  return { latency, mrtr, rows };
}

/**
 * Cold activation over code-server starts: the median, its 95 % interval, the verdict on it.
 * @param {number[]} coldMs  one figure per start
 * @param {number} targetMs  the median must be below this
 */
export function activationFigure(coldMs, targetMs) {
  const cold = summarise(coldMs);
  const interval = cold.n
    ? bootstrapInterval([{ ms: coldMs }], (rs) => median(rs.flatMap((r) => r.ms)))
    : { low: NaN, high: NaN, level: 0.95 };
  const ok = verdictAtMost(interval, targetMs, true);
  /** @type {Row} */
  const row = {
    measure: `Activation, cold (\`new Services\` in activate(), ${cold.n} code-server starts)`,
    result: `median **${fmt(cold.median, 1)} ms**, 95 % interval ${fmtInterval(interval, 1)} ms; min ${fmt(cold.min, 1)}, max ${fmt(cold.max, 1)} ms`,
    target: `< ${targetMs} ms`,
    ok,
  };
  return { cold, interval, ok, row };
}

/**
 * Median of `via` minus median of `base` (one run, calls interleaved), with its 95 % interval.
 * @param {number[]} via
 * @param {number[]} base
 */
function addedTime(via, base) {
  const of = (/** @type {{ via: number[], base: number[] }[]} */ rs) =>
    median(rs.flatMap((r) => r.via)) - median(rs.flatMap((r) => r.base));
  const runs = [{ via, base }];
  const v = summarise(via);
  const b = summarise(base);
  return {
    median: v.median - b.median,
    p95: v.p95 - b.p95,
    interval: via.length && base.length ? bootstrapInterval(runs, of) : { low: NaN, high: NaN, level: 0.95 },
  };
}

/**
 * The extension host's own HTTP round trip to the HTTP copy, three ways (bench/host/httpProbe.ts).
 * @param {NonNullable<GatewayResult['probe']>} probe
 * @returns {Row}
 */
function probeRow(probe) {
  const of = (/** @type {string} */ c) => summarise(probe.samples.filter((x) => x.client === c).map((x) => x.ms));
  const [viaFetch, viaHttp, viaRequest, viaSocket] = [of('fetch'), of('nodeHttp'), of('clientRequest'), of('socket')];
  return {
    measure: `Extension host → the HTTP copy, one \`tools/call\` round trip (${viaFetch.n} each, interleaved): \`fetch\` (VS Code's wrapped one, as MCP clients use) / \`node:http\` through \`http.request\` (also wrapped) / \`node:http\` through \`new ClientRequest\` (not wrapped; our loopback client) / raw socket`,
    result: `${fmt(viaFetch.median, 2)} / ${fmt(viaHttp.median, 2)} / ${fmt(viaRequest.median, 2)} / ${fmt(viaSocket.median, 2)} ms (p95 ${fmt(viaFetch.p95, 2)} / ${fmt(viaHttp.p95, 2)} / ${fmt(viaRequest.p95, 2)} / ${fmt(viaSocket.p95, 2)})`,
    target: '–',
  };
}

/**
 * The floor of a relay: VS Code reaching the HTTP copy through a raw TCP pipe (bench/lib/tcpPipe.mjs)
 * in the extension host and in a process of its own, minus calling it directly. No relay that parses
 * what it passes on can add less than its pipe, so the in-host figure is what any gateway inside the
 * extension host adds at the least, on this machine, in this run.
 * @param {GatewayResult} g
 * @returns {Row | undefined}
 */
function pipeFloorRow(g) {
  const ms = (/** @type {string} */ p) => g.calls.filter((r) => r.path === p).map((r) => r.ms);
  if (!ms('pipeHost').length || !ms('pipeProcess').length) return undefined;
  const inHost = addedTime(ms('pipeHost'), ms('http'));
  const ownProcess = addedTime(ms('pipeProcess'), ms('http'));
  const n = ms('pipeHost').length;
  return {
    measure: `Floor of a relay: VS Code calling the same HTTP process through a raw TCP pipe − calling it directly (${n} calls each, same run), the pipe in the extension host / in a process of its own`,
    result: `${fmt(inHost.median, 2)} ms [${fmtInterval(inHost.interval)}] / ${fmt(ownProcess.median, 2)} ms [${fmtInterval(ownProcess.interval)}] at the median (${fmt(median(ms('pipeHost')), 2)} / ${fmt(median(ms('pipeProcess')), 2)} / ${fmt(median(ms('http')), 2)} ms)`,
    target: '–',
  };
}

/**
 * The agent gateway rows (bench/host/gateway.ts); the two with a target decide on the interval of
 * the added time.
 * @param {GatewayResult} g
 */
export function gatewayFigures(g) {
  const of = (/** @type {{ path: string, ms: number }[]} */ rows, /** @type {string} */ p) =>
    summarise(rows.filter((r) => r.path === p).map((r) => r.ms));
  const direct = of(g.calls, 'direct');
  const overHttp = of(g.calls, 'http');
  const via = of(g.calls, 'gateway');
  const ms = (/** @type {string} */ p) => g.calls.filter((r) => r.path === p).map((r) => r.ms);
  const added = { median: via.median - direct.median, p95: via.p95 - direct.p95 };
  const addedOverHttp = addedTime(ms('gateway'), ms('http'));
  const viaToHttp = of(g.calls, 'gatewayHttp');
  const addedSameUpstream = addedTime(ms('gatewayHttp'), ms('http'));
  const listGateway = of(g.listChanged, 'gateway');
  const listDirect = of(g.listChanged, 'direct');
  /** What VS Code's HTTP client costs over its stdio client, for any server: HTTP direct − stdio direct. */
  const httpClient = { median: overHttp.median - direct.median, p95: overHttp.p95 - direct.p95 };
  // Results from before the setting existed have no transport: VS Code reached the gateway over HTTP then.
  const door =
    g.transport === 'stdio' ? 'VS Code reaching the gateway over stdio, through our relay' : 'VS Code reaching the gateway over HTTP';
  /** @type {Row[]} */
  const rows = [
    {
      measure: `Agent gateway: added time per \`tools/call\` (\`vscode.lm.invokeTool\` of \`echo\`, through the gateway to an HTTP server − VS Code calling that same server process directly, ${viaToHttp.n} calls each, one run, interleaved; ${door})`,
      result: `**${fmt(addedSameUpstream.median, 2)} ms** at the median, 95 % interval ${fmtInterval(addedSameUpstream.interval)} ms (p95 ${fmt(addedSameUpstream.p95, 2)} ms): ${fmt(viaToHttp.median, 2)} / ${fmt(overHttp.median, 2)} ms (p95 ${fmt(viaToHttp.p95, 2)} / ${fmt(overHttp.p95, 2)})`,
      target: `≤ ${GATEWAY_HTTP_ADDED_TARGET_MS} ms at the median`,
      ok: verdictAtMost(addedSameUpstream.interval, GATEWAY_HTTP_ADDED_TARGET_MS),
    },
    {
      measure: `Agent gateway: added time per \`tools/call\` (through the gateway to a stdio copy − VS Code calling an HTTP copy directly, ${overHttp.n} calls each, same run)`,
      result: `**${fmt(addedOverHttp.median, 2)} ms** at the median, 95 % interval ${fmtInterval(addedOverHttp.interval)} ms (p95 ${fmt(addedOverHttp.p95, 2)} ms): ${fmt(via.median, 2)} / ${fmt(overHttp.median, 2)} ms (p95 ${fmt(via.p95, 2)} / ${fmt(overHttp.p95, 2)})`,
      target: `< ${GATEWAY_ADDED_TARGET_MS} ms at the median`,
      ok: verdictAtMost(addedOverHttp.interval, GATEWAY_ADDED_TARGET_MS, true),
    },
    {
      // Over HTTP this crosses transports (VS Code reaches the gateway over HTTP, a stdio server over
      // stdio), so it holds VS Code's HTTP client too; over stdio it is the gateway's own share.
      measure: `Agent gateway: through the gateway to a stdio copy − VS Code running a stdio copy itself (${direct.n} calls each, same run; ${door}), beside what VS Code's HTTP client costs over its stdio client (HTTP direct − stdio direct)`,
      result: `${fmt(added.median, 2)} ms at the median (p95 ${fmt(added.p95, 2)} ms): ${fmt(via.median, 2)} / ${fmt(direct.median, 2)} ms, ratio ${fmt(via.median / direct.median, 2)}; VS Code's HTTP client ${fmt(httpClient.median, 2)} ms`,
      target: '–',
    },
    ...(g.probe ? [probeRow(g.probe)] : []),
    ...[pipeFloorRow(g)].filter((r) => r !== undefined),
    ...(g.sampling ? [samplingRow(g.sampling)] : []),
    {
      measure: `Agent gateway: upstream \`tools/list_changed\` sent → new tool in \`vscode.lm.tools\` (${listGateway.n} runs)`,
      result: `median ${fmt(listGateway.median)} ms, max ${fmt(listGateway.max)} ms (VS Code running the server itself: median ${fmt(listDirect.median)} ms)`,
      target: '–',
    },
  ];
  return {
    rows,
    figures: {
      direct,
      http: overHttp,
      gateway: via,
      gatewayHttp: viaToHttp,
      added,
      addedOverHttp,
      addedSameUpstream,
      httpClient,
      listChanged: { gateway: listGateway, direct: listDirect },
      ...(g.sampling ? { sampling: samplingFigure(g.sampling) } : {}),
    },
  };
}

/**
 * Sampling through our path with "allow" against `vscode.lm` directly (bench/host/sampling.ts):
 * the ratio of the medians, with a bootstrap interval over the one run's calls.
 * @param {NonNullable<GatewayResult['sampling']>} sampling
 */
function samplingFigure(sampling) {
  const of = (/** @type {string} */ p) => sampling.calls.filter((c) => c.path === p).map((c) => c.ms);
  const ours = of('ours');
  const direct = of('direct');
  const ratio = (/** @type {{ ours: number[], direct: number[] }[]} */ rs) =>
    median(rs.flatMap((r) => r.ours)) / median(rs.flatMap((r) => r.direct));
  const interval = ours.length && direct.length ? bootstrapInterval([{ ours, direct }], ratio) : { low: NaN, high: NaN, level: 0.95 };
  return { ours: summarise(ours), direct: summarise(direct), ratio: ratio([{ ours, direct }]), interval };
}

/**
 * @param {NonNullable<GatewayResult['sampling']>} sampling
 * @returns {Row}
 */
function samplingRow(sampling) {
  const f = samplingFigure(sampling);
  return {
    measure: `Sampling: one \`sampling/createMessage\` through our path with the server set to "allow" (check, policy, model choice, model, audit) / \`vscode.lm\` called directly (select the model, send, read), the test model \`${sampling.model}\` that answers at once, ${f.ours.n} calls each, one run, interleaved`,
    result: `${fmt(f.ours.median, 2)} / ${fmt(f.direct.median, 2)} ms (p95 ${fmt(f.ours.p95, 2)} / ${fmt(f.direct.p95, 2)}); ratio **${fmt(f.ratio, 2)}**, 95 % interval ${fmtInterval(f.interval)}`,
    target: `ratio ≤ ${SAMPLING_RATIO_TARGET}`,
    ok: verdictAtMost(f.interval, SAMPLING_RATIO_TARGET),
  };
}

/** Reading and resolving 500 servers may take this long, at the median. */
export const CONFIG_LOAD_TARGET_MS = 50;
/** Linear growth: the cost per server at 500 servers is at most this many times the cost at 50. */
export const CONFIG_LOAD_LINEARITY = 2;

/**
 * The configuration rows (bench/config/configLoad.ts): one per server count with its median and
 * 95 % interval, the 500-server one judged against the target, and the growth from 50 to 500
 * servers judged as linear when the cost per server grew at most {@link CONFIG_LOAD_LINEARITY}×.
 * @param {{ servers: number, runsMs: number[] }[]} figs
 */
export function configLoadFigures(figs) {
  /** @type {Row[]} */
  const rows = [];
  const medianOf = (/** @type {number} */ n) => median(figs.find((f) => f.servers === n)?.runsMs ?? []);
  for (const f of figs) {
    const s = summarise(f.runsMs);
    const interval = s.n
      ? bootstrapInterval([{ ms: f.runsMs }], (rs) => median(rs.flatMap((r) => r.ms)))
      : { low: NaN, high: NaN, level: 0.95 };
    const judged = f.servers === 500;
    rows.push({
      measure: `Configuration: read and resolve ${f.servers} server${f.servers === 1 ? '' : 's'} (4 folders, every source; plain Node, ${s.n} loads)`,
      result: `median **${fmt(s.median, 2)} ms**, 95 % interval ${fmtInterval(interval, 2)} ms; min ${fmt(s.min, 2)} ms`,
      target: judged ? `< ${CONFIG_LOAD_TARGET_MS} ms` : '–',
      ...(judged ? { ok: verdictAtMost(interval, CONFIG_LOAD_TARGET_MS, true) } : {}),
    });
  }
  const per50 = medianOf(50) / 50;
  const per500 = medianOf(500) / 500;
  const growth = per500 / per50;
  rows.push({
    measure: 'Configuration: cost per server at 500 servers ÷ at 50 (linear growth ≈ 1)',
    result: `${fmt(growth, 2)} (${fmt(per50 * 1000, 1)} → ${fmt(per500 * 1000, 1)} µs per server)`,
    target: `≤ ${CONFIG_LOAD_LINEARITY}`,
    ok: Number.isFinite(growth) && growth <= CONFIG_LOAD_LINEARITY,
  });
  return { rows, growth };
}

/** Linear reading: the cost per MB of a 10 MB message is at most this many times that of a 1 MB one. */
export const FRAMING_LINEARITY = 2;

/**
 * The framing rows (bench/framing/framing.ts): each framing's median per size, and the growth of
 * its cost per MB from 1 to 10 MB, judged as linear when it grew at most {@link FRAMING_LINEARITY}×.
 * @param {{ framing: 'sse' | 'stdio', mb: number, runsMs: number[] }[]} figs
 */
export function framingFigures(figs) {
  /** @type {Row[]} */
  const rows = [];
  /** @type {Record<string, number>} */
  const growth = {};
  const names = { sse: "an HTTP answer's event stream (sseEvents.ts)", stdio: 'a stdio line (answeringReadBuffer.ts)' };
  for (const framing of /** @type {const} */ (['sse', 'stdio'])) {
    const of = (/** @type {number} */ mb) => median(figs.find((f) => f.framing === framing && f.mb === mb)?.runsMs ?? []);
    const [small, large] = [of(1), of(10)];
    growth[framing] = large / 10 / small;
    const n = figs.find((f) => f.framing === framing)?.runsMs.length ?? 0;
    rows.push({
      measure: `Reading one message in 64 KB chunks as ${names[framing]}, on the extension host's thread: 1 MB / 10 MB (plain Node, median of ${n}); cost per MB at 10 MB ÷ at 1 MB (linear ≈ 1)`,
      result: `${fmt(small, 1)} / ${fmt(large, 1)} ms; **${fmt(growth[framing], 2)}**`,
      target: `≤ ${FRAMING_LINEARITY}`,
      ok: Number.isFinite(growth[framing]) && growth[framing] <= FRAMING_LINEARITY,
    });
  }
  return { rows, growth };
}

/**
 * The gateway relay's rows (bench/relay/relayCost.ts): what an agent session pays for the stdio
 * door beyond its calls. No target: the line is the per-call time (gatewayFigures).
 * @param {import('../relay/relayCost').RelayCostFigure} figs
 */
export function relayFigures(figs) {
  const relay = summarise(figs.relayStartMs);
  const http = summarise(figs.httpStartMs);
  const m = figs.memory;
  const mb = (/** @type {number} */ kb) => `${fmt(kb / 1024, 1)} MB`;
  /** @type {Row[]} */
  const rows = [
    {
      measure: `Gateway relay: an agent session's start → first answer (\`initialize\`, \`tools/list\`), through the relay process (the stdio door, VS Code's default) / over the HTTP door (plain Node, median of ${relay.n} alternating starts)`,
      result: `${fmt(relay.median, 1)} / ${fmt(http.median, 1)} ms (p95 ${fmt(relay.p95, 1)} / ${fmt(http.p95, 1)})`,
      target: '–',
    },
    {
      measure:
        'Gateway relay: one relay process with a session open, resident / proportional (its share of pages shared with other Node processes) / private memory',
      result: m ? `${mb(m.rssKb)} / ${mb(m.pssKb)} / ${mb(m.privateKb)}` : 'not measured (no /proc on this system)',
      target: '–',
    },
  ];
  return { rows };
}

/** From a 401 to the call's result with a cached refresh token, on loopback, at the median (issue 25). */
export const SIGN_IN_REFRESH_TARGET_MS = 50;

/**
 * The sign-in rows (bench/signIn/signInLatency.ts): 401 → refresh → result, judged on its 95 %
 * interval, beside the same call with a token the server takes.
 * @param {{ refreshedMs: number[], plainMs: number[] }} figs
 */
export function signInFigures(figs) {
  const r = summarise(figs.refreshedMs);
  const p = summarise(figs.plainMs);
  const interval = r.n
    ? bootstrapInterval([{ ms: figs.refreshedMs }], (rs) => median(rs.flatMap((x) => x.ms)))
    : { low: NaN, high: NaN, level: 0.95 };
  /** @type {Row[]} */
  const rows = [
    {
      measure: `Sign-in: 401 → first successful call with a cached token (the server stopped taking the access token; refresh, call again; loopback, no browser; plain Node, ${r.n} calls) / the same call with a token the server takes`,
      result: `median **${fmt(r.median, 2)} ms**, 95 % interval ${fmtInterval(interval, 2)} ms (p95 ${fmt(r.p95, 2)}) / ${fmt(p.median, 2)} ms (p95 ${fmt(p.p95, 2)})`,
      target: `< ${SIGN_IN_REFRESH_TARGET_MS} ms`,
      ok: verdictAtMost(interval, SIGN_IN_REFRESH_TARGET_MS, true),
    },
  ];
  return { rows, refreshed: { median: r.median, interval }, plain: { median: p.median } };
}

/**
 * The revision choice at a server's start (bench/era/eraStart.ts, issue 40): the default against
 * the revision it settles on, pinned. The target is exact: the default sends at most one request
 * more before the tool list than the pinned revision does. The times (medians of alternating
 * starts, the difference with its bootstrap interval) show what that request costs, beside one
 * round trip on the same server.
 * @param {import('../era/eraStart').EraStartFigure[]} figs
 */
export function eraStartFigures(figs) {
  /** @type {Row[]} */
  const rows = figs.map((f) => {
    const d = summarise(f.defaultMs);
    const p = summarise(f.pinnedMs);
    const rt = summarise(f.roundTripMs);
    const interval = bootstrapInterval(
      [{ a: f.defaultMs, b: f.pinnedMs }],
      (rs) => median(rs.flatMap((r) => r.a)) - median(rs.flatMap((r) => r.b)),
    );
    const extra = Math.max(...f.defaultRequests) - Math.min(...f.pinnedRequests);
    return {
      measure: `Revision choice, ${f.server} over ${f.transport}: start → tool list with the default / with ${f.revision} pinned (plain Node, median of ${d.n} alternating starts); requests before \`tools/list\`; one round trip`,
      result: `${fmt(d.median, 1)} / ${fmt(p.median, 1)} ms (difference ${fmt(d.median - p.median, 1)} ms, 95 % interval ${fmtInterval(interval, 1)}); requests ${Math.max(...f.defaultRequests)} / ${Math.min(...f.pinnedRequests)} (+${extra}); round trip ${fmt(rt.median, 2)} ms`,
      target: '≤ 1 request more',
      ok: extra <= 1,
    };
  });
  return { rows };
}
