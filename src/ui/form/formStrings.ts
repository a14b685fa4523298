/**
 * The form webview's UI strings, localised on the host (the page has no l10n API). Templates
 * keep their `{0}`/`{1}` placeholders: `vscode.l10n.t` leaves them alone when given no arguments,
 * and the webview fills them in.
 */
import * as vscode from 'vscode';
import type { WebviewStringKey } from '../../shared/webviewMessages';

export function formStrings(): Record<WebviewStringKey, string> {
  return {
    accept: vscode.l10n.t('Accept'),
    decline: vscode.l10n.t('Decline'),
    cancel: vscode.l10n.t('Cancel'),
    blockServer: vscode.l10n.t('Block this server'),
    required: vscode.l10n.t('required'),
    asks: vscode.l10n.t('{0} asks'),
    yes: vscode.l10n.t('Yes'),
    no: vscode.l10n.t('No'),
    unset: vscode.l10n.t('No answer'),
    choose: vscode.l10n.t('— choose —'),
    truncated: vscode.l10n.t('The message was too long and has been shortened.'),
    warningTitle: vscode.l10n.t('Check before answering'),
    // {0} is Ctrl or ⌘: the page knows the UI's platform, which a remote extension host does not.
    acceptHint: vscode.l10n.t('{0}+Enter to accept · Escape to cancel'),
    formatEmail: vscode.l10n.t('Email address, such as name@example.com'),
    formatUri: vscode.l10n.t('Full address, such as https://example.com/path'),
    formatDate: vscode.l10n.t('Date (YYYY-MM-DD)'),
    formatDateTime: vscode.l10n.t('Date and time with time zone, such as 2025-05-01T12:00:00Z'),
    selectAtLeast: vscode.l10n.t('Select at least {0}'),
    selectAtMost: vscode.l10n.t('Select at most {0}'),
    selectBetween: vscode.l10n.t('Select between {0} and {1}'),
    numberRange: vscode.l10n.t('Between {0} and {1}'),
    numberMin: vscode.l10n.t('At least {0}'),
    numberMax: vscode.l10n.t('At most {0}'),
    wholeNumber: vscode.l10n.t('Whole number'),
    preview: vscode.l10n.t('Preview'),
    closed: vscode.l10n.t('This request is closed.'),
    remember: vscode.l10n.t('Remember this answer'),
    rememberNo: vscode.l10n.t('No, ask me next time'),
    rememberSession: vscode.l10n.t('For this session'),
    rememberWorkspace: vscode.l10n.t('In this workspace'),
  };
}
