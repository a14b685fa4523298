/**
 * Where a server is defined, in the words the Servers view and Run Tool show: the file a user
 * would open (`.vscode/mcp.json`, `.mcp.json`, `team.code-workspace`, their user `mcp.json`) or
 * our setting. Each view used to say `.vscode/mcp.json` for every server VS Code runs, which was
 * untrue for the other files VS Code reads.
 */
import type { ServerSource } from '../../config/parse/definitions';
import type { Localize } from '../../shared/localize';

/** The last segment of a path, on either separator (a definition may come from Windows). */
function baseName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

export function whereDefinedText(source: ServerSource, l10n: Localize): string {
  switch (source.kind) {
    case 'workspaceFile':
      if (source.format === 'portable') return '.mcp.json';
      if (source.format === 'workspaceSettings') return baseName(source.file);
      return '.vscode/mcp.json';
    case 'userFile':
      return source.origin === 'copilot' ? l10n.t('Copilot mcp-config.json') : l10n.t('user mcp.json');
    case 'setting':
      return l10n.t('mcpElicitation.servers setting');
  }
}
