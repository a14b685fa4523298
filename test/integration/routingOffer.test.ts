// The offer, once per workspace, to bring the questions of VS Code's servers here (issue 26,
// item 2). This host runs with VS Code's AI features on; the suite hands the mcp.json servers to
// VS Code (`workspaceMcpJson: auto`) and turns the offer on (the other suites run with it off).
// The notification is answered in the user's place (hooks.routingOffer); Choose's picker is the
// real one, driven as the user would. What the agent then does with a routed server is
// test/e2e/routingOffer.test.ts.
import * as assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import type { ServerDefinition } from '../../src/config/parse/definitions';
import { OFFER_ANSWER_KEY, offerMessage } from '../../src/ui/routingOffer';
import type { OfferAnswer } from '../../src/gateway/routingOfferRule';
import { acceptQuickInput, services, waitFor, workspaceMcpJson, type ShownPrompt } from './helpers';

const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'stdioServer.mjs');
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
const server = (name: string, env: Record<string, string> = {}): Record<string, unknown> => ({
  command: 'node',
  args: [FIXTURE, name],
  env,
});

suite('The offer to route VS Code’s servers: once per workspace, Route All, Choose, Don’t Ask Again', () => {
  let s: TestServices;
  let mcpJson: ReturnType<typeof workspaceMcpJson>;
  let asked: (readonly ServerDefinition[])[];
  let intercepted: vscode.Disposable | undefined;
  const saved = { mode: undefined as unknown, offer: undefined as unknown };

  const vscodeNames = (): string[] =>
    s.manager
      .vscodeOwned()
      .map((d) => d.name)
      .sort();
  const routedNames = (): string[] =>
    s.routes
      .all()
      .map((r) => r.name)
      .sort();
  const answered = (): unknown => s.context.workspaceState.get(OFFER_ANSWER_KEY);

  /** Answers the notification with `answer` (a function: answered when the test says so). */
  function answerWith(answer: OfferAnswer | undefined | (() => Promise<OfferAnswer | undefined>)): void {
    intercepted?.dispose();
    intercepted = s.hooks.routingOffer.intercept('ask', () => (servers) => {
      asked.push(servers);
      return typeof answer === 'function' ? answer() : Promise.resolve(answer);
    });
  }

  /** Turns the offer off and on: the user's way to have it again in this window. */
  async function turnOfferOn(): Promise<void> {
    await config().update('offerRouting', false, vscode.ConfigurationTarget.Workspace);
    await config().update('offerRouting', true, vscode.ConfigurationTarget.Workspace);
  }

  /** Gives every route back, so the next test starts with all servers VS Code's. */
  async function dropRoutes(): Promise<void> {
    for (const r of s.routes.all()) await s.routes.remove(r);
    await s.manager.reload();
  }

  function writeServers(servers: Record<string, unknown>): string {
    const json = JSON.parse(mcpJson.original) as { inputs: unknown[]; servers: Record<string, unknown> };
    const text = `// shared with the team\n${JSON.stringify({ ...json, servers: { ...json.servers, ...servers } }, null, 2)}\n`;
    writeFileSync(mcpJson.path, text);
    return text;
  }

  suiteSetup(async () => {
    s = await services();
    mcpJson = workspaceMcpJson();
    saved.mode = config().inspect('workspaceMcpJson')?.workspaceValue;
    saved.offer = config().inspect('offerRouting')?.workspaceValue;
    await s.context.workspaceState.update(OFFER_ANSWER_KEY, undefined);
    writeServers({ 'offer-a': server('offer-a'), 'offer-b': server('offer-b') });
    await config().update('workspaceMcpJson', 'auto', vscode.ConfigurationTarget.Workspace);
    await waitFor(
      () => ['fixture', 'fixture-http', 'offer-a', 'offer-b'].every((n) => vscodeNames().includes(n)),
      'the mcp.json servers handed to VS Code',
    );
  });
  setup(() => {
    asked = [];
  });
  teardown(async () => {
    intercepted?.dispose();
    intercepted = undefined;
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await dropRoutes();
    await s.context.workspaceState.update(OFFER_ANSWER_KEY, undefined);
  });
  suiteTeardown(async () => {
    await config().update('offerRouting', saved.offer, vscode.ConfigurationTarget.Workspace);
    mcpJson.restore();
    await config().update('workspaceMcpJson', saved.mode, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => !!s.manager.get('fixture')?.ready && !!s.manager.get('fixture-http')?.ready, 'the fixtures ours again', 30_000);
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  test("Don't Ask Again: offered once, listing VS Code's servers; never again in this workspace, whatever changes", async () => {
    answerWith('never');
    await config().update('offerRouting', true, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => asked.length === 1, 'the offer');
    assert.deepEqual(
      asked[0]?.map((d) => d.name),
      ['fixture', 'fixture-http', 'offer-a', 'offer-b'],
      'every server VS Code runs here',
    );
    await waitFor(() => answered() === 'never', 'the answer kept in workspaceState');
    assert.deepEqual(routedNames(), [], 'nothing routed');

    // What it says: what changes and for whom, and how to undo it.
    const text = offerMessage(asked[0] ?? []);
    assert.match(text, /^VS Code runs 4 MCP servers in this workspace \(fixture, fixture-http, offer-a and 1 more\)/);
    assert.match(text, /no shared file is edited, so teammates are unaffected, and Give Back to VS Code undoes it/);
    // A server's name is shown as text: a Markdown link in it is no link in the notification.
    const hostile = { ...(asked[0]?.[0] as ServerDefinition), name: '[Open](command:workbench.action.quit)' };
    assert.doesNotMatch(offerMessage([hostile]), /\]\(/, 'no link forms');

    // A new server, a reload, the setting turned off and on: the workspace's answer holds.
    writeServers({ 'offer-a': server('offer-a'), 'offer-b': server('offer-b'), 'offer-c': server('offer-c') });
    await waitFor(() => vscodeNames().includes('offer-c'), 'a new server of VS Code’s');
    await turnOfferOn();
    await s.manager.reload();
    assert.equal(asked.length, 1, 'not offered again');
  });

  test('closed unanswered it waits for the next window; Route All routes what is defined when the user answers, changing no file', async () => {
    answerWith(undefined);
    await turnOfferOn();
    await waitFor(() => asked.length === 1, 'the offer');
    await s.manager.reload();
    assert.equal(asked.length, 1, 'closed: not again in this window');
    assert.equal(answered(), undefined, 'and not remembered, so the next window asks');

    let answer: (a: OfferAnswer) => void = () => undefined;
    answerWith(() => new Promise((r) => (answer = r)));
    await turnOfferOn();
    await waitFor(() => asked.length === 2, 'offered again once the user turned the offer on');
    assert.ok(asked[1]?.some((d) => d.name === 'offer-b'));
    // While the notification waits, offer-a changes and offer-b goes.
    const text = writeServers({ 'offer-a': server('offer-a', { OFFER_TAG: 'changed' }), 'offer-c': server('offer-c') });
    await waitFor(() => !vscodeNames().includes('offer-b'), 'offer-b gone from the file');
    answer('routeAll');
    await waitFor(() => routedNames().includes('offer-a'), 'routed');
    assert.deepEqual(routedNames(), ['fixture', 'fixture-http', 'offer-a', 'offer-c'], 'every server offered that is still VS Code’s');
    await waitFor(() => !!s.manager.get('offer-a')?.ready, 'offer-a runs here', 30_000);
    const def = s.manager.list().find((e) => e.name === 'offer-a')?.resolved?.def;
    assert.equal(def?.type === 'stdio' ? def.env['OFFER_TAG'] : undefined, 'changed', 'routed as defined now, not as offered');
    assert.ok(
      s.hooks.logLines.some((l) => /not routed, no longer a server VS Code runs here: offer-b/.test(l.text)),
      'the server that went is named, not routed',
    );
    assert.equal(readFileSync(mcpJson.path, 'utf8'), text, 'no file changed');
    assert.equal(answered(), 'routeAll');
    assert.deepEqual(vscodeNames(), [], 'VS Code runs none of them for this user now');
  });

  test('Choose: a multi-select of VS Code’s servers, each named by its file; only the ones picked are routed', async () => {
    answerWith('choose');
    const picker = new Promise<ShownPrompt>((resolve) => {
      const sub = s.hooks.onDidShowPrompt((p) => {
        if (p.kind !== 'routingOffer.choose') return;
        sub.dispose();
        resolve(p);
      });
    });
    await turnOfferOn();
    const qp = (await picker).widget as vscode.QuickPick<vscode.QuickPickItem>;
    assert.equal(qp.canSelectMany, true);
    assert.deepEqual(
      qp.items.map((i) => i.label),
      vscodeNames(),
    );
    for (const i of qp.items) assert.equal(i.description, 'run by VS Code · .vscode/mcp.json');
    assert.deepEqual(qp.selectedItems, [], 'nothing picked for the user');
    qp.selectedItems = qp.items.filter((i) => i.label === 'offer-c');
    await acceptQuickInput();
    await waitFor(() => routedNames().length > 0, 'routed');
    assert.deepEqual(routedNames(), ['offer-c']);
    await waitFor(() => answered() === 'choose', 'answered');
    assert.ok(vscodeNames().includes('offer-a') && vscodeNames().includes('fixture'), 'the others stay VS Code’s');
    await s.manager.reload();
    assert.equal(asked.length, 1, 'asked once');
  });
  test('Choose… after every server was routed while the offer waited: it says so instead of an empty picker, and keeps no answer', async () => {
    let answer: (a: OfferAnswer) => void = () => undefined;
    answerWith(() => new Promise((r) => (answer = r)));
    let told = 0;
    const telling = s.hooks.routingOffer.intercept('nothingToChoose', (tell) => () => {
      told++;
      tell();
    });
    const pickers: ShownPrompt[] = [];
    const watching = s.hooks.onDidShowPrompt((p) => {
      if (p.kind === 'routingOffer.choose') pickers.push(p);
    });
    try {
      await turnOfferOn();
      await waitFor(() => asked.length === 1, 'the offer');
      // Meanwhile the user routes every one of them another way (the Route command).
      await vscode.commands.executeCommand('mcpElicitation.routeServer', vscodeNames());
      await waitFor(() => vscodeNames().length === 0, 'every server routed while the offer waited');
      answer('choose');
      await waitFor(() => told === 1, 'told that nothing is left to choose');
      assert.deepEqual(pickers, [], 'no empty picker');
      assert.equal(answered(), undefined, 'not kept as an answer: nothing was chosen');
      assert.ok(s.hooks.logLines.some((l) => /no server VS Code runs is left to route here/.test(l.text)));
    } finally {
      telling.dispose();
      watching.dispose();
    }
  });
});
