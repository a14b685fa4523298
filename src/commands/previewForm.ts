import * as vscode from 'vscode';
import type * as Preview from '../elicitation/form/preview';
import type { PreviewNote, PreviewProblem } from '../elicitation/form/preview';
import { defaultValues } from '../elicitation/form/validator';
import { showFormPanel } from '../ui/form/formPanel';
import { showUrlConsent, urlReasonText } from '../ui/urlConsent';
import { analyseUrl } from '../elicitation/safety/urlAnalysis';
import { formWarningText } from '../ui/wording/formText';
import { schemaNoteText } from '../elicitation/form/sentences';
import { displayText } from '../elicitation/safety/displayText';
import { MAX_MESSAGE_CHARS } from '../elicitation/safety/text';
import * as safe from '../util/safeText';

/** A problem as the server author reads it; -32602 reasons stay in English, as servers receive them. */
let previewModule: typeof Preview | undefined;
/** The payload checker loads on first use (dist/preview.js, scripts/build.mjs): few sessions preview forms. */
function preview(): typeof Preview {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load; see scripts/build.mjs
  previewModule ??= require('../elicitation/form/preview') as typeof Preview;
  return previewModule;
}

function noteText(note: PreviewNote): string {
  switch (note.kind) {
    case 'reason':
      return note.text;
    case 'notJson':
      return vscode.l10n.t('Not valid JSON (line {0}, column {1}): {2}', note.line, note.column, note.detail);
    case 'notRequest':
      return vscode.l10n.t(
        'Expected an elicitation/create request, its params, or a requestedSchema (an object schema with "properties").',
      );
    case 'schema':
      return schemaNoteText(note.note, vscode.l10n);
    case 'form':
      return formWarningText(note.warning, vscode.l10n);
    case 'url':
      return `url: ${urlReasonText(note.reason)}`;
  }
}

/** Where a problem about `property` sits in the document: its key, or the top. */
function rangeOf(doc: vscode.TextDocument, p: PreviewProblem): vscode.Range {
  if (p.property) {
    const at = doc.getText().indexOf(`"${p.property}"`);
    if (at >= 0) return new vscode.Range(doc.positionAt(at), doc.positionAt(at + p.property.length + 2));
  }
  return new vscode.Range(0, 0, 0, 1);
}

async function showWouldSend(result: unknown): Promise<void> {
  const doc = await vscode.workspace.openTextDocument({
    language: 'json',
    content: `// ${vscode.l10n.t('Preview: this result would be sent to the server')}\n${JSON.stringify(result, null, 2)}\n`,
  });
  await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
}

/**
 * "MCP Elicitation: Preview Elicitation Form": for server authors. Renders the active editor's
 * request exactly as a server's would be, lists violations as diagnostics, and on Accept shows the
 * result that would be sent instead of sending it.
 */
export async function previewForm(extensionUri: vscode.Uri, diagnostics: vscode.DiagnosticCollection, onShown?: () => void): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void safe.showInformationMessage(safe.l10n.t('Open a JSON file with an elicitation/create request, its params, or a requestedSchema.'));
    return;
  }
  const doc = editor.document;
  const result = preview().checkElicitationPayload(doc.getText());
  const warnings = result.kind === 'invalid' ? [] : result.warnings;
  diagnostics.set(doc.uri, [
    ...result.violations.map((v) =>
      Object.assign(new vscode.Diagnostic(rangeOf(doc, v), noteText(v.note), vscode.DiagnosticSeverity.Error), {
        source: 'MCP elicitation',
      }),
    ),
    ...warnings.map((w) =>
      Object.assign(new vscode.Diagnostic(rangeOf(doc, w), noteText(w.note), vscode.DiagnosticSeverity.Warning), {
        source: 'MCP elicitation',
      }),
    ),
  ]);
  if (result.violations.length > 0) {
    const list = result.violations.map((v) => `• ${noteText(v.note)}`).join('\n');
    void safe
      .showErrorMessage(
        safe.l10n.t('A client would reject this request with -32602 ({0} problem(s)).', result.violations.length),
        { modal: false, detail: displayText(list, MAX_MESSAGE_CHARS) },
        vscode.l10n.t('Show Problems'),
      )
      .then((c) => c && vscode.commands.executeCommand('workbench.actions.view.problems'));
    return;
  }
  const asker = { name: vscode.l10n.t('Preview'), info: displayText(vscode.workspace.asRelativePath(doc.uri)) };
  if (result.kind === 'url') {
    const answer = await showUrlConsent(
      { id: 'preview', asker, message: displayText(result.message, MAX_MESSAGE_CHARS), url: result.url, analysis: analyseUrl(result.url) },
      new AbortController().signal,
      // Preview never opens anything: it shows what the user would have agreed to, and what the
      // server would get had the page opened.
      { openExternal: () => Promise.resolve(true), onBlockServer: () => undefined },
    );
    await showWouldSend({ action: answer.action });
    return;
  }
  if (result.kind !== 'form' || !result.form) return;
  const outcome = await showFormPanel({
    extensionUri,
    form: result.form,
    signal: new AbortController().signal,
    ...(onShown ? { onDidShow: onShown } : {}),
    init: {
      requestId: `preview:${doc.uri.toString()}:${doc.version}`,
      attribution: {
        name: asker.name,
        info: asker.info,
        message: result.message || vscode.l10n.t('(no message: a bare requestedSchema)'),
        messageTruncated: false,
      },
      fields: result.form.fields,
      // What the person answering would see; the schema notes are in the Problems view.
      warnings: result.userWarnings,
      values: defaultValues(result.form),
      preview: true,
    },
  });
  await showWouldSend(outcome.action === 'accept' ? { action: 'accept', content: outcome.content } : { action: outcome.action });
}
