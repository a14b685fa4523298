import * as vscode from 'vscode';
import type { AnswerValue, Field } from '../../shared/fieldModel';
import type { FormAnswer, FormPrompt } from '../../elicitation/presenter';
import { buildReply, defaultValues } from '../../elicitation/form/validator';
import { onAbort, settleOnce } from '../../util/async';
import { askField, titleButtons, type StepContext } from './fieldStep';
import { askConfirmation } from './confirmStep';
import { formWarningText } from '../wording/formText';
import { issueText } from '../../elicitation/form/sentences';
import { attributionTitle, blockButton, cancelButton, declineButton, noIcons, separatorLabel, setPickPrompt } from './quickInputParts';
import { displayText } from '../../elicitation/safety/displayText';
import { MAX_MESSAGE_CHARS } from '../../elicitation/safety/text';
import * as safe from '../../util/safeText';
import { RememberToggle, rememberRows } from './rememberChoice';
import type { MemoryScope } from '../../elicitation/memory/rememberedStore';

export interface QuickFormHooks {
  readonly onBlockServer: () => void;
  readonly onShow?: (w: vscode.QuickInput) => void;
  /**
   * The question was hidden without an answer. Resolves 'resume' to show the same step again, or
   * 'cancel'. Without it (a tool's arguments, not a server's question), hiding cancels.
   */
  readonly onHidden?: () => Promise<'resume' | 'cancel'>;
  /**
   * The question opened by itself (strayAccept.ts): its first step takes no accept this soon
   * after it appears, ms. A step shown again after Answer, or after the user's own Enter, is not guarded.
   */
  readonly strayAcceptMs?: number;
}

/**
 * A form on native quick input. No field: a confirmation (Accept, Decline, Cancel). One field:
 * its widget, and Enter accepts. Several fields: "step n of m" with Back, then a review step
 * listing every answer before Accept. A hidden step comes back as it was when the user resumes.
 */
export async function showQuickForm(prompt: FormPrompt, signal: AbortSignal, hooks: QuickFormHooks): Promise<FormAnswer> {
  const fields = prompt.form.fields;
  const values: Record<string, AnswerValue | undefined> = defaultValues(prompt.form);
  const multi = fields.length > 1;
  const total = multi ? fields.length + 1 : 1;
  const canSetAside = hooks.onHidden !== undefined;
  /** Hidden, then: show it again, or stop with cancel. */
  const hidden = async (): Promise<boolean> => (hooks.onHidden ? (await hooks.onHidden()) === 'resume' : false);
  const warnings = prompt.warnings.map((w) => formWarningText(w, vscode.l10n));
  /** Only the first step shown opened by itself. */
  let guard = hooks.strayAcceptMs ? { strayAcceptMs: hooks.strayAcceptMs } : {};
  const firstGuard = (): { strayAcceptMs?: number } => {
    const g = guard;
    guard = {};
    return g;
  };
  if (fields.length === 0) {
    for (;;) {
      const r = await askConfirmation({
        ...firstGuard(),
        asker: prompt.asker,
        message: prompt.message,
        warnings,
        signal,
        canSetAside,
        canRemember: prompt.canRemember === true,
        ...(hooks.onShow ? { onShow: hooks.onShow } : {}),
      });
      if (r.kind === 'value') return { action: 'accept', content: {}, ...(r.remember ? { remember: r.remember } : {}) };
      if (r.kind !== 'hidden') return finishOther(r.kind === 'back' ? 'cancel' : r.kind, hooks);
      if (!(await hidden())) return { action: 'cancel' };
    }
  }
  let i = 0;
  /** The current step was opened from the review by picking its answer: it returns there. */
  let fromReview = false;
  /** Text typed into a step that was then hidden: it is there again when the step comes back. */
  const drafts = new Map<string, string>();
  // Several fields: the review step offers remembering; one field: its title bar does.
  const toggle = prompt.canRemember === true && !multi ? new RememberToggle() : undefined;
  let remember: MemoryScope | undefined;
  for (;;) {
    if (i >= fields.length) {
      if (!multi) break;
      const review = await reviewStep(prompt, warnings, values, total, signal, hooks, canSetAside);
      if (review === 'hidden') {
        if (await hidden()) continue;
        return { action: 'cancel' };
      }
      fromReview = typeof review === 'number';
      if (typeof review === 'number') {
        i = review;
        continue;
      }
      if (typeof review === 'object') {
        remember = review.remember;
        break;
      }
      if (review === 'back') {
        i = fields.length - 1;
        continue;
      }
      if (review === 'accept') break;
      return finishOther(review, hooks);
    }
    const field = fields[i];
    if (!field) break;
    const ctx: StepContext = {
      asker: prompt.asker,
      message: prompt.message,
      warnings,
      form: prompt.form,
      signal,
      canSetAside,
      ...(multi ? { step: { n: i + 1, total } } : {}),
      ...(hooks.onShow ? { onShow: hooks.onShow } : {}),
      ...(toggle ? { remember: toggle } : {}),
      ...firstGuard(),
    };
    const r = await askField(field, values[field.key], ctx, drafts.get(field.key));
    drafts.delete(field.key);
    if (r.kind === 'hidden') {
      if (r.draft !== undefined) drafts.set(field.key, r.draft);
      if (await hidden()) continue;
      return { action: 'cancel' };
    }
    if (r.kind === 'value') {
      values[field.key] = r.value;
      i = fromReview ? fields.length : i + 1;
    } else if (r.kind === 'back') {
      // Back from an answer opened from the review goes back to the review, unchanged.
      i = fromReview ? fields.length : Math.max(0, i - 1);
    } else {
      return finishOther(r.kind, hooks);
    }
  }
  const reply = buildReply(prompt.form, values);
  if (!reply.ok) {
    // Only reachable if a step accepted something the whole-form check refuses (e.g. a required
    // multi-select left empty); say so rather than send a bad reply.
    void safe.showErrorMessage(
      safe.l10n.t(
        'The answer is not valid: {0}',
        displayText(
          Object.values(reply.errors)
            .map((e) => issueText(e, vscode.l10n))
            .join('; '),
          MAX_MESSAGE_CHARS,
        ),
      ),
    );
    return { action: 'cancel' };
  }
  remember ??= toggle?.scope;
  return { action: 'accept', content: reply.content, ...(remember ? { remember } : {}) };
}

function finishOther(kind: 'decline' | 'cancel' | 'block', hooks: QuickFormHooks): FormAnswer {
  if (kind === 'block') {
    hooks.onBlockServer();
    return { action: 'decline' };
  }
  return { action: kind };
}

interface ReviewItem extends vscode.QuickPickItem {
  readonly action?: 'accept' | 'edit';
  readonly index?: number;
  readonly remember?: MemoryScope;
}

/** An answer as the user saw it while giving it: option titles rather than the values sent. */
function display(field: Field, v: AnswerValue | undefined): string {
  if (v === undefined || v === '') return vscode.l10n.t('(empty)');
  if (field.secretLike && typeof v === 'string') return '•'.repeat(Math.min(v.length, 12));
  if (typeof v === 'boolean') return v ? vscode.l10n.t('Yes') : vscode.l10n.t('No');
  const label = (x: string): string =>
    field.kind === 'singleSelect' || field.kind === 'multiSelect' ? (field.options.find((o) => o.value === x)?.label ?? x) : x;
  return Array.isArray(v) ? v.map(label).join(', ') : label(String(v));
}

type ReviewResult = 'accept' | 'back' | 'decline' | 'cancel' | 'block' | 'hidden';

/**
 * The last step: every answer, then Accept (or Accept and remember, when offered), Back, or an
 * answer picked to change it (its field index).
 */
function reviewStep(
  prompt: FormPrompt,
  warnings: readonly string[],
  values: Record<string, AnswerValue | undefined>,
  total: number,
  signal: AbortSignal,
  hooks: QuickFormHooks,
  canSetAside: boolean,
): Promise<ReviewResult | number | { readonly remember: MemoryScope }> {
  const qp = vscode.window.createQuickPick<ReviewItem>();
  qp.title = attributionTitle(prompt.asker, vscode.l10n.t('Review'));
  qp.step = total;
  qp.totalSteps = total;
  qp.ignoreFocusOut = true;
  qp.buttons = titleButtons({ canSetAside }, true);
  qp.placeholder = vscode.l10n.t('Press Enter to accept and send these answers, or Back to change them');
  const accept: ReviewItem = { label: vscode.l10n.t('$(check) Accept and send'), action: 'accept', alwaysShow: true };
  // The request's message as the prompt; where the host has no QuickPick.prompt, a short
  // separator (a long one would cover the first answer's row).
  const text = [prompt.message, ...warnings.map((w) => `⚠ ${w}`)].join(' — ');
  const header: ReviewItem[] = setPickPrompt(qp, text)
    ? []
    : [{ label: noIcons(separatorLabel(text)), kind: vscode.QuickPickItemKind.Separator }];
  const remembering: ReviewItem[] = prompt.canRemember
    ? rememberRows().map((r) => ({ ...r, action: 'accept' as const, alwaysShow: true }))
    : [];
  qp.items = [
    accept,
    ...remembering,
    ...header,
    ...prompt.form.fields.map((f, index) => ({
      label: noIcons(f.title),
      // A server's default is its text, and the review is where the user checks what is sent:
      // neutralised like any server text (bidi overrides marked, no icon, no control character).
      description: displayText(display(f, values[f.key])),
      index,
      action: 'edit' as const,
    })),
  ];
  qp.activeItems = [accept];
  return new Promise((resolve) => {
    const d: vscode.Disposable[] = [];
    const once = settleOnce();
    const settle = (r: ReviewResult | number | { readonly remember: MemoryScope }): void =>
      void once(() => {
        for (const x of d) x.dispose();
        qp.dispose();
        resolve(r);
      });
    d.push(onAbort(signal, () => settle('cancel')));
    if (once.settled) return;
    d.push(qp.onDidHide(() => settle('hidden')));
    d.push(
      qp.onDidTriggerButton((b) => {
        if (b === vscode.QuickInputButtons.Back) settle('back');
        else if (b === declineButton()) settle('decline');
        else if (b === cancelButton()) settle('cancel');
        else if (b === blockButton()) settle('block');
      }),
    );
    d.push(
      qp.onDidAccept(() => {
        const picked = qp.activeItems[0];
        if (picked?.action === 'accept') settle(picked.remember ? { remember: picked.remember } : 'accept');
        else if (picked?.index !== undefined) settle(picked.index);
      }),
    );
    qp.show();
    hooks.onShow?.(qp);
  });
}
