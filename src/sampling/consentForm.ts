/**
 * The sampling consent and the reply review as forms: the same presenter, banner, webview (CSP,
 * nonce, escaping) and quick input as any elicitation show them, so a server's messages reach the
 * screen only as the values of text fields, never as markup. The forms are built from a schema we
 * write ourselves and normalised by the one schema normaliser.
 */
import type { AnswerContent, FormModel } from '../shared/fieldModel';
import { MAX_FIELDS, normaliseRequestedSchema } from '../elicitation/form/schema';
import { MAX_TEXT_CHARS, textOf, type SamplingMessage, type SamplingRequest } from './samplingRequest';
import type { ModelInfo } from './modelChoice';

/** The texts of the two forms, in the user's language (the UI layer fills them in). */
export interface SamplingWording {
  /** The consent's message: who asks is in the banner already. */
  consent(model: string, messages: number, unchanged: number): string;
  /** Added to the consent when the server asked for `includeContext`, which we ignore. */
  contextIgnored(): string;
  review(model: string): string;
  modelField(): string;
  systemPromptField(): string;
  messageField(index: number, role: 'user' | 'assistant'): string;
  replyField(): string;
}

const MODEL_KEY = 'model';
const SYSTEM_KEY = 'systemPrompt';
/** Fields left for the model and the system prompt. */
const MAX_MESSAGE_FIELDS = MAX_FIELDS - 2;

export interface ConsentForm {
  readonly form: FormModel;
  /** Index of the first message shown as a field; earlier ones go to the model unchanged. */
  readonly firstEditable: number;
}

const messageKey = (i: number): string => `message${i + 1}`;

function build(schema: Record<string, unknown>): FormModel {
  const n = normaliseRequestedSchema(schema);
  // Our own schema: a failure here is a bug, not a server's fault.
  if (!n.ok) throw new Error(`sampling form: ${n.error}`);
  return n.form;
}

function textField(title: string, value: string): Record<string, unknown> {
  // maxLength above the webview's textarea threshold: long text gets a multi-line box.
  return { type: 'string', title, default: value, maxLength: MAX_TEXT_CHARS };
}

/** The consent: the model to use (preselected), the system prompt and the messages, all editable. */
export function consentForm(request: SamplingRequest, models: readonly ModelInfo[], chosen: ModelInfo, w: SamplingWording): ConsentForm {
  const firstEditable = Math.max(0, request.messages.length - MAX_MESSAGE_FIELDS);
  const properties: Record<string, unknown> = {
    [MODEL_KEY]: {
      type: 'string',
      title: w.modelField(),
      oneOf: models.map((m) => ({ const: m.id, title: m.name === m.id ? m.name : `${m.name} (${m.vendor})` })),
      default: chosen.id,
    },
  };
  if (request.systemPrompt !== undefined) properties[SYSTEM_KEY] = textField(w.systemPromptField(), request.systemPrompt);
  request.messages.forEach((m, i) => {
    if (i < firstEditable) return;
    // Text only: the broker refuses images and audio before a consent is built.
    properties[messageKey(i)] = textField(w.messageField(i + 1, m.role), textOf(m));
  });
  return { form: build({ type: 'object', properties, required: [MODEL_KEY] }), firstEditable };
}

/** The request as the user left it in the consent: edited texts, and the model they accepted. */
export function editedRequest(
  request: SamplingRequest,
  consent: ConsentForm,
  content: AnswerContent,
): { readonly request: SamplingRequest; readonly modelId: string | undefined } {
  const messages = request.messages.map((m, i): SamplingMessage => {
    if (i < consent.firstEditable) return m;
    const edited = content[messageKey(i)];
    const text = typeof edited === 'string' ? edited : '';
    return text === textOf(m) ? m : { role: m.role, content: [{ type: 'text', text }] };
  });
  const system = content[SYSTEM_KEY];
  const modelId = content[MODEL_KEY];
  return {
    request: {
      ...request,
      messages,
      systemPrompt: request.systemPrompt === undefined ? undefined : typeof system === 'string' ? system : '',
    },
    modelId: typeof modelId === 'string' ? modelId : undefined,
  };
}

/** The review: the model's reply, editable, before it goes back to the server. */
export function reviewForm(reply: string, w: SamplingWording): FormModel {
  return build({ type: 'object', properties: { reply: textField(w.replyField(), reply) } });
}

/** The reply as the user left it (an emptied box sends an empty reply). */
export function reviewedReply(content: AnswerContent): string {
  const v = content['reply'];
  return typeof v === 'string' ? v : '';
}
