/**
 * Replaces every known secret value, and the values of credential-looking headers and keys in
 * JSON text, with `[redacted]`. Pure, so the rules are unit-tested.
 */
const SENSITIVE_KEY = /"((?:authorization|proxy-authorization|cookie|set-cookie|x-api-key|api[-_]?key|token|access[-_]?token|password|secret)[^"]*)"\s*:\s*"(?:[^"\\]|\\.)*"/gi;

export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text.replace(SENSITIVE_KEY, (_m, key: string) => `"${key}":"[redacted]"`);
  for (const s of secrets) {
    if (s && out.includes(s)) out = out.split(s).join('[redacted]');
  }
  return out;
}
