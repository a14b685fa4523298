// The hostile battery in the real extension host: test/fixtures/hostileServer.mjs sends every case
// of test/fixtures/hostileCases.mjs over stdio and records what came back on the wire. Proves that
// a buggy or malicious server cannot crash the extension, freeze the host, run script in the form
// webview, open a URL, or make an answer go missing.
//
// How prompts are answered. A case that reaches the UI is answered by a responder subscribed to
// `hooks.onDidShowPrompt`: Escape (closeQuickOpen) for quick inputs, `queue.settle(id, 'cancel')`
// for the webview, or typing the case's `answer.value`. Url-mode cases would show a MODAL consent
// dialog that in-host code cannot click, so they run under the `block` policy: here they must be
// declined and open nothing. That the dialog itself never offers "Open" for an attack URL, and that
// the broker declines a blocked URL even if a buggy dialog answered "accept", is proven over the
// same case list in plain Node by test/unit/hostile.test.ts.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { FormPrompt } from '../../src/elicitation/presenter';
import { contentSecurityPolicy } from '../../src/ui/form/formHtml';
import { BY_TAG, CASES, LINKS, PAYLOADS } from '../fixtures/hostileCases.mjs';
import type { ChildProcess } from 'node:child_process';
import { vscodeLinks } from '../unit/support/linkPatterns';
import { acceptQuickInput, elicitVia, messageText, nextPrompt, services, startHttpFixture, waitFor, waitForRunning } from './helpers';

/** Raw bidi controls, C0/C1 controls other than \n and \t, lone surrogates: never in widget text. */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u0000-\u0008\u000B-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * The longest the extension host's event loop may stall on one case. What this must catch costs
 * seconds to hours: a runaway regular expression (before the validation budget, one default value
 * hung the host for good) or work quadratic in a 1 MB message. What it must tolerate, on this
 * shared 2-core machine with code-server, Chromium and other test runs beside it, is load: creating
 * a form webview or a major GC after the 1 MB cases was measured at up to ~350 ms, and a busy
 * machine has stretched one such pause past a second. So a stall over this limit is blamed on the
 * case on the wire and that case is run again: a case that stalls the host does so every time,
 * while noise from the load around it does not repeat (see assertNoStall).
 */
const MAX_STALL_MS = 1000;
/** How often a suspect case is run again; it fails only if every run stalls. */
const STALL_RERUNS = 2;
const SERVER = 'hostile';
/** The same hostile server over Streamable HTTP. */
const HTTP_SERVER = 'hostile-http';

interface CaseRecord {
  readonly tag: string;
  readonly expect: string;
  readonly inTime: boolean;
  readonly got: readonly {
    id: string | number;
    responses: readonly { result?: { action?: unknown; content?: unknown }; error?: { code?: unknown; message?: unknown } }[];
  }[];
}

interface Shown {
  readonly tag: string | undefined;
  readonly kind: string;
  /** Every string the widget shows (title, prompt, placeholder, item labels…). */
  readonly texts: string[];
  validation?: string;
}

/** Records event-loop stalls over 100 ms with their time, to name the case that caused one. */
function stallSampler(): { stop(): void; stalls: { at: number; ms: number }[] } {
  const stalls: { at: number; ms: number }[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last - 20 > 100) stalls.push({ at: Date.now(), ms: Math.round(now - last - 20) });
    last = now;
  }, 20);
  return { stop: () => clearInterval(timer), stalls };
}

function configuration(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('mcpElicitation');
}

/** Sets a workspace setting and waits until the extension host sees it. */
async function setSetting(key: string, value: unknown): Promise<void> {
  await configuration().update(key, value, vscode.ConfigurationTarget.Workspace);
  await waitFor(() => JSON.stringify(configuration().inspect(key)?.workspaceValue) === JSON.stringify(value), `setting ${key}`);
}

function readLines(file: string, from = 0): Record<string, unknown>[] {
  if (!existsSync(file)) return [];
  // `from` is a byte offset (a file size), so slice the bytes before decoding.
  return readFileSync(file)
    .subarray(from)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function widgetTexts(w: vscode.QuickInput | undefined): string[] {
  if (!w) return [];
  const box = w as Partial<vscode.InputBox & vscode.QuickPick<vscode.QuickPickItem>>;
  const items = (box.items ?? []).flatMap((i) => [i.label, i.description ?? '', i.detail ?? '']);
  return [w.title ?? '', box.prompt ?? '', box.placeholder ?? '', ...items];
}

function runTool(tool: string, args: Record<string, unknown> = {}, server = SERVER): Promise<unknown> {
  return Promise.resolve(vscode.commands.executeCommand('mcpElicitation.runTool', server, tool, args));
}

function toolJson<T>(result: unknown): T {
  const r = result as { content: { text: string }[]; isError?: boolean };
  assert.ok(!r.isError, `tool failed: ${r.content[0]?.text}`);
  return JSON.parse(r.content[0]?.text ?? 'null') as T;
}

suite('Hostile server: crafted requests cannot crash, freeze, inject, open or lose answers', () => {
  let s: TestServices;
  const record = path.join(os.tmpdir(), `mcp-eh-hostile-${process.pid}-${Date.now()}.jsonl`);
  const keys = ['servers', 'presentation', 'serverPolicy', 'rateLimit'] as const;
  const saved = new Map<string, unknown>();
  /** Every prompt the responder saw, in order. */
  const shown: Shown[] = [];
  /** Every form the presenter was handed (all widgets render from these). */
  const prompts: FormPrompt[] = [];
  const responderErrors: string[] = [];
  let responder: vscode.Disposable | undefined;
  let observing: vscode.Disposable | undefined;
  const stall = monitorEventLoopDelay({ resolution: 10 });
  let openedBefore = 0;
  /** While set, the responder only records: the test answers the prompt itself. */
  let paused = false;
  /** The HTTP hostile server's process. */
  const children: ChildProcess[] = [];
  let stdioEntry: Record<string, unknown> = {};

  /** Names the case on the wire at each stall: the last one sent before it. */
  function blame(stalls: readonly { at: number; ms: number }[]): string {
    const sends = readLines(record).filter((l) => l['type'] === 'send');
    return stalls.map((st) => `${st.ms} ms during ${String(sends.filter((l) => Number(l['at']) <= st.at).at(-1)?.['tag'])}`).join('; ');
  }

  /** The tag of the case the hostile server sent last (it writes that before sending). */
  function currentTag(): string | undefined {
    const sends = readLines(record).filter((l) => l['type'] === 'send');
    return sends.at(-1)?.['tag'] as string | undefined;
  }

  async function answer(e: { kind: string; id: string; widget: vscode.QuickInput | undefined }): Promise<void> {
    const tag = currentTag();
    const entry: Shown = { tag, kind: e.kind, texts: widgetTexts(e.widget) };
    shown.push(entry);
    if (paused) return;
    const planned =
      tag === undefined ? undefined : (BY_TAG.get(tag)?.answer as 'none' | { value: string; thenCancel?: boolean } | undefined);
    if (planned === 'none') return;
    if (e.kind === 'webview') {
      s.broker.queue.settle(e.id, 'cancel');
      return;
    }
    // Let the host send the new widget to the workbench before acting on it (see acceptQuickInput).
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    if (planned?.value !== undefined && e.widget && 'value' in e.widget) {
      const box = e.widget as vscode.InputBox;
      box.value = planned.value;
      await acceptQuickInput();
      if (!planned.thenCancel) return;
      await waitFor(() => messageText(box.validationMessage) !== '', `validation message for ${tag}`);
      entry.validation = messageText(box.validationMessage);
    }
    // The prompt's Cancel (Escape would only set the question aside, still unanswered).
    s.broker.queue.settle(e.id, 'cancel');
  }

  /** Runs the listed cases (all but the disconnect case by default); returns one record per case. */
  async function battery(ids?: readonly string[], server = SERVER): Promise<CaseRecord[]> {
    const from = existsSync(record) ? statSync(record).size : 0;
    const summary = toolJson<{ ran: number }>(await runTool('runBattery', ids ? { ids } : {}, server));
    const cases = readLines(record, from).filter((l) => l['type'] === 'case') as unknown as CaseRecord[];
    assert.equal(cases.length, summary.ran);
    return cases;
  }

  /** Exactly one well-formed response per request, of the kind the case expects. */
  function checkWire(c: CaseRecord): string | undefined {
    if (!c.inTime) return 'no answer within 30 s';
    const all = c.got.flatMap((g) => g.responses);
    for (const g of c.got) {
      const want = c.expect === 'two-responses' ? 2 : c.expect === 'no-response' ? 0 : 1;
      if (g.responses.length !== want) return `${g.responses.length} responses for id ${JSON.stringify(g.id)} (want ${want})`;
    }
    for (const r of all) {
      if (r.error !== undefined) {
        if (typeof r.error.code !== 'number' || typeof r.error.message !== 'string' || r.error.message === '') {
          return `malformed error ${JSON.stringify(r.error)}`;
        }
      } else if (!['accept', 'decline', 'cancel'].includes(String(r.result?.action))) {
        return `malformed result ${JSON.stringify(r.result).slice(0, 200)}`;
      }
    }
    const first = all[0];
    if (c.expect.startsWith('error-')) {
      return all.every((r) => r.error?.code === Number(c.expect.slice(5)))
        ? undefined
        : `want ${c.expect}, got ${JSON.stringify(first).slice(0, 200)}`;
    }
    if (c.expect === 'accept') {
      const want = { action: 'accept', content: BY_TAG.get(c.tag)?.content };
      return JSON.stringify(first?.result) === JSON.stringify(want)
        ? undefined
        : `want ${JSON.stringify(want)}, got ${JSON.stringify(first)}`;
    }
    if (c.expect === 'cancel' || c.expect === 'decline') {
      return first?.result?.action === c.expect ? undefined : `want ${c.expect}, got ${JSON.stringify(first)}`;
    }
    if (c.expect === 'two-responses') {
      return all.every((r) => r.result?.action === 'cancel') ? undefined : `want two cancels, got ${JSON.stringify(all)}`;
    }
    return undefined;
  }

  /** Runs the cases while watching the host's event loop: its worst delay, and each stall over 100 ms. */
  async function watchedBattery(
    ids: readonly string[],
  ): Promise<{ cases: CaseRecord[]; stallMs: number; stalls: { at: number; ms: number }[] }> {
    stall.reset();
    stall.enable();
    const sampler = stallSampler();
    const cases = await battery(ids);
    stall.disable();
    sampler.stop();
    return { cases, stallMs: stall.max / 1e6, stalls: sampler.stalls };
  }

  /** The cases on the wire at the stalls over MAX_STALL_MS, each once; `undefined` for one before any case was sent. */
  function suspects(run: { stallMs: number; stalls: readonly { at: number; ms: number }[] }): (string | undefined)[] {
    const sends = readLines(record).filter((l) => l['type'] === 'send');
    let over = run.stalls.filter((st) => st.ms >= MAX_STALL_MS);
    // The histogram and the sampler measure a little differently: the histogram's worst is the sampler's biggest.
    if (over.length === 0 && run.stallMs >= MAX_STALL_MS) over = [...run.stalls].sort((a, b) => b.ms - a.ms).slice(0, 1);
    assert.ok(run.stallMs < MAX_STALL_MS || over.length > 0, `event loop stalled ${Math.round(run.stallMs)} ms, unseen by the sampler`);
    const tags = over.map((st) => sends.filter((l) => Number(l['at']) <= st.at).at(-1)?.['tag'] as string | undefined);
    return [...new Set(tags)];
  }

  /**
   * Logs the worst event-loop delay of a pass. A stall over MAX_STALL_MS is blamed on the case on
   * the wire, which is then run again STALL_RERUNS times on its own under the same load: the pass
   * fails when every rerun stalls too (what a runaway pattern or quadratic work does, each time),
   * or when a stall cannot be placed on a case. A stall that does not repeat was the machine's.
   */
  async function assertNoStall(pass: string, run: { stallMs: number; stalls: readonly { at: number; ms: number }[] }): Promise<void> {
    console.log(`${pass}: max event-loop delay ${Math.round(run.stallMs)} ms; stalls over 100 ms: ${blame(run.stalls) || 'none'}`);
    const reproduced: string[] = [];
    for (const tag of suspects(run)) {
      assert.ok(tag !== undefined, `event loop stalled before any case was sent: ${blame(run.stalls)}`);
      const again: number[] = [];
      for (let i = 0; i < STALL_RERUNS; i++) {
        const rerun = await watchedBattery([tag]);
        again.push(Math.round(Math.max(rerun.stallMs, ...rerun.stalls.map((st) => st.ms))));
      }
      console.log(`${pass}: ${tag} run again alone: max event-loop delay ${again.join(', ')} ms`);
      if (again.every((ms) => ms >= MAX_STALL_MS)) reproduced.push(`${tag}: ${again.join(', ')} ms`);
    }
    assert.deepEqual(reproduced, [], `event loop stalled over ${MAX_STALL_MS} ms on every run of: ${reproduced.join('; ')}`);
  }

  function assertWire(cases: readonly CaseRecord[]): void {
    const bad = cases.flatMap((c) => {
      const why = checkWire(c);
      return why ? [`${c.tag}: ${why}`] : [];
    });
    assert.deepEqual(bad, [], `cases answered wrongly:\n${bad.join('\n')}`);
  }

  suiteSetup(async function () {
    this.timeout(60_000);
    s = await services();
    await waitForRunning(s, 'fixture');
    for (const k of keys) saved.set(k, configuration().inspect(k)?.workspaceValue);
    const repo = process.env['MCP_TEST_REPO_ROOT'];
    assert.ok(repo, 'MCP_TEST_REPO_ROOT is set by the harness');
    // A hundred requests in a few seconds would trip the rate limit: lift it for this suite.
    await setSetting('rateLimit', { requests: 0, perSeconds: 60 });
    await setSetting('presentation', 'quickInput');
    stdioEntry = { command: 'node', args: [path.join(repo, 'test', 'fixtures', 'hostileServer.mjs')], env: { HOSTILE_RECORD: record } };
    await setSetting('servers', { [SERVER]: stdioEntry });
    await waitForRunning(s, SERVER);
    await waitFor(() => s.manager.get(SERVER)?.tools.some((t) => t.name === 'runBattery') === true, 'hostile tools listed');
    // Observe, without changing, what every widget is handed.
    observing = s.hooks.presenter.intercept('presentForm', (present) => (prompt, signal, control) => {
      prompts.push(prompt);
      return present(prompt, signal, control);
    });
    responder = s.hooks.onDidShowPrompt((e) => {
      answer(e).catch((err: unknown) => responderErrors.push(String(err)));
    });
    openedBefore = s.hooks.opened.length;
  });

  suiteTeardown(async function () {
    this.timeout(60_000);
    responder?.dispose();
    observing?.dispose();
    stall.disable();
    s.broker.queue.cancelAll();
    for (const k of keys) await configuration().update(k, saved.get(k), vscode.ConfigurationTarget.Workspace);
    await waitFor(() => s.manager.get(SERVER) === undefined && s.manager.get(HTTP_SERVER) === undefined, 'hostile servers removed');
    for (const c of children) c.kill();
    rmSync(record, { force: true });
  });

  test('every form and protocol case gets exactly one well-formed answer, and the host never stalls', async function () {
    this.timeout(180_000);
    const ids = CASES.filter((c) => !c.tag.startsWith('url/') && c.raw?.kind !== 'disconnect').map((c) => c.tag);
    assert.ok(ids.length >= 100, `${ids.length} cases`);
    // The watch can fail: a deliberate block of this event loop longer than the limit is seen.
    const control = stallSampler();
    const t0 = performance.now();
    while (performance.now() - t0 < MAX_STALL_MS + 200) {
      // Busy on purpose: this is the stall the watch must see.
    }
    await waitFor(() => control.stalls.length > 0, 'the sampler sees the deliberate stall');
    control.stop();
    assert.ok((control.stalls[0]?.ms ?? 0) >= MAX_STALL_MS, `the sampler measured ${JSON.stringify(control.stalls)}`);
    const run = await watchedBattery(ids);
    assert.equal(run.cases.length, ids.length);
    assertWire(run.cases);
    assert.deepEqual(responderErrors, []);
    // Every case the list says reaches the UI did, and nothing else did.
    const reachesUi = CASES.filter((c) => ids.includes(c.tag) && (c.expect === 'cancel' || c.expect === 'accept')).length;
    const duplicates = 2;
    const flood = (BY_TAG.get('protocol/flood-server-cancel')?.raw as { count: number }).count;
    assert.ok(shown.length >= reachesUi + duplicates && shown.length <= reachesUi + duplicates + flood, `${shown.length} prompts shown`);
    assert.equal(s.broker.queue.list().filter((e) => e.asker.name === SERVER).length, 0, 'nothing from the battery is left pending');
    // Last: a suspect case run again adds its prompts to `shown`.
    await assertNoStall('hostile battery', run);
  });

  test('what the widgets show is sanitised and bounded; oversize text is cut with a visible marker', () => {
    assert.ok(shown.length > 30 && prompts.length > 30);
    for (const p of shown) {
      for (const t of p.texts) {
        assert.doesNotMatch(t, UNSAFE, `${p.tag}: raw control character in ${JSON.stringify(t.slice(0, 80))}`);
        // Message (4000) + description (1000) + warnings: far below what the server sent.
        assert.ok(t.length < 12_000, `${p.tag}: ${t.length} characters on a widget`);
      }
    }
    const byTag = (tag: string): Shown => {
      const found = shown.find((x) => x.tag === tag);
      assert.ok(found, `${tag} was shown`);
      return found;
    };
    const prompt = (tag: string): string => byTag(tag).texts[1] ?? '';
    assert.match(prompt('oversize/message-1mb'), /M …/, 'the cut message ends with a marker');
    assert.ok(prompt('oversize/message-1mb').length < 6000);
    assert.match(prompt('oversize/description-100kb'), /d…/);
    assert.match(prompt('oversize/description-100kb'), /description was too long and shortened/);
    assert.match(prompt('oversize/title-100kb'), /t… .*title was too long/s);
    const labels = byTag('oversize/enum-labels-1000x2kb').texts.filter((t) => /^\d+ L/.test(t));
    assert.equal(labels.length, 1000);
    assert.ok(labels.every((l) => l.length <= 202 && l.endsWith('…')));
    // Bidi and controls are replaced by visible markers, in server text and in the server's own name.
    assert.match(prompt('bidi/message-rlo'), /⟨U\+202E⟩evil\.exe⟨U\+202C⟩/);
    assert.match(prompt('control/c0'), /⟨U\+0000⟩.*⟨U\+001B⟩/);
    assert.match(byTag('bidi/message-rlo').texts[0] ?? '', /Hostile ⟨U\+202E⟩exe\.txt/);
    // Links in a form are called out.
    for (const tag of CASES.filter((c) => c.display?.warning).map((c) => c.tag)) assert.match(prompt(tag), /⚠.*link/, tag);
    // A pathological pattern is given up on, with a reason, instead of hanging the host.
    assert.equal(byTag('schema/pattern-redos-input').validation, "Could not be checked in time: the server's pattern is too complex");
    // The presenter was handed the same bounded texts for the webview.
    for (const p of prompts) {
      for (const f of p.form.fields) {
        assert.ok(
          f.title.length <= 201 && (f.description ?? '').length <= 1001 && !UNSAFE.test(f.title + (f.description ?? '')),
          `${p.message.slice(0, 40)}: field ${f.key.slice(0, 40)}`,
        );
      }
    }
  });

  test('links in every text field of a request: VS Code’s own link pattern finds none in any prompt, title, placeholder, item or validation message', () => {
    // The control: what the server sent holds links the pattern finds (vscode: is not one of
    // VS Code's link schemes here; the form's warning names it like any other link).
    for (const link of Object.values(LINKS)) assert.equal(vscodeLinks(link).length, link.includes('](vscode:') ? 0 : 1, link);
    const linkCases = CASES.filter((c) => c.tag.startsWith('links/')).map((c) => c.tag);
    assert.ok(linkCases.length >= 13, `${linkCases.length} link cases`);
    for (const tag of linkCases) {
      assert.ok(
        shown.some((x) => x.tag === tag),
        `${tag} was shown`,
      );
    }
    assert.match(shown.find((x) => x.tag === 'links/pattern-validation')?.validation ?? '', /Fix it.*command:/, 'the pattern is quoted');
    // Every surface of every case of the battery, not only the link cases.
    for (const x of shown) {
      for (const t of [...x.texts, x.validation ?? '']) assert.deepEqual(vscodeLinks(t), [], `${x.tag}: ${t.slice(0, 160)}`);
    }
    for (const p of prompts) assert.deepEqual(vscodeLinks(p.message), [], p.message.slice(0, 160));
  });

  /** Starts the hostile server over Streamable HTTP beside the stdio one (once for the suite). */
  async function httpServerRunning(): Promise<void> {
    if (s.manager.get(HTTP_SERVER)?.state.kind === 'running') return;
    const repo = process.env['MCP_TEST_REPO_ROOT'] ?? '';
    // Same record file: the responder and the battery read the cases from it whichever server sent them.
    const url = await startHttpFixture(path.join(repo, 'test', 'fixtures', 'hostileServer.mjs'), ['--http'], children, {
      HOSTILE_RECORD: record,
    });
    await setSetting('servers', { [SERVER]: stdioEntry, [HTTP_SERVER]: { type: 'http', url } });
    await waitForRunning(s, HTTP_SERVER);
    await waitFor(() => s.manager.get(HTTP_SERVER)?.tools.some((t) => t.name === 'runBattery') === true, 'hostile HTTP tools listed');
  }

  test('over Streamable HTTP too: every form case, the link cases among them, gets one well-formed answer, and no link survives on any widget', async function () {
    this.timeout(180_000);
    await httpServerRunning();
    // The cases a server builds from params: raw lines and crafted JSON-RPC framing are stdio's.
    const ids = CASES.filter((c) => c.params !== undefined && c.raw === undefined && !c.tag.startsWith('url/')).map((c) => c.tag);
    const linkCases = ids.filter((t) => t.startsWith('links/'));
    assert.ok(ids.length >= 80 && linkCases.length >= 13, `${ids.length} cases, ${linkCases.length} with links`);
    const before = shown.length;
    const cases = await battery(ids, HTTP_SERVER);
    assert.equal(cases.length, ids.length);
    assertWire(cases);
    assert.deepEqual(responderErrors, []);
    const seen = shown.slice(before);
    for (const tag of linkCases) {
      assert.ok(
        seen.some((x) => x.tag === tag),
        `${tag} was shown over HTTP`,
      );
    }
    assert.match(seen.find((x) => x.tag === 'links/pattern-validation')?.validation ?? '', /Fix it.*command:/, 'the pattern is quoted');
    for (const x of seen) {
      for (const t of [...x.texts, x.validation ?? '']) {
        assert.deepEqual(vscodeLinks(t), [], `${x.tag}: ${t.slice(0, 160)}`);
        assert.doesNotMatch(t, UNSAFE, `${x.tag}: raw control character`);
      }
    }
    assert.equal(s.broker.queue.list().filter((e) => e.asker.name === HTTP_SERVER).length, 0, 'nothing left pending');
  });

  test('over Streamable HTTP too: malformed JSON-RPC gets its error code, url-mode attacks under the block policy are declined, nothing is shown or opened', async function () {
    this.timeout(180_000);
    await httpServerRunning();
    // Stdio's alone: raw non-JSON lines (an event stream frames JSON only), a stray response (the
    // SDK's server transport sends a response only for a request it received) and the server's exit.
    const stdioOnly = new Set(['protocol/garbage-lines', 'protocol/response-unknown-id', 'protocol/request-then-disconnect']);
    const malformed = CASES.filter((c) => c.raw !== undefined && !stdioOnly.has(c.tag)).map((c) => c.tag);
    assert.ok(malformed.length >= 19, `${malformed.length} JSON-RPC cases`);
    assertWire(await battery(malformed, HTTP_SERVER));
    assert.deepEqual(responderErrors, []);
    assert.equal(s.broker.queue.list().filter((e) => e.asker.name === HTTP_SERVER).length, 0, 'nothing left pending');

    await setSetting('serverPolicy', { [HTTP_SERVER]: 'block' });
    await waitFor(() => s.gatekeeper.policyFor(HTTP_SERVER) === 'block', 'block policy in force');
    try {
      const urls = CASES.filter((c) => c.tag.startsWith('url/')).map((c) => c.tag);
      const before = shown.length;
      const since = Date.now();
      assertWire(await battery(urls, HTTP_SERVER));
      assert.equal(shown.length, before, 'no prompt of any kind was shown');
      assert.equal(s.hooks.opened.length, openedBefore, `opened: ${s.hooks.opened.slice(openedBefore).join(', ')}`);
      const declined = s.broker.queue.history
        .list()
        .filter((h) => h.asker.name === HTTP_SERVER && h.mode === 'url' && h.at.getTime() >= since);
      assert.ok(declined.length > 0 && declined.every((h) => h.action === 'decline' && h.decidedBy === 'policy'));
    } finally {
      await setSetting('serverPolicy', saved.get('serverPolicy'));
    }
  });

  test('url-mode attacks under the block policy: all declined, nothing opened, shape errors still -32602', async function () {
    this.timeout(60_000);
    await setSetting('serverPolicy', { [SERVER]: 'block' });
    await waitFor(() => s.gatekeeper.policyFor(SERVER) === 'block', 'block policy in force');
    try {
      const ids = CASES.filter((c) => c.tag.startsWith('url/')).map((c) => c.tag);
      const before = shown.length;
      const cases = await battery(ids);
      assertWire(cases);
      assert.equal(shown.length, before, 'no prompt of any kind was shown');
      assert.equal(s.hooks.opened.length, openedBefore, `opened: ${s.hooks.opened.slice(openedBefore).join(', ')}`);
      const declined = s.broker.queue.history.list().filter((h) => h.asker.name === SERVER && h.mode === 'url');
      assert.ok(declined.length > 0 && declined.every((h) => h.action === 'decline' && h.decidedBy === 'policy'));
    } finally {
      await setSetting('serverPolicy', saved.get('serverPolicy'));
    }
  });

  test('the same forms in the webview: every one answered, no CSP violation', async function () {
    this.timeout(120_000);
    await setSetting('presentation', 'webview');
    const violations = s.hooks.cspViolations.length;
    // A form without fields is a confirmation, always on a native QuickPick: not a webview case.
    const confirmation = (params: unknown): boolean =>
      Object.keys((params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? { form: true }).length === 0;
    const ids = CASES.filter(
      (c) => c.expect === 'cancel' && c.params !== undefined && c.answer === undefined && !confirmation(c.params),
    ).map((c) => c.tag);
    const before = shown.length;
    const run = await watchedBattery(ids);
    assertWire(run.cases);
    assert.equal(shown.slice(before).filter((x) => x.kind === 'webview').length, ids.length);
    assert.deepEqual(s.hooks.cspViolations.slice(violations), []);
    await assertNoStall('webview pass', run);
  });

  test('script injection: the form page parses none of it (0 CSP violations, canary never reached) while the same markup raw in a page with the same CSP is caught', async function () {
    this.timeout(60_000);
    await setSetting('presentation', 'webview');
    // A canary on loopback: any payload that got parsed and loaded something would hit it.
    const hits: string[] = [];
    const canary: Server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end();
    });
    await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
    const port = (canary.address() as { port: number }).port;
    const c = `http://127.0.0.1:${port}`;
    const loaders = [
      `<img src="${c}/img">`,
      `<script src="${c}/script.js"></script>`,
      `<link rel="stylesheet" href="${c}/style.css">`,
      `<iframe src="${c}/frame"></iframe>`,
      `<div style="background:url(${c}/css-url)">x</div>`,
      `<img src=x onerror="fetch('${c}/onerror');parent.postMessage('PWNED','*')">`,
      `<object data="${c}/object"></object>`,
    ];
    const all = [...loaders, ...Object.values(PAYLOADS)];
    const violations = s.hooks.cspViolations.length;
    const properties: Record<string, unknown> = {};
    all.forEach((payload, i) => {
      properties[`f${i}${payload.slice(0, 40)}`] = { type: 'string', title: `T ${payload}`, description: `D ${payload}`, default: payload };
    });
    properties['pick'] = { type: 'string', oneOf: all.map((p, i) => ({ const: `v${i}`, title: p })) };
    // The responder would cancel the form at once; keep the page up until the control has spoken.
    paused = true;
    const shownForm = nextPrompt(s);
    const answered = runTool('elicitCounted', {
      params: { mode: 'form', message: `Injected: ${all.join(' ')}`, requestedSchema: { type: 'object', properties } },
    });
    const form = await shownForm;
    assert.equal(form.kind, 'webview');

    // The positive control: the same markup, raw, under the form's CSP, in a second panel.
    const panel = vscode.window.createWebviewPanel(
      'mcpElicitation.hostileControl',
      'CSP control',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true },
    );
    const controlViolations: string[] = [];
    const sub = panel.webview.onDidReceiveMessage((m: { directive?: string }) => controlViolations.push(String(m.directive)));
    const nonce = randomBytes(16).toString('base64');
    panel.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(panel.webview.cspSource, nonce)}">
<script nonce="${nonce}">const api = acquireVsCodeApi(); document.addEventListener('securitypolicyviolation', (e) => api.postMessage({ directive: e.effectiveDirective }));</script>
</head><body>${all.join('\n')}</body></html>`;
    try {
      // The control loaded after the form: once it has reported, the form had as long to do so.
      await waitFor(() => new Set(controlViolations).size >= 3, 'the control page reports CSP violations', 20_000);
      assert.deepEqual(s.hooks.cspViolations.slice(violations), [], 'the form page reported no CSP violation');
      assert.deepEqual(hits, [], 'nothing reached the canary');
    } finally {
      paused = false;
      s.broker.queue.settle(form.id, 'cancel');
      sub.dispose();
      panel.dispose();
      canary.closeAllConnections();
      await new Promise<void>((r) => canary.close(() => r()));
    }
    const wire = toolJson<{ responses: unknown[] }>(await answered);
    assert.deepEqual(wire.responses, [{ result: { action: 'cancel' } }]);
  });

  test('a request sent right before the server exits: closed, not left pending; the server restarts and answers again', async function () {
    this.timeout(60_000);
    const conn = s.manager.get(SERVER);
    const pid = conn?.pid;
    assert.ok(conn && pid);
    await runTool('requestThenExit');
    await waitFor(
      () => s.broker.queue.history.list().some((h) => h.asker.name === SERVER && h.message.startsWith('Last words')),
      'the request was seen and closed',
    );
    const last = s.broker.queue.history
      .list()
      .filter((h) => h.asker.name === SERVER && h.message.startsWith('Last words'))
      .at(-1);
    assert.equal(last?.action, 'cancel');
    assert.equal(last?.decidedBy, 'disconnect');
    assert.equal(s.broker.queue.list().filter((e) => e.asker.name === SERVER).length, 0);
    await waitFor(() => conn.state.kind === 'running' && conn.pid !== pid, 'restarted after the exit');
    assertWire(await battery(['schema/nested-object', 'inject/message']));
  });

  test('afterwards the extension host still answers a normal request normally', async () => {
    await setSetting('presentation', 'quickInput');
    responder?.dispose();
    responder = undefined;
    const wire = elicitVia('fixture', {
      message: 'Still alive?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const p = await nextPrompt(s);
    (p.widget as vscode.InputBox).value = 'yes';
    await acceptQuickInput();
    assert.deepEqual((await wire).response, { action: 'accept', content: { name: 'yes' } });
    assert.equal(s.hooks.opened.length, openedBefore, 'nothing was opened by the whole battery');
  });
});
