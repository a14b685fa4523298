import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { TestServices } from '../host/testServices';
import { nextPrompt, services, waitFor } from './helpers';

const examples = (): string => path.join(process.env['MCP_TEST_REPO_ROOT'] ?? '', 'demo', 'examples');

suite('Preview Elicitation Form (server authors)', () => {
  let s: TestServices;
  suiteSetup(async () => {
    s = await services();
  });
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('renders the spec example as a form and shows, instead of sending, the result', async () => {
    const doc = await vscode.workspace.openTextDocument(path.join(examples(), 'contact.elicitation.json'));
    await vscode.window.showTextDocument(doc);
    const shown = nextPrompt(s);
    const done = vscode.commands.executeCommand('mcpElicitation.previewForm');
    assert.equal((await shown).kind, 'webview');
    assert.deepEqual(s.previewDiagnostics.get(doc.uri), [], 'no violations in the spec example');
    // Closing the form is a cancel; the preview shows what would have been sent.
    const opened = new Promise<vscode.TextDocument>((resolve) => {
      const sub = vscode.workspace.onDidOpenTextDocument((d) => {
        if (d.uri.scheme === 'untitled') {
          sub.dispose();
          resolve(d);
        }
      });
    });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await done;
    const result = await opened;
    assert.match(result.getText(), /"action": "cancel"/);
    assert.equal(
      s.broker.queue.history.list().some((h) => h.asker.name === 'Preview'),
      false,
      'preview never goes through the broker',
    );
  });

  test('lists every violation of a deliberately broken request as diagnostics on its properties', async () => {
    const doc = await vscode.workspace.openTextDocument(path.join(examples(), 'broken.elicitation.json'));
    await vscode.window.showTextDocument(doc);
    let shown = false;
    const sub = s.hooks.onDidShowPrompt(() => (shown = true));
    await vscode.commands.executeCommand('mcpElicitation.previewForm');
    sub.dispose();
    await waitFor(() => (s.previewDiagnostics.get(doc.uri)?.length ?? 0) >= 3, 'diagnostics');
    const diags = s.previewDiagnostics.get(doc.uri) ?? [];
    const errors = diags.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).map((d) => d.message);
    for (const prop of ['address', 'age', 'color']) {
      assert.ok(
        errors.some((m) => m.includes(`properties.${prop}`)),
        `a violation names ${prop}: ${errors.join(' | ')}`,
      );
    }
    const address = diags.find((d) => d.message.includes('properties.address'));
    assert.equal(doc.getText(address?.range), '"address"', 'the diagnostic sits on the property key');
    assert.equal(shown, false, 'nothing is rendered for a request a client would reject');
  });
});
