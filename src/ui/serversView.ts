import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import type { ServerEntry, ServerManager } from '../servers/serverManager';
import type { ServerState } from '../servers/serverState';
import { Disposable } from '../util/disposable';
import type { ServerPolicy } from '../elicitation/policy/policy';
import type { ServerDefinition } from '../config/parse/definitions';
import { canGiveBackFrom } from '../config/parse/serverMove';
import { describeSource } from '../config/parse/mergeDefinitions';
import { routeOf } from '../gateway/routes';
import type { AgentReach } from '../gateway/gateway';
import { displayText } from '../elicitation/safety/displayText';
import { MAX_MESSAGE_CHARS } from '../elicitation/safety/text';
import * as safe from '../util/safeText';
import { serverSentence } from '../servers/sentences';

export type ServersNode =
  | { readonly kind: 'server'; readonly entry: ServerEntry }
  | { readonly kind: 'tool'; readonly server: string; readonly tool: Tool }
  /** A server of a file VS Code reads, which VS Code runs itself; it can be routed through us. */
  | { readonly kind: 'vscodeServer'; readonly def: ServerDefinition };

/** What the view needs from the gateway: per server, whether VS Code's agent reaches it. */
export interface AgentReachSource {
  reach(name: string): AgentReach;
  readonly onDidChangeSessions: vscode.Event<void>;
  readonly onDidChangeDefinitions: vscode.Event<void>;
}

/** Per server, whether it is signed in (servers/auth/signIn.ts); undefined for one that never asked. */
export interface SignInStateSource {
  stateOf(server: string): 'signedIn' | 'signedOut' | 'signingIn' | undefined;
  readonly onDidChange: (listener: (server: string) => void) => { dispose(): void };
}

function signInDescription(state: ReturnType<SignInStateSource['stateOf']>): string | undefined {
  switch (state) {
    case 'signedIn':
      return vscode.l10n.t('signed in');
    case 'signedOut':
      return vscode.l10n.t('not signed in');
    case 'signingIn':
      return vscode.l10n.t('signing in…');
    default:
      return undefined;
  }
}

function reachDescription(reach: AgentReach): string | undefined {
  // A server of .vscode/mcp.json running here would otherwise look like any of ours: the row says
  // the agent does not get it, beside "offered to the agent" on the rows of ours it does get.
  if (reach.kind === 'registryOnly') return vscode.l10n.t('not offered to the agent (registry only)');
  if (reach.kind !== 'offered') return undefined;
  return reach.sessions > 0 ? vscode.l10n.t('agent connected') : vscode.l10n.t('offered to the agent');
}

/** `file`: where the server is written (its definition's source), which `registryOnly` names. */
function reachTooltip(reach: AgentReach, file: string): string {
  switch (reach.kind) {
    case 'offered':
      return vscode.l10n.t(
        "VS Code's agent reaches this server through the gateway ({0}); open sessions: {1}. Its questions come here.",
        reach.url,
        reach.sessions,
      );
    case 'agentOff':
      return vscode.l10n.t("VS Code's agent: not offered, because VS Code's AI features are turned off.");
    case 'registryOnly':
      return vscode.l10n.t(
        'VS Code\'s agent: not offered. chat.mcp.access is "registry", so VS Code runs only servers installed from its MCP registry, not those written in {0}. This extension runs them instead, for Run Tool and other extensions. Once chat.mcp.access is "all" again, VS Code runs them and its agent gets them.',
        file,
      );
    case 'notOffered':
      return vscode.l10n.t("VS Code's agent: not offered through the gateway (only servers in the mcpElicitation.servers setting are).");
  }
}

function stateIcon(state: ServerState | undefined, hasConfigError: boolean): vscode.ThemeIcon {
  if (hasConfigError || !state) return new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
  switch (state.kind) {
    case 'running':
      return new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('testing.iconPassed'));
    case 'starting':
      return new vscode.ThemeIcon('loading~spin');
    case 'error':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
    case 'untrusted':
      return new vscode.ThemeIcon('shield');
    case 'stopped':
      return new vscode.ThemeIcon('circle-large-outline');
  }
}

function stateDescription(entry: ServerEntry): string {
  if (entry.configError) return vscode.l10n.t('configuration error: {0}', entry.configError.message);
  const s = entry.connection?.state;
  const transport = entry.resolved?.def.type ?? '';
  switch (s?.kind) {
    case 'running':
      return [
        s.transport,
        s.serverInfo ? `${s.serverInfo.name} ${s.serverInfo.version}` : undefined,
        s.protocolVersion ? `MCP ${s.protocolVersion}` : undefined,
      ]
        .filter(Boolean)
        .join(' · ');
    case 'starting':
      return vscode.l10n.t('{0} · starting…', transport);
    case 'error':
      return vscode.l10n.t('{0} · {1}', transport, s.reason);
    case 'untrusted':
      return serverSentence({ key: 'untrusted' }, vscode.l10n);
    default:
      return vscode.l10n.t('{0} · stopped', transport);
  }
}

/** "MCP Servers": each server with its state, and its tools as children. */
export class ServersView extends Disposable implements vscode.TreeDataProvider<ServersNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<ServersNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  constructor(
    private readonly manager: ServerManager,
    private readonly policyFor: (server: string) => ServerPolicy,
    private readonly agent: AgentReachSource,
    private readonly signIn: SignInStateSource,
    /** Servers the user routed through us (gateway/routes.ts). */
    private readonly routed: (def: ServerDefinition) => boolean = () => false,
  ) {
    super();
    this._register(signIn.onDidChange(() => this._onDidChangeTreeData.fire(undefined)));
    this._register(manager.onDidChange(() => this._onDidChangeTreeData.fire(undefined)));
    this._register(agent.onDidChangeSessions(() => this._onDidChangeTreeData.fire(undefined)));
    this._register(agent.onDidChangeDefinitions(() => this._onDidChangeTreeData.fire(undefined)));
  }

  refresh(): void {
    this._onDidChangeTreeData.fire(undefined);
  }

  getChildren(node?: ServersNode): ServersNode[] {
    if (!node) {
      const ours: ServersNode[] = this.manager.list().map((entry) => ({ kind: 'server', entry }));
      const theirs: ServersNode[] = this.manager.vscodeOwned().map((def) => ({ kind: 'vscodeServer', def }));
      return [...ours, ...theirs];
    }
    if (node.kind === 'server') {
      return (node.entry.connection?.tools ?? []).map((tool) => ({ kind: 'tool', server: node.entry.name, tool }));
    }
    return [];
  }

  getTreeItem(node: ServersNode): vscode.TreeItem {
    if (node.kind === 'vscodeServer') {
      // A name and a path from a file VS Code reads: foreign text, like everything a row shows.
      const item = new vscode.TreeItem(displayText(node.def.name), vscode.TreeItemCollapsibleState.None);
      item.id = `vscode:${node.def.name}`;
      item.iconPath = new vscode.ThemeIcon('circle-large-outline', new vscode.ThemeColor('disabledForeground'));
      const file = describeSource(node.def.source);
      item.description = safe.l10n.t('run by VS Code · {0}', displayText(file.split(/[\\/]/).slice(-2).join('/')));
      item.tooltip = safe.markdownTooltip(
        safe.l10n.t(
          '{0} is defined in {1}, so VS Code runs it for its chat and answers its questions itself. Route it through MCP Elicitation Host to run it here and answer its questions in this extension: a choice for you alone, which changes no file.',
          displayText(node.def.name),
          displayText(file),
        ),
      );
      // `.routable`: Route can take it (the menus show Route only then).
      item.contextValue = routeOf(node.def) ? 'vscodeServer.routable' : 'vscodeServer';
      return item;
    }
    if (node.kind === 'tool') {
      const item = new vscode.TreeItem(
        displayText(node.tool.title ?? node.tool.annotations?.title ?? node.tool.name),
        vscode.TreeItemCollapsibleState.None,
      );
      item.description = displayText(node.tool.description?.split('\n')[0] ?? '');
      item.tooltip = safe.markdownTooltip(displayText(`${node.tool.name}\n\n${node.tool.description ?? ''}`, MAX_MESSAGE_CHARS));
      item.iconPath = new vscode.ThemeIcon('tools');
      item.contextValue = 'mcpTool';
      item.command = { command: 'mcpElicitation.runTool', title: vscode.l10n.t('Run Tool…'), arguments: [node.server, node.tool.name] };
      return item;
    }
    const { entry } = node;
    const state = entry.connection?.state;
    const hasTools = (entry.connection?.tools.length ?? 0) > 0;
    const item = new vscode.TreeItem(
      displayText(entry.name),
      hasTools ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    item.id = `server:${entry.name}`;
    item.iconPath = stateIcon(state, entry.configError !== undefined);
    const reach = this.agent.reach(entry.name);
    // A narrow sidebar cuts the description's end. A running server's transport and version can
    // go (the tooltip has them) before the agent's reach; an error or a stop cannot.
    const signIn = this.signIn.stateOf(entry.name);
    const parts =
      state?.kind === 'running' && !entry.configError
        ? [signInDescription(signIn), reachDescription(reach), stateDescription(entry)]
        : [signInDescription(signIn), stateDescription(entry), reachDescription(reach)];
    // A config error, a launch error and the server's reported name are foreign text: one neutralised whole.
    item.description = displayText(parts.filter(Boolean).join(' · '), MAX_MESSAGE_CHARS);
    const policy = this.policyFor(entry.name);
    const routed = entry.resolved !== undefined && this.routed(entry.resolved.def);
    const tip = [
      `${entry.name} — ${item.description}`,
      ...(routed && entry.resolved
        ? [
            vscode.l10n.t(
              'Routed here for you alone; it stays defined in {0}, which is unchanged. VS Code runs it for you once you chose "Enable" for the routed copy in its server options.',
              describeSource(entry.resolved.def.source),
            ),
          ]
        : []),
      ...(state?.kind === 'running' && state.protocolVersion ? [vscode.l10n.t('MCP revision: {0}', state.protocolVersion)] : []),
      vscode.l10n.t('Elicitation policy: {0}', policy),
      reachTooltip(reach, entry.resolved ? describeSource(entry.resolved.def.source) : ''),
    ];
    // The name, a server's error and its reported version are foreign text: one neutralised whole.
    item.tooltip = safe.markdownTooltip(displayText(tip.join('\n'), MAX_MESSAGE_CHARS));
    // `.ours` marks what "Give Back to VS Code" acts on: a routed server, or one of our workspace setting.
    const ours = routed ? '.ours.routed' : entry.resolved && canGiveBackFrom(entry.resolved.def.source) ? '.ours' : '';
    // `.auth-…`: a server that uses sign-in offers Sign In or Sign Out.
    const auth = signIn === 'signedIn' ? '.auth-signedIn' : signIn === 'signedOut' ? '.auth-signedOut' : '';
    item.contextValue = `mcpServer.${state?.kind ?? 'broken'}.policy-${policy}${ours}${auth}`;
    return item;
  }
}
