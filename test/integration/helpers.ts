import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ShownPrompt, TestServices } from '../host/testServices';
import type { FormAnswer, FormPrompt } from '../../src/elicitation/presenter';
import { testServices } from '../host/access';

export { EXTENSION_ID } from '../host/access';
export type { ShownPrompt } from '../host/testServices';

/** The extension's services, as the test build in this host made them (test/host/testServices.ts). */
export function services(): Promise<TestServices> {
  return testServices();
}

/** Answers each form in the user's place (until `done` is disposed); records what each showed. */
export function answering(s: TestServices, answer: (p: FormPrompt) => FormAnswer): { prompts: FormPrompt[]; done: vscode.Disposable } {
  const prompts: FormPrompt[] = [];
  const done = s.hooks.presenter.intercept('presentForm', () => (prompt) => {
    prompts.push(prompt);
    return Promise.resolve(answer(prompt));
  });
  return { prompts, done };
}

/** Polls `predicate` until true; the only wait in these tests, bounded and with a reason. */
export async function waitFor(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const t0 = Date.now();
  while (!predicate()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Sets `mcpElicitation.serverPolicy` in the workspace and waits until the gatekeeper enforces it. */
export async function setPolicy(s: TestServices, value: Record<string, string>): Promise<void> {
  await vscode.workspace.getConfiguration('mcpElicitation').update('serverPolicy', value, vscode.ConfigurationTarget.Workspace);
  await waitFor(() => Object.entries(value).every(([k, v]) => s.gatekeeper.explicitPolicy(k) === v), 'policy in force');
}

/**
 * The user's own choice to send `servers`' samples to the model with no consent and no review
 * (`mcpElicitation.sampling.skipReview`, user settings only: no elicitation policy implies it).
 * Resolves once the host reads it; undefined clears it.
 */
export async function skipSamplingReview(servers: readonly string[] | undefined): Promise<void> {
  const value = servers ? Object.fromEntries(servers.map((n) => [n, true])) : undefined;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
  await config().update('sampling.skipReview', value, vscode.ConfigurationTarget.Global);
  await waitFor(
    () => JSON.stringify(config().inspect('sampling.skipReview')?.globalValue) === JSON.stringify(value),
    'sampling.skipReview in force',
  );
}

export async function waitForRunning(s: TestServices, name: string): Promise<void> {
  await waitFor(() => s.manager.get(name)?.state.kind === 'running', `server ${name} running`);
}

/** Resolves with the next prompt the presenter shows. */
export function nextPrompt(s: TestServices, timeoutMs = 20_000): Promise<ShownPrompt> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error('no prompt was shown'));
    }, timeoutMs);
    const sub = s.hooks.onDidShowPrompt((e) => {
      clearTimeout(timer);
      sub.dispose();
      resolve(e);
    });
  });
}

/** The text of an InputBox validation message, whichever form it takes. */
export function messageText(m: string | vscode.InputBoxValidationMessage | undefined): string {
  return typeof m === 'string' ? m : (m?.message ?? '');
}

/** What the fixture server's `elicit` tool reports it received on the wire. */
export interface WireRecord {
  readonly kind: 'result' | 'error' | 'cancelled';
  readonly response?: { action: string; content?: Record<string, unknown> };
  readonly error?: { code?: number; message: string };
}

export function parseToolText(result: unknown): WireRecord {
  const r = result as { content: { type: string; text: string }[] };
  const text = r.content[0]?.text ?? '';
  return JSON.parse(text) as WireRecord;
}

/** Starts an `elicit` tool call on `server`; the promise settles when the user's answer reached the server. */
export function elicitVia(server: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<WireRecord> {
  return Promise.resolve(vscode.commands.executeCommand('mcpElicitation.runTool', server, 'elicit', { params, ...extra })).then(
    parseToolText,
  );
}

/**
 * The extension host batches QuickInput property updates on a zero-delay timer before sending
 * them to the workbench; let that timer run so a following command sees the new state.
 */
export async function acceptQuickInput(): Promise<void> {
  await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setTimeout(r, 0));
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

/** The workspace's `.vscode/mcp.json` as a suite found it; `restore()` writes that back. */
export function workspaceMcpJson(): { readonly path: string; readonly original: string; restore(): void } {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the in-host suite runs with a workspace folder');
  const file = path.join(folder.uri.fsPath, '.vscode', 'mcp.json');
  const original = readFileSync(file, 'utf8');
  return { path: file, original, restore: () => writeFileSync(file, original) };
}

/**
 * Starts an HTTP fixture server (`test/fixtures/*.mjs`, or the Python one with `python3`, which
 * print `LISTENING <port>`) on a free loopback port and resolves with its MCP URL. The child goes
 * into `children`, which the suite kills.
 */
export async function startHttpFixture(
  script: string,
  args: readonly string[],
  children: ChildProcess[],
  env: NodeJS.ProcessEnv = {},
  command = 'node',
): Promise<string> {
  const child = spawn(command, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${path.basename(script)} did not start`)), 15_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
  });
  return `http://127.0.0.1:${port}/mcp`;
}
