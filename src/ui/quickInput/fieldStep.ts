import * as vscode from 'vscode';
import type { AnswerValue, Field, FormModel } from '../../shared/fieldModel';
import { parseFieldInput, validateField } from '../../elicitation/form/validator';
import { MAX_LABEL_CHARS, sanitiseForDisplay } from '../../elicitation/safety/text';
import type { Asker } from '../../elicitation/asker';
import { issueText } from '../../elicitation/form/sentences';
import { onAbort, settleOnce } from '../../util/async';
import {
  declineButton,
  cancelButton,
  blockButton,
  attributionTitle,
  formatHint,
  noIcons,
  separatorLabel,
  setPickPrompt,
} from './quickInputParts';
import type { RememberToggle } from './rememberChoice';
import { tooEarly } from './strayAccept';
import type { MemoryScope } from '../../elicitation/memory/rememberedStore';

/** How one step of a quick-input flow ended. */
export type StepResult =
  /** `remember`: chosen on this step's own rows (a confirmation). */
  | { readonly kind: 'value'; readonly value: AnswerValue | undefined; readonly remember?: MemoryScope }
  | { readonly kind: 'back' }
  | { readonly kind: 'decline' }
  | { readonly kind: 'cancel' }
  | { readonly kind: 'block' }
  /** Hidden without an answer: Escape, or another quick input took its place. `draft` is unsent text. */
  | { readonly kind: 'hidden'; readonly draft?: string };

export interface StepContext {
  readonly asker: Asker;
  readonly message: string;
  /** Already worded for the user. */
  readonly warnings: readonly string[];
  readonly form: FormModel;
  readonly step?: { readonly n: number; readonly total: number };
  readonly signal: AbortSignal;
  /** Hiding sets the question aside (an elicitation), so an explicit Cancel button is shown. */
  readonly canSetAside: boolean;
  /** Lets tests and the benchmark see the live widget. */
  readonly onShow?: (w: vscode.QuickInput) => void;
  /** A one-field question that may be remembered: the title-bar choice (rememberChoice.ts). */
  readonly remember?: RememberToggle;
  /** The step opened by itself (strayAccept.ts): an accept this soon after it appears is not taken, ms. */
  readonly strayAcceptMs?: number;
}

interface Item extends vscode.QuickPickItem {
  readonly value?: string | boolean;
}

/**
 * Shows one field on its native widget and settles once: the value, Back, Decline, Cancel (the
 * button, or the request withdrawn), Block, or hidden (Escape, or another quick input opened).
 * Listeners are disposed in every path. `draft` is text typed before the question was hidden.
 */
export function askField(field: Field, current: AnswerValue | undefined, ctx: StepContext, draft?: string): Promise<StepResult> {
  switch (field.kind) {
    case 'string':
    case 'number':
    case 'integer':
      return askText(field, current, ctx, draft);
    default:
      return askPick(field, current, ctx);
  }
}

export function runStep<I extends vscode.QuickPickItem>(
  input: vscode.InputBox | vscode.QuickPick<I>,
  ctx: Pick<StepContext, 'signal' | 'onShow' | 'remember' | 'strayAcceptMs'>,
  /** `tooSoon`: an accept now is a stray keystroke (see strayAccept.ts); the handler ignores it. */
  run: (settle: (r: StepResult) => void, d: vscode.Disposable[], tooSoon: () => boolean) => void,
): Promise<StepResult> {
  return new Promise<StepResult>((resolve) => {
    const disposables: vscode.Disposable[] = [];
    const once = settleOnce();
    const settle = (r: StepResult): void =>
      void once(() => {
        for (const d of disposables) d.dispose();
        input.dispose();
        resolve(r);
      });
    disposables.push(onAbort(ctx.signal, () => settle({ kind: 'cancel' })));
    // Withdrawn before it was shown: nothing to show.
    if (once.settled) return;
    // VS Code gives no reason: Escape and another quick input opening (F1, Show Pending) look alike.
    disposables.push(
      input.onDidHide(() => settle({ kind: 'hidden', ...('password' in input && input.value !== '' ? { draft: input.value } : {}) })),
    );
    const { remember } = ctx;
    // The title as the step set it; the remember choice is said after it.
    const title = input.title ?? '';
    const showRemember = (): void => {
      if (!remember) return;
      input.title = title + remember.titleSuffix();
      input.buttons = [...input.buttons.filter((x) => !remember.isButton(x)), remember.button()];
    };
    showRemember();
    disposables.push(
      input.onDidTriggerButton((b) => {
        if (remember?.isButton(b)) {
          remember.next();
          showRemember();
        } else if (b === vscode.QuickInputButtons.Back) settle({ kind: 'back' });
        else if (b === declineButton()) settle({ kind: 'decline' });
        else if (b === cancelButton()) settle({ kind: 'cancel' });
        else if (b === blockButton()) settle({ kind: 'block' });
      }),
    );
    let shownAt: number | undefined;
    run(settle, disposables, () => tooEarly(shownAt, ctx.strayAcceptMs ?? 0));
    input.show();
    if (ctx.strayAcceptMs) shownAt = Date.now();
    ctx.onShow?.(input);
  });
}

function common(input: vscode.QuickInput & { buttons: readonly vscode.QuickInputButton[] }, field: Field, ctx: StepContext): void {
  // The field's name in the title too, single field or not: a validation message replaces the
  // prompt, and the title is then all that says what is being asked.
  input.title = attributionTitle(ctx.asker, field.title);
  if (ctx.step) {
    input.step = ctx.step.n;
    input.totalSteps = ctx.step.total;
  }
  input.ignoreFocusOut = true;
  input.buttons = titleButtons(ctx, ctx.step !== undefined && ctx.step.n > 1);
}

/** Back (when there is a step to go back to), Decline, Cancel (when Escape only sets aside), Block. */
export function titleButtons(ctx: Pick<StepContext, 'canSetAside'>, back: boolean): vscode.QuickInputButton[] {
  return [...(back ? [vscode.QuickInputButtons.Back] : []), declineButton(), ...(ctx.canSetAside ? [cancelButton()] : []), blockButton()];
}

function promptText(field: Field, ctx: StepContext): string {
  const parts = [ctx.message];
  if (field.description) parts.push(`${field.title}: ${field.description}`);
  else if (ctx.form.fields.length > 1 || field.title !== field.key) parts.push(field.title + (field.required ? ' *' : ''));
  for (const w of ctx.warnings) parts.push(`⚠ ${w}`);
  return parts.join(' — ');
}

function askText(
  field: Extract<Field, { kind: 'string' | 'number' | 'integer' }>,
  current: AnswerValue | undefined,
  ctx: StepContext,
  draft: string | undefined,
): Promise<StepResult> {
  const input = vscode.window.createInputBox();
  common(input, field, ctx);
  input.prompt = promptText(field, ctx);
  input.placeholder = formatHint(field) ?? (field.required ? vscode.l10n.t('Required') : vscode.l10n.t('Optional: press Enter to skip'));
  input.value = draft ?? (current === undefined ? '' : String(current));
  if (field.secretLike) input.password = true;
  const check = (raw: string): { ok: true; value: AnswerValue | undefined } | { ok: false; message: string } => {
    const parsed = parseFieldInput(field, raw);
    if (!parsed.ok) return { ok: false, message: issueText(parsed.issue, vscode.l10n) };
    const issue = validateField(ctx.form, field.key, parsed.value);
    return issue ? { ok: false, message: issueText(issue, vscode.l10n) } : parsed;
  };
  return runStep(input, ctx, (settle, d, tooSoon) => {
    const live = (raw: string): void => {
      const r = check(raw);
      // Do not shout "Required" before the user typed anything.
      input.validationMessage = r.ok || raw === '' ? undefined : r.message;
    };
    live(input.value);
    d.push(input.onDidChangeValue(live));
    d.push(
      input.onDidAccept(() => {
        if (tooSoon()) return;
        const r = check(input.value);
        if (r.ok) settle({ kind: 'value', value: r.value });
        else input.validationMessage = r.message;
      }),
    );
  });
}

function pickItems(field: Exclude<Field, { kind: 'string' | 'number' | 'integer' }>): Item[] {
  if (field.kind === 'boolean') {
    return [
      { label: vscode.l10n.t('Yes'), value: true },
      { label: vscode.l10n.t('No'), value: false },
    ];
  }
  // The value is server text too: shown sanitised (the label already is), sent as it is.
  return field.options.map((o) => {
    const shownValue = sanitiseForDisplay(o.value, MAX_LABEL_CHARS);
    const detail = shownValue.text + (shownValue.truncated ? '…' : '');
    return { label: noIcons(o.label), value: o.value, ...(o.label !== detail ? { detail: noIcons(detail) } : {}) };
  });
}

function askPick(
  field: Exclude<Field, { kind: 'string' | 'number' | 'integer' }>,
  current: AnswerValue | undefined,
  ctx: StepContext,
): Promise<StepResult> {
  const qp = vscode.window.createQuickPick<Item>();
  common(qp, field, ctx);
  const items = pickItems(field);
  // The question goes in the prompt, wrapped under the filter box, like an InputBox's. Hosts
  // without QuickPick.prompt get one short separator instead: a separator shares the first item's
  // row, and a long one (or several in a row, of which only the last shows) would hide that item.
  const text = promptText(field, ctx);
  const header: Item[] = setPickPrompt(qp, text)
    ? []
    : [{ label: noIcons(separatorLabel(text)), kind: vscode.QuickPickItemKind.Separator }];
  const skip: Item | undefined =
    !field.required && field.kind !== 'multiSelect' ? { label: vscode.l10n.t('$(circle-slash) Leave empty'), alwaysShow: true } : undefined;
  qp.items = [...header, ...items, ...(skip ? [skip] : [])];
  qp.placeholder = field.description ?? field.title;
  qp.matchOnDetail = true;
  if (field.kind === 'multiSelect') {
    qp.canSelectMany = true;
    const chosen = Array.isArray(current) ? current : [];
    qp.selectedItems = items.filter((i) => typeof i.value === 'string' && chosen.includes(i.value));
  } else {
    const active = items.find((i) => i.value === current);
    if (active) qp.activeItems = [active];
  }
  return runStep(qp, ctx, (settle, d, tooSoon) => {
    d.push(
      qp.onDidAccept(() => {
        if (tooSoon()) return;
        if (field.kind === 'multiSelect') {
          const value = qp.selectedItems.flatMap((i) => (typeof i.value === 'string' ? [i.value] : []));
          const issue = validateField(ctx.form, field.key, value.length === 0 && !field.required ? undefined : value);
          if (issue) {
            qp.placeholder = `⚠ ${issueText(issue, vscode.l10n)}`;
            return;
          }
          settle({ kind: 'value', value: value.length === 0 && !field.required ? undefined : value });
          return;
        }
        const picked = qp.activeItems[0];
        if (!picked) return;
        if (picked === skip) settle({ kind: 'value', value: undefined });
        else if (picked.value !== undefined) settle({ kind: 'value', value: picked.value });
      }),
    );
  });
}
