import * as vscode from 'vscode';
import type { Field } from '../../shared/fieldModel';
import type { Asker } from '../../elicitation/asker';
import { displayText } from '../../elicitation/safety/displayText';
import { EXTENSION_NAME_PREFIX } from '../../config/parse/definitions';

let decline: vscode.QuickInputButton | undefined;
let cancel: vscode.QuickInputButton | undefined;
let block: vscode.QuickInputButton | undefined;

/** Title-bar button that answers `decline`, distinct from Escape (`cancel`). Created once so identity compares work. */
export function declineButton(): vscode.QuickInputButton {
  return (decline ??= { iconPath: new vscode.ThemeIcon('circle-slash'), tooltip: vscode.l10n.t('Decline (tell the server no)') });
}

/**
 * Title-bar button that answers `cancel`. Escape does not: it hides the question and keeps it
 * pending (VS Code reports Escape and "another quick input opened" alike), so the tooltip says so.
 */
export function cancelButton(): vscode.QuickInputButton {
  return (cancel ??= {
    iconPath: new vscode.ThemeIcon('close'),
    tooltip: vscode.l10n.t('Cancel (close without answering; Escape only sets the question aside)'),
  });
}

export function blockButton(): vscode.QuickInputButton {
  return (block ??= { iconPath: new vscode.ThemeIcon('mute'), tooltip: vscode.l10n.t('Block this server') });
}

/** "1 of 2" for one of several input requests of a 2026-07-28 round; undefined otherwise. */
export function positionText(asker: Asker): string | undefined {
  return asker.position ? vscode.l10n.t('{0} of {1}', asker.position.index, asker.position.total) : undefined;
}

/** The attribution banner of a quick input: which server asks, and what it reports itself to be. */
export function attributionTitle(asker: Asker, suffix?: string): string {
  // The configured name is what the user recognises; serverInfo is the server's own claim, shown after.
  // An API caller is told from its call stack, which another extension in the same host could
  // fake (src/api/caller.ts): the title says where the name comes from.
  const named = asker.name.startsWith(EXTENSION_NAME_PREFIX)
    ? vscode.l10n.t('Extension “{0}” asks (told from its call stack)', displayText(asker.name.slice(EXTENSION_NAME_PREFIX.length)))
    : vscode.l10n.t('MCP server “{0}” asks', displayText(asker.name));
  const who = asker.info && asker.info !== asker.name ? `${named} (${asker.info})` : named;
  const pos = positionText(asker);
  const base = pos ? `${who} · ${pos}` : who;
  return suffix ? `${base}: ${suffix}` : base;
}

export function formatHint(field: Field): string | undefined {
  switch (field.kind) {
    case 'string':
      switch (field.format) {
        case 'email':
          return vscode.l10n.t('Email address, e.g. name@example.com');
        case 'uri':
          return vscode.l10n.t('URI, e.g. https://example.com/path');
        case 'date':
          return vscode.l10n.t('Date as YYYY-MM-DD');
        case 'date-time':
          return vscode.l10n.t('Date and time as YYYY-MM-DDTHH:MM:SSZ');
        default:
          return field.minLength !== undefined || field.maxLength !== undefined
            ? vscode.l10n.t('{0} to {1} characters', field.minLength ?? 0, field.maxLength ?? '∞')
            : undefined;
      }
    case 'number':
    case 'integer': {
      const kind = field.kind === 'integer' ? vscode.l10n.t('Whole number') : vscode.l10n.t('Number');
      if (field.minimum !== undefined && field.maximum !== undefined) {
        return vscode.l10n.t('{0} from {1} to {2}', kind, field.minimum, field.maximum);
      }
      if (field.minimum !== undefined) return vscode.l10n.t('{0}, at least {1}', kind, field.minimum);
      if (field.maximum !== undefined) return vscode.l10n.t('{0}, at most {1}', kind, field.maximum);
      return kind;
    }
    default:
      return undefined;
  }
}

/**
 * Longest separator label we show. A QuickPick separator is drawn in the row of the item after
 * it, and a long one covers that item's label entirely: a long question would hide the "Yes".
 */
const MAX_SEPARATOR_CHARS = 60;

/** `text` cut to fit a separator, at a word boundary where one is near, with an ellipsis. */
export function separatorLabel(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_SEPARATOR_CHARS) return flat;
  const cut = flat.slice(0, MAX_SEPARATOR_CHARS - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_SEPARATOR_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * Shows `text` as the QuickPick's prompt: below the filter box, wrapped, never covering an item.
 * `QuickPick.prompt` arrived after our minimum VS Code (1.90); older hosts lack the property, and
 * false here tells the caller to fall back to a (short) separator.
 */
export function setPickPrompt<T extends vscode.QuickPickItem>(qp: vscode.QuickPick<T>, text: string): boolean {
  if (!('prompt' in qp)) return false;
  (qp as { prompt?: string }).prompt = text;
  return true;
}

/**
 * QuickPick items render `$(name)` as an icon. Server text must not draw icons (a title of
 * `$(check) Accept and send` would imitate our own Accept item), so each `$(` is escaped the way
 * VS Code's own `escapeIcons` does: `\$(` renders as the literal text.
 */
export function noIcons(serverText: string): string {
  return serverText.replace(/\$\(/g, '\\$(');
}
