import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Disposable } from '../util/disposable';

export const RESULT_SCHEME = 'mcp-tool-result';

/** Renders a tool result as readable Markdown: text as text, JSON pretty-printed, errors flagged. */
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
  if (result.structuredContent) lines.push(`## ${vscode.l10n.t('Structured content')}`, '```json', JSON.stringify(result.structuredContent, null, 2), '```');
  return lines.join('\n');
}

/** Read-only documents for tool results (a virtual scheme cannot be saved over anything). */
export class ResultDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private seq = 0;

  constructor() {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.path) ?? '';
  }

  async show(server: string, tool: string, result: CallToolResult): Promise<vscode.TextEditor> {
    const path = `/${++this.seq}/${encodeURIComponent(server)}-${encodeURIComponent(tool)}.md`;
    this.docs.set(path, renderToolResult(server, tool, result));
    if (this.docs.size > 50) this.docs.delete(this.docs.keys().next().value as string);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: RESULT_SCHEME, path }));
    return vscode.window.showTextDocument(doc, { preview: true });
  }
}
