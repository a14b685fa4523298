/**
 * Routing as a per-user choice (issue 23, item 3). A routed server stays where it is defined (a
 * folder's `.vscode/mcp.json` or `.mcp.json`, a `.code-workspace` file, the profile's `mcp.json`):
 * no file a teammate shares changes. We run it from there, and offer it to VS Code's agent through
 * the gateway under the very label VS Code lists its own copy by.
 *
 * Why the same label: VS Code 1.139's `chat.mcp.collisionBehavior` (default `disable`) groups the
 * servers of all collections by label, case-insensitively, and runs only the first enabled one in
 * collection order; enabling one of a group (VS Code's own "Enable" in its server options, stored
 * per user and per workspace in its `mcp.enablement` state) disables the others for this workspace.
 * Collections are ordered: `.vscode/mcp.json` 0, `.mcp.json` 1, `.code-workspace` 100, the
 * remote user's `mcp.json` 150 (remote windows), the profile's `mcp.json` 200, extension providers
 * (our gateway) 300. So our copy starts out as the disabled twin, and one "Enable" by the user
 * hands the server to us; after that VS Code neither starts its copy nor lists its tools. 1.139 has no command that enables or disables a server, so
 * that "Enable" is the user's, in VS Code's own menu, and Give Back cannot clear what it stored.
 * Copilot Global is read by 1.139 only as a discovered collection (`chat.mcp.discovery.enabled`,
 * order 400, 350 when remote), after ours: a server there is ours, and VS Code's copy yields to it
 * with no click (test/integration/routeSources.test.ts). Read from 1.139's workbench bundle and verified in the real
 * host (test/integration/gatewayModel.test.ts); these are internals of one VS Code version, not API.
 *
 * Routes live in our workspaceState: per user and per workspace, like VS Code's enablement.
 * Pure, no `vscode` import; routeStore.ts keeps them.
 */
import type { ServerSource } from '../config/parse/definitions';

/** One routed server: its key as written, in the file it is written in. */
export interface Route {
  readonly name: string;
  /** The file's path; a `.code-workspace` file for its `settings.mcp`. */
  readonly file: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What workspaceState holds, checked: anything malformed is dropped rather than trusted. */
export function parseRoutes(value: unknown): Route[] {
  if (!Array.isArray(value)) return [];
  const out: Route[] = [];
  for (const r of value) {
    if (isRecord(r) && typeof r['name'] === 'string' && typeof r['file'] === 'string' && r['name'] && r['file']) {
      if (!out.some((o) => sameRoute(o, r as unknown as Route))) out.push({ name: r['name'], file: r['file'] });
    }
  }
  return out;
}

function sameRoute(a: Route, b: Route): boolean {
  return a.name === b.name && a.file === b.file;
}

export function withRoute(routes: readonly Route[], route: Route): Route[] {
  return routes.some((r) => sameRoute(r, route)) ? [...routes] : [...routes, { name: route.name, file: route.file }];
}

export function withoutRoute(routes: readonly Route[], route: Route): Route[] {
  return routes.filter((r) => !sameRoute(r, route));
}

/** A definition as the loader lists it: `writtenAs` when it had to rename it. */
export interface RoutableDef {
  readonly name: string;
  readonly writtenAs?: string;
  readonly source: ServerSource;
}

/** The key as written in its file: the label VS Code lists the server by. */
export function writtenName(def: RoutableDef): string {
  return def.writtenAs ?? def.name;
}

/** The route that would route `def`; undefined for a source VS Code does not read (our setting). */
export function routeOf(def: RoutableDef): Route | undefined {
  return def.source.kind === 'setting' ? undefined : { name: writtenName(def), file: def.source.file };
}

export function isRouted(routes: readonly Route[], def: RoutableDef): boolean {
  const route = routeOf(def);
  return route !== undefined && routes.some((r) => sameRoute(r, route));
}

/**
 * The id VS Code 1.139 gives its own copy of a definition (the argument of its
 * `workbench.mcp.serverOptions`, `startServer` and `stopServer` commands), or undefined where it
 * is not known (Copilot Global, a folder not open). `folderIndex` is the index of the definition's
 * folder among the workspace folders.
 *
 * The user's `mcp.json` we read is the one next to our global storage, on the machine our
 * extension host runs on. In a local window VS Code reads it as the profile's (collection
 * `usrlocal`). In a remote window (code-server, SSH, WSL, a container: `remoteWindow`) our host
 * runs on the remote, and that file is the remote user's `<server data dir>/User/mcp.json`, which
 * VS Code reads as collection `usrremote`. The local profile's `usrlocal` file is on the client,
 * out of our reach (in code-server it is this same file, and VS Code keeps one definition of a
 * name, the remote user's: McpWorkbenchService.getEnabledLocalMcpServers). 1.139's workbench bundle (McpWorkbenchManagementService.getConfigId: scope
 * `user` is `usrlocal`, `remoteUser` is `usrremote`); the remote server's `mcpResource` is
 * `<user-data-dir>/User/mcp.json`. Verified in code-server (test/integration/routeSources.test.ts).
 */
export function vscodeServerId(def: RoutableDef, folderIndex: number | undefined, remoteWindow: boolean): string | undefined {
  const name = writtenName(def);
  const s = def.source;
  if (s.kind === 'setting') return undefined;
  if (s.kind === 'userFile') return s.origin === 'profile' ? `mcp.config.${remoteWindow ? 'usrremote' : 'usrlocal'}.${name}` : undefined;
  if (s.format === 'workspaceSettings') return `mcp.config.workspace.${name}`;
  if (folderIndex === undefined || folderIndex < 0) return undefined;
  return s.format === 'portable' ? `workspace-dot-mcp.${folderIndex}.${name}` : `mcp.config.ws${folderIndex}.${name}`;
}

/** The id VS Code gives a server of an extension's definition provider: the extension id, lowercased, "/", the label. */
export function providerServerId(extensionId: string, label: string): string {
  return `${extensionId.toLowerCase()}/${label}`;
}

/**
 * Whether VS Code 1.139 runs one copy of a label: `chat.mcp.collisionBehavior` is `disable` (its
 * default). With any other value (`suffix`) it builds no collision groups, keeps both copies
 * enabled and lists ours as a second server, so routing cannot take the server from VS Code.
 */
export function collisionPicksOne(collisionBehavior: unknown): boolean {
  return collisionBehavior === undefined || collisionBehavior === 'disable';
}
