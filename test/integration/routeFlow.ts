// What the Route tests do with VS Code's own copy of a server and with ours, as the agent and the
// user would: start a copy the way chat does, call its `pid` tool, choose "Enable" in VS Code's
// server options, and which client started a copy. Shared by gatewayModel.test.ts
// (`.vscode/mcp.json`), routeSources.test.ts (every other source VS Code reads) and
// multiRoot.test.ts (a multi-root workspace).
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { recordedLines } from './fixtureRecord';
import { EXTENSION_ID, waitFor, waitForRunning } from './helpers';

/**
 * The agent's tools named `tool` of the servers labelled `label`. VS Code prefixes tool names with
 * the server's name and the label, shortened uniquely per server: the two copies of `gw-move`
 * became `mcp_fixture_gw-mo_pid` and `mcp_fixture_gw-m2_pid` in 1.139. So the labels of one test
 * must differ in their first four characters, and from `fixture`.
 */
export function agentTools(label: string, tool: string): vscode.LanguageModelToolInformation[] {
  const part = `_${label.slice(0, 4)}`;
  return vscode.lm.tools.filter((t) => t.name.startsWith('mcp_') && t.name.includes(part) && t.name.endsWith(`_${tool}`));
}

export async function invokeText(tool: vscode.LanguageModelToolInformation, input: object = {}): Promise<string> {
  const result = await vscode.lm.invokeTool(tool.name, { input, toolInvocationToken: undefined });
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/**
 * The names the clients gave that completed an initialize with the fixture recording to `file`,
 * oldest first: whose client (VS Code's or ours) started which copy.
 */
export function initializedClients(file: string): string[] {
  return recordedLines(file)
    .filter((r) => r['kind'] === 'initialized')
    .map((r) => (r['clientInfo'] as { name?: string } | undefined)?.name ?? '');
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pids the agent's `pid` tools of `label` answer with, one per tool listed. */
export async function agentPids(label: string): Promise<number[]> {
  const out: number[] = [];
  for (const t of agentTools(label, 'pid')) out.push(await invokeText(t).then(Number, () => NaN));
  return out;
}

/**
 * Starts the server VS Code lists under `id` as chat would, until the one pid tool of the label
 * answers from a process `accept` accepts; returns that pid.
 */
export async function startInVscode(label: string, id: string, accept: (pid: number) => boolean, what: string): Promise<number> {
  const t0 = Date.now();
  let seen: number[] = [];
  while (Date.now() - t0 < 60_000) {
    await vscode.commands.executeCommand('workbench.mcp.startServer', id, { waitForLiveTools: true });
    // A tool of the copy VS Code just disabled may linger in the list a moment: not contributed any more.
    seen = await agentPids(label);
    if (seen.length === 1 && seen[0] !== undefined && accept(seen[0])) return seen[0];
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(
    `${what}: the agent's pid tools answered ${JSON.stringify(seen)} (tools: ${vscode.lm.tools
      .map((t) => t.name)
      .filter((n) => n.startsWith('mcp_'))
      .join(', ')})`,
  );
}

/**
 * Runs `command` (which opens VS Code's own options for a server, workbench.mcp.serverOptions) and
 * chooses "Enable", the first item VS Code lists for a disabled server, as the user would.
 */
export async function chooseEnable(command: () => Thenable<unknown>): Promise<void> {
  let done = false;
  const shown = Promise.resolve(command()).finally(() => (done = true));
  for (let i = 0; i < 200 && !done; i++) {
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await new Promise((r) => setTimeout(r, 100));
  }
  await shown;
}

/** The id VS Code gives our gateway's copy of `label`. */
export const ourVscodeId = (label: string): string => `${EXTENSION_ID.toLowerCase()}/${label}`;

/** Waits until VS Code has a session with the gateway's copy of `name` (it then knows that copy). */
export async function connectOurCopy(s: TestServices, name: string): Promise<void> {
  const t0 = Date.now();
  while (s.gateway.reach(name).kind !== 'offered' || (s.gateway.reach(name) as { sessions: number }).sessions === 0) {
    if (Date.now() - t0 > 60_000) throw new Error(`VS Code never connected to the routed copy of ${name}`);
    await vscode.commands.executeCommand('workbench.mcp.startServer', ourVscodeId(name));
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * The whole round trip for one server VS Code runs from `file`, whose text is `text`: VS Code's
 * copy runs and answers the agent; Route (one command) and the user's "Enable" in VS Code's menu
 * stop it and make the agent's one `pid` tool answer from the process we manage; the file keeps
 * every byte; Give Back and "Enable" for VS Code's copy make VS Code's copy answer again.
 */
export async function routeRoundTrip(s: TestServices, o: { name: string; file: string; text: string; vscodeId: string }): Promise<void> {
  const { name, file, text, vscodeId } = o;
  await waitFor(() => s.manager.vscodeOwned().some((d) => d.name === name), `${name} listed as VS Code's`, 30_000);
  assert.equal(s.manager.get(name), undefined, 'we do not run it');
  assert.equal(s.gateway.has(name), false, 'nor offer it to the agent (VS Code lists it itself)');

  const theirs = await startInVscode(name, vscodeId, () => true, `VS Code's copy (${vscodeId})`);
  assert.ok(alive(theirs));
  assert.equal(await vscode.commands.executeCommand<boolean>('mcpElicitation.routeServer', name), true);
  await waitForRunning(s, name);
  assert.equal(readFileSync(file, 'utf8'), text, `${file} unchanged: a teammate keeps the server`);
  assert.ok(!s.manager.vscodeOwned().some((d) => d.name === name), "no longer listed as VS Code's");
  await waitFor(() => s.gateway.has(name), 'offered through the gateway');
  assert.equal(s.gateway.definitions().find((d) => d.name === name)?.label, name, "under the label of VS Code's copy");

  await connectOurCopy(s, name);
  await chooseEnable(() => vscode.commands.executeCommand('mcpElicitation.enableRoutedInVscode', name));
  await waitFor(() => !alive(theirs), 'VS Code stopped its copy', 45_000);
  const ours = await startInVscode(name, ourVscodeId(name), (pid) => pid === s.manager.get(name)?.pid, 'our copy for the agent');
  assert.notEqual(ours, theirs);
  assert.deepEqual(await agentPids(name), [ours], "VS Code's disabled copy lists no tools: the agent reaches ours only");

  assert.equal(await vscode.commands.executeCommand<boolean>('mcpElicitation.giveBackServer', name), true);
  await waitFor(() => !s.manager.get(name) && !s.gateway.has(name) && s.manager.vscodeOwned().some((d) => d.name === name), 'given back');
  assert.equal(readFileSync(file, 'utf8'), text, `${file} still unchanged`);
  assert.equal(s.routes.all().length, 0, 'no route left');
  await chooseEnable(() => vscode.commands.executeCommand('workbench.mcp.serverOptions', vscodeId));
  const again = await startInVscode(name, vscodeId, (pid) => pid !== ours, "VS Code's copy again");
  assert.ok(alive(again));
  await vscode.commands.executeCommand('workbench.mcp.stopServer', vscodeId);
}
