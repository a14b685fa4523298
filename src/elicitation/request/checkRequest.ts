/**
 * The first step of every elicitation: the raw `elicitation/create` params checked and prepared
 * once, for everything after it (gate, memory, queue, present, record). A request we would
 * reject shows nothing: it is answered -32602 with the reason.
 */
import { ProtocolError as McpError, ProtocolErrorCode as ErrorCode } from '@modelcontextprotocol/client';
import type { FormModel } from '../../shared/fieldModel';
import { english } from '../../shared/localize';
import { normaliseRequestedSchema } from '../form/schema';
import { schemaNoteText } from '../form/sentences';
import { sanitiseForDisplay, MAX_MESSAGE_CHARS } from '../safety/text';
import type { DisplayText } from '../safety/displayText';
import type { Asker } from '../asker';
import type { CallRound } from '../outcome';
import { canRemember } from '../memory/answerMemory';
import { questionFingerprint } from '../memory/fingerprint';

/** A request that passed the checks: everything the later steps need, computed once. */
export interface CheckedRequest {
  readonly id: string;
  readonly asker: Asker;
  readonly mode: 'form' | 'url';
  /** The server's own text, for the form warnings that look at what it really sent. */
  readonly rawMessage: string;
  readonly message: { readonly text: DisplayText; readonly truncated: boolean };
  readonly params: Record<string, unknown>;
  readonly prepared: PreparedForm | PreparedUrl;
  readonly fieldKeys: readonly string[];
  readonly secretKeys: readonly string[];
  readonly started: number;
  readonly round?: CallRound;
  /** Set when the question may be remembered (memory/answerMemory.ts, `canRemember`): its fingerprint. */
  readonly fingerprint?: string;
}

export interface PreparedForm {
  readonly kind: 'form';
  readonly form: FormModel;
}

export interface PreparedUrl {
  readonly kind: 'url';
  readonly url: string;
  readonly elicitationId: string;
}

/** What the check needs of the broker. */
export interface CheckContext {
  readonly log: { info(m: string): void; warn(m: string): void };
  /** Whether answers can be remembered at all (the broker has a memory). */
  readonly remembers: boolean;
  readonly started: number;
  /** The request's id, taken only once it passed (ids stay consecutive). */
  readonly nextId: () => string;
}

function invalid(reason: string): McpError {
  return new McpError(ErrorCode.InvalidParams, reason);
}

/** Checks and prepares one request; throws the -32602 error it is answered with when it fails. */
export function checkRequest(asker: Asker, rawParams: unknown, ctx: CheckContext): CheckedRequest {
  const reject = (logReason: string, reason: string): McpError => {
    ctx.log.warn(`[${asker.name}] rejected elicitation/create (-32602): ${logReason}`);
    return invalid(reason);
  };
  if (typeof rawParams !== 'object' || rawParams === null || Array.isArray(rawParams)) {
    throw reject('params must be an object', 'params must be an object');
  }
  const params = rawParams as Record<string, unknown>;
  // Only an absent mode means form; `null` or any other value is not a mode we know.
  const mode = params['mode'] === undefined ? 'form' : params['mode'];
  if (mode !== 'form' && mode !== 'url') {
    throw reject(
      'unsupported mode',
      `mode: unsupported elicitation mode ${JSON.stringify(mode).slice(0, 40)} (this client supports "form" and "url")`,
    );
  }
  if (typeof params['message'] !== 'string') throw reject('message is not a string', 'message: must be a string');
  const rawMessage = params['message'];
  const prepared = mode === 'form' ? prepareForm(asker, params, rawMessage, ctx.log) : prepareUrl(asker, params, ctx.log);
  const fields = prepared.kind === 'form' ? prepared.form.fields : [];
  const secretKeys = fields.filter((f) => f.secretLike).map((f) => f.key);
  // The exact message and the schema as the server sent it: the sanitised text could make two
  // different questions look alike.
  const fingerprint =
    ctx.remembers && canRemember({ mode, secretKeys }) ? questionFingerprint(asker.name, rawMessage, params['requestedSchema']) : undefined;
  return {
    id: ctx.nextId(),
    asker,
    mode,
    rawMessage,
    message: sanitiseForDisplay(rawMessage, MAX_MESSAGE_CHARS),
    params,
    prepared,
    fieldKeys: fields.map((f) => f.key),
    secretKeys,
    started: ctx.started,
    ...(fingerprint !== undefined ? { fingerprint } : {}),
  };
}

function prepareForm(asker: Asker, params: Record<string, unknown>, message: string, log: CheckContext['log']): PreparedForm {
  const normalised = normaliseRequestedSchema(params['requestedSchema'], message);
  if (!normalised.ok) {
    log.warn(`[${asker.name}] rejected elicitation/create (-32602): ${normalised.error}`);
    throw invalid(normalised.error);
  }
  // Lint for the server's author (enumNames, ignored titles, twin labels) is no risk to the
  // person answering: it goes to the log, not to the prompt.
  for (const note of normalised.notes) log.info(`[${asker.name}] schema note: ${schemaNoteText(note, english)}`);
  return { kind: 'form', form: normalised.form };
}

function prepareUrl(asker: Asker, params: Record<string, unknown>, log: CheckContext['log']): PreparedUrl {
  const url = params['url'];
  const elicitationId = params['elicitationId'];
  if (typeof url !== 'string' || typeof elicitationId !== 'string' || elicitationId.length === 0) {
    log.warn(`[${asker.name}] rejected url elicitation (-32602): url and elicitationId are required`);
    throw invalid(typeof url !== 'string' ? 'url: must be a string in url mode' : 'elicitationId: must be a non-empty string in url mode');
  }
  return { kind: 'url', url, elicitationId };
}
