/**
 * The workspace-trust gate: a server defined by the workspace (its mcp.json or workspace
 * settings) runs code the workspace chose, so it starts only in a trusted workspace. Servers the
 * user defined in user settings always may.
 */
export function mayStart(server: { readonly workspaceDefined: boolean }, workspaceTrusted: boolean): boolean {
  return workspaceTrusted || !server.workspaceDefined;
}

/** Whether a definition's source is the workspace's rather than the user's. */
export function isWorkspaceDefined(source: { readonly kind: 'workspaceFile' } | { readonly kind: 'userFile' } | { readonly kind: 'setting'; readonly scope: 'user' | 'workspace' | 'workspaceFolder' }): boolean {
  if (source.kind === 'setting') return source.scope !== 'user';
  return source.kind === 'workspaceFile';
}
