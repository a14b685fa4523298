/**
 * Entry point of the form webview (bundled to media/webview.js). Renders the form from the
 * `data-init` attribute, keeps the typed values across reloads with `setState`, and leaves all
 * validation to the host: the CSP forbids eval, so ajv cannot run here, and one validator means
 * the page and the reply can never disagree.
 */
import type { FormInit, ToWebview } from '../src/shared/webviewMessages';
import { parseToWebview } from '../src/shared/webviewMessages';
import { createBanner, createWarnings } from './banner';
import { el, fmt, own } from './dom';
import { createFieldView } from './fieldView';
import type { FieldView } from './fieldView';
import { loadState, post, saveState } from './vscodeApi';
import type { Values } from './vscodeApi';

/** Edits are batched this long before the host validates them (it flushes at once on accept). */
const CHANGE_DEBOUNCE_MS = 100;

// Report CSP violations first, so even one caused while rendering is counted.
document.addEventListener('securitypolicyviolation', (e) => {
  post({ type: 'cspViolation', directive: e.effectiveDirective || e.violatedDirective });
});

function readInit(): FormInit {
  const raw = document.body.dataset['init'];
  const parsed: unknown = raw === undefined ? undefined : JSON.parse(raw);
  // The host wrote this attribute itself; a shape check is enough to fail loudly on a build mismatch.
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { fields?: unknown }).fields)) {
    throw new Error('Elicitation form: missing or malformed data-init');
  }
  return parsed as FormInit;
}

const init = readInit();
const s = init.strings;
const persisted = loadState(init.requestId);
const startValues = persisted?.values ?? init.values;
const touched = new Set<string>(persisted?.touched ?? []);

type Phase = 'open' | 'submitting' | 'done' | 'closed';
let phase: Phase = 'open';
let valid = false;
let errors: Readonly<Record<string, string>> = {};
/** After an accept attempt every error shows, not only those of touched fields. */
let showAll = false;
let pending: ReturnType<typeof setTimeout> | undefined;
/**
 * `change` messages whose verdict has not come back yet. While any is out, `valid` may be stale
 * (a remote extension host is a network round trip away), so it must not block an accept.
 */
let awaiting = 0;

// ---- DOM -------------------------------------------------------------------------------------

const banner = createBanner(init);
const views: FieldView[] = init.fields.map((f, i) => createFieldView(f, i, s, own(startValues, f.key)));
const fields = el('fieldset', { class: 'fields' }, ...views.map((v) => v.root));
const formError = el('div', { class: 'form-error', role: 'alert', hidden: true });
const status = el('div', { class: 'status', role: 'status', hidden: true });
const acceptButton = el('button', { type: 'button', class: 'primary', disabled: true }, s.accept);
const declineButton = el('button', { type: 'button', class: 'secondary' }, s.decline);
const cancelButton = el('button', { type: 'button', class: 'secondary' }, s.cancel);
// Offered only where the host allows it (no secret-like field, not a preview).
const rememberSelect = init.canRemember
  ? el(
      'select',
      { id: 'remember', class: 'remember-select' },
      el('option', { value: '' }, s.rememberNo),
      el('option', { value: 'session' }, s.rememberSession),
      el('option', { value: 'workspace' }, s.rememberWorkspace),
    )
  : undefined;
const footer = el(
  'footer',
  { class: 'actions' },
  el('div', { class: 'buttons' }, acceptButton, declineButton, cancelButton),
  rememberSelect && el('label', { class: 'remember', for: 'remember' }, s.remember, rememberSelect),
  el('div', { class: 'accept-hint' }, fmt(s.acceptHint, /Mac|iPhone|iPad/.test(navigator.userAgent) ? '⌘' : 'Ctrl')),
);

document.body.append(el('main', { class: 'form' }, banner.root, createWarnings(init), fields, formError, status, footer));

// ---- State -----------------------------------------------------------------------------------

function currentValues(): Values {
  // fromEntries defines own properties, so a field named "__proto__" stays an ordinary key.
  return Object.fromEntries(views.map((v) => [v.field.key, v.read()]));
}

function persist(): void {
  saveState({ requestId: init.requestId, values: currentValues(), touched: [...touched] });
}

function flushChange(): void {
  if (pending !== undefined) clearTimeout(pending);
  pending = undefined;
  awaiting++;
  post({ type: 'change', values: currentValues() });
}

function scheduleChange(): void {
  if (pending !== undefined) clearTimeout(pending);
  pending = setTimeout(flushChange, CHANGE_DEBOUNCE_MS);
}

function renderErrors(): void {
  const known = new Set(views.map((v) => v.field.key));
  for (const v of views) {
    const msg = own(errors, v.field.key);
    v.setError(showAll || touched.has(v.field.key) ? msg : undefined);
  }
  // Form-level errors, and any keyed to something that is not a field, always show.
  const formLevel = Object.entries(errors)
    .filter(([k, m]) => m !== '' && !known.has(k))
    .map(([, m]) => m);
  formError.textContent = formLevel.join('\n');
  formError.hidden = formLevel.length === 0;
}

function renderButtons(): void {
  const open = phase === 'open';
  acceptButton.disabled = !open || !valid;
  declineButton.disabled = !open;
  cancelButton.disabled = !open;
  if (rememberSelect) rememberSelect.disabled = !open;
  banner.blockButton.disabled = !open;
  fields.disabled = phase === 'closed';
}

function focusFirstInvalid(): void {
  views.find((v) => own(errors, v.field.key) !== undefined)?.focus();
}

// ---- Actions ---------------------------------------------------------------------------------

function accept(): void {
  if (phase !== 'open') return;
  if (!valid && pending === undefined && awaiting === 0) {
    // Nothing in flight would change the verdict: show every error instead of sending.
    showAll = true;
    renderErrors();
    focusFirstInvalid();
    return;
  }
  // The host re-validates the accepted values itself, so a pending edit only needs flushing.
  if (pending !== undefined) flushChange();
  showAll = true;
  phase = 'submitting';
  renderButtons();
  const remember = rememberSelect?.value;
  post({ type: 'accept', values: currentValues(), ...(remember === 'session' || remember === 'workspace' ? { remember } : {}) });
}

/** Decline, cancel and block end the request: buttons go dead at once so a double click sends one message. */
function finish(type: 'decline' | 'cancel' | 'blockServer'): void {
  if (phase !== 'open') return;
  phase = 'done';
  renderButtons();
  post({ type });
}

function onEdit(key: string): void {
  touched.add(key);
  persist();
  scheduleChange();
}

function onMessage(msg: ToWebview): void {
  if (msg.type === 'closed') {
    phase = 'closed';
    status.textContent = msg.reason === '' ? s.closed : `${s.closed} ${msg.reason}`;
    status.hidden = false;
    renderButtons();
    return;
  }
  // Verdicts come back in the order the changes went out; an accept's rejection comes after them all.
  if (awaiting > 0) awaiting--;
  valid = msg.valid;
  errors = msg.errors;
  // A verdict on older values, still on its way when Accept was pressed, says nothing about what
  // was sent: wait for the host's answer to the accept itself.
  if (phase === 'submitting' && awaiting > 0) return;
  // A rejected accept reopens the form, with every error visible.
  if (phase === 'submitting' && !valid) {
    phase = 'open';
    showAll = true;
    renderErrors();
    renderButtons();
    focusFirstInvalid();
    return;
  }
  renderErrors();
  renderButtons();
}

// ---- Wiring ----------------------------------------------------------------------------------

for (const v of views) {
  const key = v.field.key;
  v.root.addEventListener('input', () => onEdit(key));
  v.root.addEventListener('change', () => onEdit(key));
  // Leaving a field counts as touching it, so "required" shows for a field tabbed past.
  v.root.addEventListener('focusout', (e) => {
    // No related target: focus left the page (the palette, another editor), not this field for
    // another one; showing "Required" then would scold the user for something they did not do.
    if (!(e.relatedTarget instanceof Node) || v.root.contains(e.relatedTarget)) return;
    if (touched.has(key)) return;
    touched.add(key);
    persist();
    renderErrors();
  });
}

acceptButton.addEventListener('click', accept);
declineButton.addEventListener('click', () => finish('decline'));
cancelButton.addEventListener('click', () => finish('cancel'));
banner.blockButton.addEventListener('click', () => finish('blockServer'));

document.addEventListener('keydown', (e) => {
  if (e.isComposing || e.defaultPrevented) return;
  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    accept();
  } else if (e.key === 'Escape') {
    e.preventDefault();
    finish('cancel');
  }
});

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const msg = parseToWebview(e.data);
  if (msg !== undefined) onMessage(msg);
});

renderButtons();
post({ type: 'ready' });
// Ask for a verdict on the starting values at once, so Accept is enabled without an edit.
flushChange();
views[0]?.focus();
