/**
 * The language models behind sampling: `vscode.lm`, the same models VS Code's own MCP client and
 * chat use. VS Code itself asks the user before an extension may use a model it does not provide;
 * a "no" there arrives as `LanguageModelError.NoPermissions`, which the broker reports to both
 * the server and the user. The model ids the user chose are remembered per server in the
 * workspace state.
 */
import * as vscode from 'vscode';
import type { ModelInfo } from '../sampling/modelChoice';
import { destinationModelMemory } from '../sampling/modelMemory';
import { ModelAccessError, type ModelAccess, type ModelFailure, type ModelMemory, type ModelReply } from '../sampling/samplingBroker';
import type { SamplingRequest } from '../sampling/samplingRequest';
import { displayText } from '../elicitation/safety/displayText';
import * as safe from '../util/safeText';

/** `vscode.lm` as the sampling broker uses it. */
export class VscodeModels implements ModelAccess {
  /** The model objects of the last listing, by id: `send` needs the object, the broker the id. */
  private readonly chats = new Map<string, vscode.LanguageModelChat>();

  async list(): Promise<readonly ModelInfo[]> {
    const chats = await vscode.lm.selectChatModels();
    this.chats.clear();
    for (const c of chats) this.chats.set(c.id, c);
    return chats.map((c) => ({ id: c.id, name: c.name, family: c.family, vendor: c.vendor, maxInputTokens: c.maxInputTokens }));
  }

  async send(model: ModelInfo, request: SamplingRequest, signal: AbortSignal): Promise<ModelReply> {
    const chat = this.chats.get(model.id) ?? (await vscode.lm.selectChatModels({ id: model.id }))[0];
    if (!chat) throw new ModelAccessError('noModel', `the model ${model.id} is no longer available`);
    const source = new vscode.CancellationTokenSource();
    const onAbort = (): void => source.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await chat.sendRequest(
        toChatMessages(request),
        {
          justification: vscode.l10n.t('An MCP server asked for a reply from a language model (sampling).'),
          // Provider-specific, like VS Code's own MCP sampling: providers that know these honour them.
          modelOptions: {
            maxTokens: request.maxTokens,
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(request.stopSequences ? { stopSequences: request.stopSequences } : {}),
          },
        },
        source.token,
      );
      let text = '';
      for await (const part of response.text) text += part;
      return { text };
    } catch (err) {
      throw toAccessError(err);
    } finally {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }
}

/** The system prompt goes first, as a user message: the stable API has no system role. */
function toChatMessages(request: SamplingRequest): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  if (request.systemPrompt) out.push(vscode.LanguageModelChatMessage.User(request.systemPrompt));
  for (const m of request.messages) {
    const text = m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    out.push(m.role === 'user' ? vscode.LanguageModelChatMessage.User(text) : vscode.LanguageModelChatMessage.Assistant(text));
  }
  return out;
}

function toAccessError(err: unknown): ModelAccessError {
  if (err instanceof ModelAccessError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  if (err instanceof vscode.LanguageModelError) {
    if (err.code === vscode.LanguageModelError.NoPermissions.name) return new ModelAccessError('noPermission', detail);
    if (err.code === vscode.LanguageModelError.Blocked.name) return new ModelAccessError('blocked', detail);
    if (err.code === vscode.LanguageModelError.NotFound.name) return new ModelAccessError('noModel', detail);
  }
  return new ModelAccessError('failed', detail);
}

/**
 * The models accepted for each server, the latest first, kept with the workspace and with where
 * the server was (issue 41): a definition of that name elsewhere does not inherit them. The earlier
 * keys (by name alone) are not read.
 */
export function workspaceModelMemory(state: vscode.Memento, destinationOf: (server: string) => string | undefined): ModelMemory {
  return destinationModelMemory(state, destinationOf);
}

/** Tells the user why a server's sample got no model; the server has its error already. */
export function showModelFailure(server: string, failure: ModelFailure): void {
  const name = displayText(server);
  const text =
    failure === 'noModel'
      ? safe.l10n.t('MCP server “{0}” asked for a reply from a language model, but no language model is available in VS Code.', name)
      : failure === 'noPermission'
        ? safe.l10n.t(
            'MCP server “{0}” asked for a reply from a language model, but this extension has not been allowed to use language models.',
            name,
          )
        : failure === 'blocked'
          ? safe.l10n.t('MCP server “{0}” asked for a reply from a language model; the model refused the request.', name)
          : safe.l10n.t('MCP server “{0}” asked for a reply from a language model; the model failed (see the log).', name);
  void safe.showWarningMessage(text);
}
