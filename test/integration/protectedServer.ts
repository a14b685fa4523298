/**
 * A protected remote MCP server for one in-host sign-in suite: test/fixtures/oauthServer.mjs (an
 * SDK server behind the SDK's bearer gate, with its own authorization server) in our workspace
 * setting, and the consent answered by `present` in place of the user, since code in the host
 * cannot click the modal dialog. `close` puts everything back.
 */
import type { ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SignInAnswer, SignInPrompt } from '../../src/elicitation/presenter';
import type { ServerAt } from '../../src/servers/auth/authStore';
import type { TestServices } from '../host/testServices';
import { startHttpFixture } from './helpers';

const FIXTURE = path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'test', 'fixtures', 'oauthServer.mjs');

/** The "browser": follows the authorization URL, which the fixture approves at once and redirects back. */
export function followInBrowser(prompt: SignInPrompt): Promise<SignInAnswer> {
  void fetch(prompt.url, { redirect: 'follow' }).catch(() => undefined);
  return Promise.resolve('opened');
}

/** Server `name` as its credentials are kept: its name and its configured URL (authStore.ts). */
export function serverAt(s: TestServices, name: string): ServerAt {
  const def = s.manager.get(name)?.definition;
  if (def?.type !== 'http' && def?.type !== 'sse') throw new Error(`${name} is not a configured remote server`);
  return def;
}

export interface ProtectedServer {
  /** The authorization server's origin (its `/fixture/stats` says what it was asked). */
  readonly base: string;
  close(): Promise<void>;
}

export async function protectedServer(
  s: TestServices,
  name: string,
  /** Gets the dialog's signal too: the sign-in calls the dialog off (closes it) by aborting it. */
  present: (prompt: SignInPrompt, signal: AbortSignal) => Promise<SignInAnswer>,
  /** `env`: the fixture's modes (FIXTURE_AUTH_MODE, FIXTURE_CLIENT); `def`: more of the server's definition. */
  options: { readonly env?: Record<string, string>; readonly def?: Record<string, unknown> } = {},
): Promise<ProtectedServer> {
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('mcpElicitation');
  const saved = config().inspect('servers')?.workspaceValue;
  const children: ChildProcess[] = [];
  const url = await startHttpFixture(FIXTURE, ['0', name], children, options.env ?? {});
  const answering = s.hooks.presenter.intercept('presentSignIn', () => present);
  await config().update(
    'servers',
    { ...(saved as Record<string, unknown> | undefined), [name]: { type: 'http', url, ...options.def } },
    vscode.ConfigurationTarget.Workspace,
  );
  return {
    base: new URL(url).origin,
    close: async () => {
      answering.dispose();
      await s.signIn.signOut({ name, url });
      await config().update('servers', saved, vscode.ConfigurationTarget.Workspace);
      for (const c of children) c.kill();
    },
  };
}
