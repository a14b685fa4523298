/**
 * The words of one of our servers' rows in the Servers view: the description beside its name and
 * its tooltip. Plain text from the server's facts; the view (ui/serversView.ts) neutralises the
 * result as one whole, since a name, an error or a reported version is foreign text.
 *
 * The row is cut at its end by a sidebar of default width (about 25 characters of description
 * beside a short name), so each row puts first what a user needs on it: the agent's reach on a
 * running server (its transport and version can go, the tooltip has them), the state or error on
 * any other, followed by the reach in a form short enough to stay in view. The tooltip says each
 * fact once, one to a line, under a first line that is only the name and the state.
 */
import { eraLine } from '../../servers/era/eraChoice';
import type { AgentReach } from '../../gateway/gateway';
import type { ServerState } from '../../servers/serverState';
import { serverSentence } from '../../servers/sentences';
import type { Localize } from '../../shared/localize';

/** Whether a server that uses sign-in is signed in (servers/auth/signIn.ts); undefined for one that never asked. */
export type SignInState = 'signedIn' | 'signedOut' | 'signingIn' | undefined;

/** What a server's row says, gathered by the view. */
export interface ServerRowFacts {
  readonly name: string;
  /** Undefined while the server has no connection (a configuration error). */
  readonly state: ServerState | undefined;
  /** The definition's own error, which keeps the server from starting. */
  readonly configError: string | undefined;
  /** The definition's transport (`stdio`, `http`…), known before the server runs. */
  readonly transport: string | undefined;
  readonly signIn: SignInState;
  readonly reach: AgentReach;
  /** Where the server is written: a file's path or our setting; undefined without a definition. */
  readonly definedIn: string | undefined;
  /** The user routed it here from `definedIn` (gateway/routes.ts). */
  readonly routed: boolean;
  readonly policy: string;
}

const SEPARATOR = ' · ';

function signInNote(state: SignInState, l10n: Localize): string | undefined {
  switch (state) {
    case 'signedIn':
      return l10n.t('signed in');
    case 'signedOut':
      return l10n.t('not signed in');
    case 'signingIn':
      return l10n.t('signing in…');
    default:
      return undefined;
  }
}

/**
 * A server of .vscode/mcp.json running here would otherwise look like any of ours: the row says
 * the agent does not get it, beside "offered to the agent" on the rows of ours it does get. After
 * a stop or an error, where the state comes first, "registry only" is what still fits.
 */
function reachNote(reach: AgentReach, running: boolean, l10n: Localize): string | undefined {
  switch (reach.kind) {
    case 'registryOnly':
      return running ? l10n.t('not offered to the agent (registry only)') : l10n.t('registry only');
    case 'offered':
      return reach.sessions > 0 ? l10n.t('agent connected') : l10n.t('offered to the agent');
    default:
      return undefined;
  }
}

/** A server not running: its error, or the word for its state. */
function stateNote(f: ServerRowFacts, l10n: Localize): string {
  if (f.configError !== undefined) return l10n.t('configuration error: {0}', f.configError);
  switch (f.state?.kind) {
    case 'starting':
      return l10n.t('starting…');
    case 'error':
      return f.state.reason;
    case 'untrusted':
      return serverSentence({ key: 'untrusted' }, l10n);
    default:
      return l10n.t('stopped');
  }
}

/** The text beside the server's name. */
export function serverRowDescription(f: ServerRowFacts, l10n: Localize): string {
  const s = f.state;
  const running = s?.kind === 'running' && f.configError === undefined;
  const parts = running
    ? [
        signInNote(f.signIn, l10n),
        reachNote(f.reach, true, l10n),
        s.transport,
        s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : undefined,
        s.protocolVersion ? `MCP ${s.protocolVersion}` : undefined,
      ]
    : // No transport here: it is no state, and it pushed the reach out of view.
      [signInNote(f.signIn, l10n), stateNote(f, l10n), reachNote(f.reach, false, l10n)];
  return parts.filter(Boolean).join(SEPARATOR);
}

/** The state in one word or two, for the tooltip's first line; an error's text goes on the next. */
function stateWord(f: ServerRowFacts, l10n: Localize): string {
  if (f.configError !== undefined) return l10n.t('configuration error');
  switch (f.state?.kind) {
    case 'running':
      return l10n.t('running');
    case 'starting':
      return l10n.t('starting…');
    case 'error':
      return l10n.t('failed');
    case 'untrusted':
      return serverSentence({ key: 'untrusted' }, l10n);
    default:
      return l10n.t('stopped');
  }
}

function signInLine(state: SignInState, l10n: Localize): string | undefined {
  switch (state) {
    case 'signedIn':
      return l10n.t('Signed in');
    case 'signedOut':
      return l10n.t('Not signed in');
    case 'signingIn':
      return l10n.t('Signing in…');
    default:
      return undefined;
  }
}

/** `file`: where the server is written, which `registryOnly` names. */
function reachLine(reach: AgentReach, file: string, l10n: Localize): string {
  switch (reach.kind) {
    case 'offered':
      return l10n.t(
        "VS Code's agent reaches this server through the gateway ({0}); open sessions: {1}. Its questions come here.",
        reach.door,
        reach.sessions,
      );
    case 'agentOff':
      return l10n.t("VS Code's agent: not offered, because VS Code's AI features are turned off.");
    case 'registryOnly':
      return l10n.t(
        'VS Code\'s agent: not offered. chat.mcp.access is "registry", so VS Code runs only servers installed from its MCP registry, not those written in {0}. This extension runs them instead, for Run Tool and other extensions. Once chat.mcp.access is "all" again, VS Code runs them and its agent gets them.',
        file,
      );
    case 'notOffered':
      return l10n.t("VS Code's agent: not offered through the gateway (only servers in the mcpElicitation.servers setting are).");
  }
}

/** Where the server is written, unless the routed line or the reach line names it already. */
function whereLine(f: ServerRowFacts, l10n: Localize): string | undefined {
  if (f.definedIn === undefined) return undefined;
  if (f.routed) {
    return l10n.t(
      'Routed here for you alone; it stays defined in {0}, which is unchanged. VS Code runs it for you once you chose "Enable" for the routed copy in its server options.',
      f.definedIn,
    );
  }
  return f.reach.kind === 'registryOnly' ? undefined : l10n.t('Defined in {0}', f.definedIn);
}

/**
 * The tooltip's lines: the name and the state, then one fact a line (an error, sign-in, transport
 * and what the server reports, where it is defined, the MCP revision, the policy, the agent's reach).
 */
export function serverRowTooltip(f: ServerRowFacts, l10n: Localize): string[] {
  const s = f.state;
  const running = s?.kind === 'running' && f.configError === undefined;
  const transport = s?.kind === 'running' ? s.transport : f.transport;
  return [
    `${f.name} — ${stateWord(f, l10n)}`,
    f.configError ?? (s?.kind === 'error' ? s.reason : undefined),
    signInLine(f.signIn, l10n),
    transport ? l10n.t('Transport: {0}', transport) : undefined,
    running && s.serverInfo ? l10n.t('Server reports: {0} {1}', s.serverInfo.name, s.serverInfo.version) : undefined,
    whereLine(f, l10n),
    running && s.era ? eraLine(s.era, l10n) : running && s.protocolVersion ? l10n.t('MCP revision: {0}', s.protocolVersion) : undefined,
    l10n.t('Elicitation policy: {0}', f.policy),
    reachLine(f.reach, f.definedIn ?? '', l10n),
  ].filter((line): line is string => line !== undefined && line !== '');
}
