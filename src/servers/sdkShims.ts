/**
 * Stands in for `@modelcontextprotocol/client/_shims` and `@modelcontextprotocol/server/_shims` in
 * the bundle (scripts/build.mjs). Each SDK's Node shim brings its own copy of ajv (about 150 KB
 * minified) only to check tool results against their `outputSchema`; this one reuses the ajv the
 * extension already ships for forms (dist/ajv.js), built by the one factory (ajvFactory.ts). The
 * server's shim also exports `process`: its stdio transport's default streams, which the gateway's
 * socket door (socketDoor.ts) replaces with the socket.
 */
import process from 'node:process';
import { createAjv, withoutDialect, type Ajv } from '../elicitation/form/ajvFactory';

export { process };

/** Node's `fetch` never fails for CORS reasons (the SDK's own Node shim says the same). */
export const CORS_IS_POSSIBLE = false;

interface ValidatorResult {
  readonly valid: boolean;
  readonly data: unknown;
  readonly errorMessage: string | undefined;
}

export class DefaultJsonSchemaValidator {
  private engine: Ajv | undefined;

  getValidator(schema: Record<string, unknown>): (input: unknown) => ValidatorResult {
    this.engine ??= createAjv();
    const engine = this.engine;
    let check: ((v: unknown) => boolean) & { errors?: unknown };
    try {
      check = engine.compile(withoutDialect(schema));
    } catch {
      // A schema this draft-07 engine cannot compile: the output check is the client's courtesy to
      // its caller, not a safety boundary, so the result passes unchecked rather than failing.
      return (input) => ({ valid: true, data: input, errorMessage: undefined });
    }
    return (input) =>
      check(input)
        ? { valid: true, data: input, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: engine.errorsText(check.errors as Parameters<Ajv['errorsText']>[0]) };
  }
}
