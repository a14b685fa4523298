import type { McpElicitationHostApi } from '../../api/mcpElicitationHost';

/**
 * What other extensions receive from `activate()`: the members of the public API and nothing
 * else. The object behind it holds the broker and the server manager (TypeScript's `private`
 * is not private at run time), so it never leaves the extension; this frozen object of
 * forwarding functions does, and no property of it leads back to an internal.
 */
export function publicSurface(api: McpElicitationHostApi): McpElicitationHostApi {
  return Object.freeze({
    version: api.version,
    elicit: (params, options) => api.elicit(params, options),
    servers: () => api.servers(),
    onDidChangeServers: (listener, thisArgs?, disposables?) => api.onDidChangeServers(listener, thisArgs, disposables),
    pending: () => api.pending(),
    onDidChangePending: (listener, thisArgs?, disposables?) => api.onDidChangePending(listener, thisArgs, disposables),
  } satisfies McpElicitationHostApi);
}
