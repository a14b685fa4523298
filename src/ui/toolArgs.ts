import type { Tool } from '@modelcontextprotocol/client';
import { normaliseRequestedSchema } from '../elicitation/form/schema';
import { createAjv, withoutDialect } from '../elicitation/form/ajvFactory';
import type { Presenter } from '../elicitation/presenter';
import type { Connection } from '../servers/connection';
import { displayText } from '../elicitation/safety/displayText';
import { formForDisplay, MAX_MESSAGE_CHARS } from '../elicitation/safety/text';
import * as safe from '../util/safeText';

/**
 * Arguments for "Run Tool…". A tool's inputSchema is JSON Schema, so when it fits the elicitation
 * subset the same form renderer collects it; otherwise a JSON InputBox validated against the schema.
 */
export async function collectToolArgs(presenter: Presenter, conn: Connection, tool: Tool): Promise<Record<string, unknown> | undefined> {
  const props = tool.inputSchema.properties ?? {};
  if (Object.keys(props).length === 0) return {};
  // The tool's name, description and schema are the server's text, like an elicitation's.
  const asker = { name: conn.name, info: safe.l10n.t('Run Tool: {0}', displayText(tool.name)) };
  const description = displayText(tool.description ?? tool.name, MAX_MESSAGE_CHARS);
  const normalised = normaliseRequestedSchema(tool.inputSchema);
  if (normalised.ok) {
    const display = formForDisplay(normalised.form);
    const answer = await presenter.presentForm(
      { id: `tool:${tool.name}`, asker, message: description, form: display.form, warnings: display.notes },
      new AbortController().signal,
    );
    return answer.action === 'accept' ? answer.content : undefined;
  }
  const validate = createAjv().compile(withoutDialect(tool.inputSchema));
  const raw = await safe.showInputBox({
    title: safe.l10n.t('Arguments for {0} (JSON)', displayText(tool.name)),
    prompt: description,
    value: '{}',
    ignoreFocusOut: true,
    validateInput: (text) => {
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch (e) {
        return safe.l10n.t('Not valid JSON: {0}', displayText(e instanceof Error ? e.message : String(e)));
      }
      // Ajv's messages quote the schema (a pattern, an enum value): server text, neutralised.
      if (!validate(v)) {
        return displayText((validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; '), MAX_MESSAGE_CHARS);
      }
      return undefined;
    },
  });
  return raw === undefined ? undefined : (JSON.parse(raw) as Record<string, unknown>);
}
