/**
 * The check every `sampling/createMessage` passes before anything is shown or sent to a model:
 * pushed by a 2025-11-25 server or asked in a 2026-07-28 `input_required` round. A request we
 * would refuse shows nothing and is answered -32602 with the reason (see samplingBroker.ts).
 *
 * We declare `sampling: {}`: no `tools`, no `context`. So, as the spec says:
 * - `tools` or `toolChoice` in the request is an error ("The client MUST return an error if this
 *   field is provided but sampling.tools is not declared"), and so is tool_use/tool_result content;
 * - `includeContext` "thisServer"/"allServers" is ignored ("The client MAY ignore this request"):
 *   the request runs as if it said "none", and the log says so.
 */

/** The most messages one request may carry; a real conversation is far below this. */
export const MAX_MESSAGES = 1_000;
/** The most text (text parts, system prompt, base64 data) one request may carry, in UTF-16 units. */
export const MAX_TEXT_CHARS = 1_000_000;

export type SamplingRole = 'user' | 'assistant';

/** One content part as we pass it on: text, or an image/audio the model may or may not take. */
export type SamplingPart =
  { readonly type: 'text'; readonly text: string } | { readonly type: 'image' | 'audio'; readonly data: string; readonly mimeType: string };

export interface SamplingMessage {
  readonly role: SamplingRole;
  readonly content: readonly SamplingPart[];
}

export interface ModelPreferences {
  /** Substrings of model names, in the server's order of preference. */
  readonly hints: readonly string[];
  readonly costPriority: number | undefined;
  readonly speedPriority: number | undefined;
  readonly intelligencePriority: number | undefined;
}

/** A request that passed the checks, normalised (content always an array). */
export interface SamplingRequest {
  readonly messages: readonly SamplingMessage[];
  readonly systemPrompt: string | undefined;
  readonly maxTokens: number;
  readonly temperature: number | undefined;
  readonly stopSequences: readonly string[] | undefined;
  readonly preferences: ModelPreferences;
  /** The `includeContext` asked for and ignored (we do not declare `sampling.context`). */
  readonly ignoredContext: 'thisServer' | 'allServers' | undefined;
}

export type CheckResult = { readonly ok: true; readonly request: SamplingRequest } | { readonly ok: false; readonly reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class Refusal extends Error {}
const refuse = (reason: string): never => {
  throw new Refusal(reason);
};

/** Checks the raw params of one `sampling/createMessage`; the reason names the property at fault. */
export function checkSamplingRequest(raw: unknown): CheckResult {
  try {
    return { ok: true, request: check(raw) };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: err.message };
    throw err;
  }
}

function check(raw: unknown): SamplingRequest {
  if (!isObject(raw)) refuse('params must be an object');
  const p = raw as Record<string, unknown>;
  if (p['tools'] !== undefined || p['toolChoice'] !== undefined) {
    refuse(
      `${p['tools'] !== undefined ? 'tools' : 'toolChoice'}: this client does not declare sampling.tools; tool use in sampling is not offered`,
    );
  }
  const messages = p['messages'];
  if (!Array.isArray(messages)) refuse('messages: must be an array');
  const list = messages as unknown[];
  if (list.length === 0) refuse('messages: must not be empty');
  if (list.length > MAX_MESSAGES) refuse(`messages: ${list.length} messages is more than this client accepts (${MAX_MESSAGES})`);
  const budget = { left: MAX_TEXT_CHARS };
  const systemPrompt = optionalString(p, 'systemPrompt', budget);
  const checked = list.map((m, i) => checkMessage(m, i, budget));
  const maxTokens = p['maxTokens'];
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    refuse(`maxTokens: must be a positive integer (got ${JSON.stringify(maxTokens ?? null).slice(0, 20)})`);
  }
  const temperature = p['temperature'];
  if (temperature !== undefined && (typeof temperature !== 'number' || !Number.isFinite(temperature))) {
    refuse('temperature: must be a number');
  }
  const stop = p['stopSequences'];
  if (stop !== undefined && (!Array.isArray(stop) || stop.some((s) => typeof s !== 'string'))) {
    refuse('stopSequences: must be an array of strings');
  }
  const context = p['includeContext'];
  if (context !== undefined && context !== 'none' && context !== 'thisServer' && context !== 'allServers') {
    refuse('includeContext: must be "none", "thisServer" or "allServers"');
  }
  return {
    messages: checked,
    systemPrompt,
    maxTokens: maxTokens as number,
    temperature: temperature as number | undefined,
    stopSequences: stop as string[] | undefined,
    preferences: checkPreferences(p['modelPreferences']),
    ignoredContext: context === 'thisServer' || context === 'allServers' ? context : undefined,
  };
}

function optionalString(p: Record<string, unknown>, key: string, budget: { left: number }): string | undefined {
  const v = p[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') refuse(`${key}: must be a string`);
  spend(budget, (v as string).length);
  return v as string;
}

function spend(budget: { left: number }, chars: number): void {
  budget.left -= chars;
  if (budget.left < 0) refuse(`messages: more than ${MAX_TEXT_CHARS} characters of text and data in one request`);
}

function checkMessage(raw: unknown, i: number, budget: { left: number }): SamplingMessage {
  const at = `messages[${i}]`;
  if (!isObject(raw)) refuse(`${at}: must be an object`);
  const m = raw as Record<string, unknown>;
  const role = m['role'];
  if (role !== 'user' && role !== 'assistant') {
    refuse(`${at}.role: unknown role ${JSON.stringify(role ?? null).slice(0, 40)} (expected "user" or "assistant")`);
  }
  const content = m['content'];
  const parts = Array.isArray(content) ? content : [content];
  if (parts.length === 0) refuse(`${at}.content: must not be empty`);
  return {
    role: role as SamplingRole,
    content: parts.map((c, j) => checkPart(c, Array.isArray(content) ? `${at}.content[${j}]` : `${at}.content`, budget)),
  };
}

function checkPart(raw: unknown, at: string, budget: { left: number }): SamplingPart {
  if (!isObject(raw)) refuse(`${at}: must be an object`);
  const c = raw as Record<string, unknown>;
  const type = c['type'];
  switch (type) {
    case 'text': {
      if (typeof c['text'] !== 'string') refuse(`${at}.text: must be a string`);
      spend(budget, (c['text'] as string).length);
      return { type, text: c['text'] as string };
    }
    case 'image':
    case 'audio': {
      if (typeof c['data'] !== 'string' || typeof c['mimeType'] !== 'string') {
        refuse(`${at}: ${type} content needs data and mimeType strings`);
      }
      spend(budget, (c['data'] as string).length);
      return { type, data: c['data'] as string, mimeType: c['mimeType'] as string };
    }
    case 'tool_use':
    case 'tool_result':
      return refuse(`${at}.type: ${type} content needs sampling.tools, which this client does not declare`);
    default:
      return refuse(`${at}.type: unknown content type ${JSON.stringify(type ?? null).slice(0, 40)} (expected "text", "image" or "audio")`);
  }
}

function priority(prefs: Record<string, unknown>, key: string): number | undefined {
  const v = prefs[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !(v >= 0 && v <= 1)) refuse(`modelPreferences.${key}: must be a number from 0 to 1`);
  return v as number;
}

function checkPreferences(raw: unknown): ModelPreferences {
  if (raw === undefined) return { hints: [], costPriority: undefined, speedPriority: undefined, intelligencePriority: undefined };
  if (!isObject(raw)) refuse('modelPreferences: must be an object');
  const prefs = raw as Record<string, unknown>;
  const hints = prefs['hints'];
  if (hints !== undefined && !Array.isArray(hints)) refuse('modelPreferences.hints: must be an array');
  // A hint without a usable name is no preference: skipped, as the spec lets the client ignore hints.
  const names = ((hints as unknown[] | undefined) ?? []).flatMap((h) =>
    isObject(h) && typeof h['name'] === 'string' && h['name'].trim() !== '' ? [h['name'].trim().slice(0, 200)] : [],
  );
  return {
    hints: names.slice(0, 20),
    costPriority: priority(prefs, 'costPriority'),
    speedPriority: priority(prefs, 'speedPriority'),
    intelligencePriority: priority(prefs, 'intelligencePriority'),
  };
}

/** All the text of a request: what the consent and the audit summarise. */
export function textOf(message: SamplingMessage): string {
  return message.content.map((p) => (p.type === 'text' ? p.text : `[${p.type} ${p.mimeType}]`)).join('\n');
}
