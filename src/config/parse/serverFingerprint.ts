/** The fingerprint of a server definition: what decides whether a changed definition needs a restart. */
import type { ServerDefinition } from './definitions';
import { isRecord } from './jsonValues';

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
