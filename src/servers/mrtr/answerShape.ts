/**
 * A 2026-07-28 answer is either a round (`input_required`) or a result (`complete`), never both.
 * These are the answers that mix the two or ask for nothing: the SDK would pass them on quietly
 * (it drops a round's `structuredContent`, keeps a result's `inputRequests`, and a round without
 * requests or state would be retried unchanged), so they are turned into one clear error before
 * anything is shown. Pure: hostClient.ts applies it to each response, inputRounds.ts names it.
 */

/** What is wrong with an answer. */
export type AnswerFault =
  /** `input_required` that also carries `structuredContent`: a round is not a result. */
  | 'roundWithResult'
  /** `input_required` with no input requests and no `requestState`: it asks for nothing. */
  | 'emptyRound'
  /** `complete` that still carries `inputRequests`: a result does not ask. */
  | 'resultWithRequests';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fault of one JSON-RPC result, or undefined when it is a plain round or result (or a 2025 result). */
export function answerFault(result: unknown): AnswerFault | undefined {
  if (!isObject(result)) return undefined;
  if (result['resultType'] === 'input_required') {
    if (result['structuredContent'] !== undefined) return 'roundWithResult';
    const requests = result['inputRequests'];
    const asks = isObject(requests) && Object.keys(requests).length > 0;
    if (!asks && typeof result['requestState'] !== 'string') return 'emptyRound';
    return undefined;
  }
  if (result['resultType'] === 'complete' && result['inputRequests'] !== undefined) return 'resultWithRequests';
  return undefined;
}

/** The error code an answer fault travels under to the caller (the server's answer was unusable). */
export const ANSWER_FAULT_CODE = -32603;

const FAULT_TEXT: Readonly<Record<AnswerFault, string>> = {
  roundWithResult: 'the server answered input_required and also sent structuredContent; a round carries no result',
  emptyRound: 'the server answered input_required without input requests or requestState; there is nothing to answer',
  resultWithRequests: 'the server answered complete and still sent inputRequests; a result asks for nothing',
};

/** The JSON-RPC error that stands in for a faulty answer, so its request fails instead of going on. */
export function faultResponse(
  id: string | number,
  fault: AnswerFault,
): { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string; data: { answerFault: AnswerFault } } } {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: ANSWER_FAULT_CODE, message: `Invalid answer: ${FAULT_TEXT[fault]}`, data: { answerFault: fault } },
  };
}

/** The fault a request failed with (see {@link faultResponse}); undefined for any other error. */
export function faultOf(err: unknown): AnswerFault | undefined {
  if (!isObject(err) && !(err instanceof Error)) return undefined;
  const e = err as { code?: unknown; data?: unknown };
  if (e.code !== ANSWER_FAULT_CODE || !isObject(e.data)) return undefined;
  const fault = e.data['answerFault'];
  return fault === 'roundWithResult' || fault === 'emptyRound' || fault === 'resultWithRequests' ? fault : undefined;
}
