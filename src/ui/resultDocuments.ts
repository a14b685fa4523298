import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Disposable } from '../util/disposable';
import { displayText } from '../elicitation/safety/displayText';
import * as safe from '../util/safeText';

export const RESULT_SCHEME = 'mcp-tool-result';

/**
 * Renders a tool result as readable text, laid out like Markdown: text as text, JSON
 * pretty-printed, errors flagged. The document is plain text (see `ResultDocuments.show`).
 */
export function renderToolResult(server: string, tool: string, result: CallToolResult): string {
  const lines = [`# ${tool} — ${server}`, ''];
  if (result.isError) lines.push(`> **${vscode.l10n.t('The tool reported an error.')}**`, '');
  for (const c of result.content) {
    if (c.type === 'text') {
      let body = c.text;
      try {
        body = '```json\n' + JSON.stringify(JSON.parse(c.text), null, 2) + '\n```';
      } catch {
        // plain text stays as it is
      }
      lines.push(body, '');
    } else {
      lines.push('```json', JSON.stringify(c, null, 2).slice(0, 20_000), '```', '');
    }
  }
  if (result.structuredContent) {
    lines.push(`## ${vscode.l10n.t('Structured content')}`, '```json', JSON.stringify(result.structuredContent, null, 2), '```');
  }
  return lines.join('\n');
}

/**
 * Read-only documents for tool results (a virtual scheme cannot be saved over anything). Plain
 * text, not Markdown: the result is the server's text, and in a Markdown document VS Code's
 * Markdown support makes `[label](command:…)` a document link that Ctrl+click (or Open Link) runs,
 * since editor links may run commands. Plain text gets only VS Code's URL detection, which finds
 * no `command:` link.
 */
export class ResultDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private seq = 0;

  /** @param promptOnScreen whether a question is on screen now (the presenter knows). */
  constructor(private readonly promptOnScreen: () => boolean) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.path) ?? '';
  }

  /** Opens the result in front, or in a background tab while a question is on screen (then resolves undefined). */
  async show(server: string, tool: string, result: CallToolResult): Promise<vscode.TextEditor | undefined> {
    // `.txt` makes the language plain text from the start, and again when a closed tab is reopened.
    const path = `/${++this.seq}/${encodeURIComponent(server)}-${encodeURIComponent(tool)}.txt`;
    this.docs.set(path, renderToolResult(server, tool, result));
    if (this.docs.size > 50) this.docs.delete(this.docs.keys().next().value as string);
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path });
    if (this.promptOnScreen()) {
      // In front, the editor would take the focus of the question on screen (another call's),
      // which sets it aside, and would cover a form webview in the same editor group.
      // showTextDocument has no background option; vscode.open passes `background` on as the
      // editor's `inactive`. Pinned: a later result must not replace one the user has not seen.
      await vscode.commands.executeCommand('vscode.open', uri, { preview: false, preserveFocus: true, background: true });
      safe.setStatusBarMessage(
        safe.l10n.t(
          '$(output) {0} on {1} returned; its result is in a tab behind the open question.',
          displayText(tool),
          displayText(server),
        ),
        10_000,
      );
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(doc, { preview: true });
  }
}
