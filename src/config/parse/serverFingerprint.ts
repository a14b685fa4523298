/**
 * Two fingerprints of a server definition: {@link fingerprint}, what decides whether a changed
 * definition needs a restart, and {@link destination}, where the server is, which decides whether
 * what the user gave a server (its sign-in, remembered answers, model choice, inputs) still belongs
 * to the definition of that name (issue 41).
 */
import type { ServerDefinition } from './definitions';
import { isRecord } from './jsonValues';

/** The part of a definition that says where the server is. */
export type DestinationFields =
  | { readonly type: 'stdio'; readonly command: string; readonly args: readonly string[] }
  | { readonly type: 'http' | 'sse'; readonly url: string };

/**
 * Where a server is: the origin and path of its URL (the query and fragment are left out, as
 * RFC 9728 compares a resource by origin and path), or the command and arguments it runs as.
 * The same name with another destination is another server: nothing the user gave the old one
 * goes to it. A URL that does not parse (it still holds a variable) is kept as written.
 */
export function destination(def: DestinationFields): string {
  if (def.type === 'stdio') return canonicalJson(['stdio', def.command, def.args]);
  return canonicalJson(['remote', urlDestination(def.url)]);
}

/** The origin and path of `url` (`https://host/mcp`), or `url` as written when it does not parse. */
export function urlDestination(url: string): string {
  if (!URL.canParse(url)) return url;
  const u = new URL(url);
  return u.protocol === 'http:' || u.protocol === 'https:' ? `${u.origin}${u.pathname}` : url;
}

/**
 * A stable string that changes exactly when a restart is needed: the transport and launch
 * fields, in canonical JSON (sorted keys). `name` and the settings scope are left out, since
 * moving a server between scopes does not change what runs; a workspace file's folder is kept
 * because `${workspaceFolder}` resolves against it. Fingerprint the substituted definition to
 * also catch changed `${env:…}` or `${input:…}` values.
 */
export function fingerprint(def: ServerDefinition): string {
  const folder = def.source.kind === 'workspaceFile' ? def.source.folder : undefined;
  const fields =
    def.type === 'stdio'
      ? {
          type: def.type,
          command: def.command,
          args: def.args,
          env: def.env,
          envFile: def.envFile,
          cwd: def.cwd,
          folder,
          protocolVersion: def.protocolVersion,
        }
      : {
          type: def.type,
          url: def.url,
          headers: def.headers,
          clientId: def.clientId,
          clientMetadataUrl: def.clientMetadataUrl,
          folder,
          protocolVersion: def.protocolVersion,
        };
  return canonicalJson(fields);
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!isRecord(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      Object.defineProperty(sorted, k, { value: v[k], enumerable: true, writable: true, configurable: true });
    }
    return sorted;
  });
}
