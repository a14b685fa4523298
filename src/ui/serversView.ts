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
import { serverRowDescription, serverRowTooltip, type ServerRowFacts, type SignInState } from './wording/serverRow';
import { whereDefinedText } from './wording/serverSource';
import { displayText } from '../elicitation/safety/displayText';
import { MAX_MESSAGE_CHARS } from '../elicitation/safety/text';
import * as safe from '../util/safeText';

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
  stateOf(server: string): SignInState;
  readonly onDidChange: (listener: (server: string) => void) => { dispose(): void };
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
    const signIn = this.signIn.stateOf(entry.name);
    const policy = this.policyFor(entry.name);
    const routed = entry.resolved !== undefined && this.routed(entry.resolved.def);
    const source = entry.resolved?.def.source;
    const facts: ServerRowFacts = {
      name: entry.name,
      state,
      configError: entry.configError?.message,
      transport: entry.resolved?.def.type,
      signIn,
      reach: this.agent.reach(entry.name),
      // A file by its full path (the one to open); our setting by its name, not "workspace settings".
      definedIn: source && (source.kind === 'setting' ? whereDefinedText(source, vscode.l10n) : describeSource(source)),
      routed,
      policy,
    };
    // A config error, a launch error, the name and the server's reported name and version are
    // foreign text: each whole is neutralised, and the tooltip renders literally (no link or markup).
    item.description = displayText(serverRowDescription(facts, vscode.l10n), MAX_MESSAGE_CHARS);
    item.tooltip = safe.markdownTooltip(displayText(serverRowTooltip(facts, vscode.l10n).join('\n'), MAX_MESSAGE_CHARS));
    // `.ours` marks what "Give Back to VS Code" acts on: a routed server, or one of our workspace setting.
    const ours = routed ? '.ours.routed' : entry.resolved && canGiveBackFrom(entry.resolved.def.source) ? '.ours' : '';
    // `.auth-…`: a server that uses sign-in offers Sign In or Sign Out.
    const auth = signIn === 'signedIn' ? '.auth-signedIn' : signIn === 'signedOut' ? '.auth-signedOut' : '';
    item.contextValue = `mcpServer.${state?.kind ?? 'broken'}.policy-${policy}${ours}${auth}`;
    return item;
  }
}
