import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { normaliseRequestedSchema } from '../elicitation/form/schema';
import { createAjv, withoutDialect } from '../elicitation/form/ajvFactory';
import type { Presenter } from '../elicitation/presenter';
import type { Connection } from '../servers/connection';

/**
 * Arguments for "Run Tool…". A tool's inputSchema is JSON Schema, so when it fits the elicitation
 * subset the same form renderer collects it; otherwise a JSON InputBox validated against the schema.
 */
export async function collectToolArgs(presenter: Presenter, conn: Connection, tool: Tool): Promise<Record<string, unknown> | undefined> {
  const props = tool.inputSchema.properties ?? {};
  if (Object.keys(props).length === 0) return {};
  const asker = { name: conn.name, info: vscode.l10n.t('Run Tool: {0}', tool.name) };
  const normalised = normaliseRequestedSchema(tool.inputSchema);
  if (normalised.ok) {
    const answer = await presenter.presentForm(
      { id: `tool:${tool.name}`, asker, message: tool.description ?? tool.name, form: normalised.form, warnings: [] },
      new AbortController().signal,
    );
    return answer.action === 'accept' ? answer.content : undefined;
  }
  const validate = createAjv().compile(withoutDialect(tool.inputSchema));
  const raw = await vscode.window.showInputBox({
    title: vscode.l10n.t('Arguments for {0} (JSON)', tool.name),
    prompt: tool.description ?? '',
    value: '{}',
    ignoreFocusOut: true,
    validateInput: (text) => {
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch (e) {
        return vscode.l10n.t('Not valid JSON: {0}', e instanceof Error ? e.message : String(e));
      }
      if (!validate(v)) return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
      return undefined;
    },
  });
  return raw === undefined ? undefined : (JSON.parse(raw) as Record<string, unknown>);
}
