/**
 * The attribution banner: who is asking, in what words, and what to watch out for. Every piece
 * is server text and is set with `textContent`, so links stay inert and markup stays literal.
 */
import type { FormInit } from '../src/shared/webviewMessages';
import { el } from './dom';

export interface Banner {
  readonly root: HTMLElement;
  readonly blockButton: HTMLButtonElement;
}

/** "{0} asks" with the server name in its own element, whatever the word order of the language. */
function asksHeading(template: string, askerName: string): HTMLElement {
  const at = template.indexOf('{0}');
  const name = el('strong', { class: 'server-name' }, askerName);
  if (at < 0) return el('h1', { class: 'asks' }, name);
  return el('h1', { class: 'asks' }, template.slice(0, at), name, template.slice(at + 3));
}

export function createBanner(init: FormInit): Banner {
  const { attribution: a, strings: s } = init;
  const blockButton = el('button', { type: 'button', class: 'link-button block-server' }, s.blockServer);
  const head = el(
    'div',
    { class: 'banner-head' },
    el(
      'div',
      { class: 'who' },
      asksHeading(s.asks, a.name),
      init.preview ? el('span', { class: 'badge' }, s.preview) : undefined,
      a.info === undefined || a.info === '' ? undefined : el('div', { class: 'server-info' }, a.info),
    ),
    blockButton,
  );
  const root = el(
    'header',
    { class: 'banner' },
    head,
    a.message === '' ? undefined : el('p', { class: 'message' }, a.message),
    a.messageTruncated ? el('p', { class: 'truncated' }, s.truncated) : undefined,
  );
  return { root, blockButton };
}

export function createWarnings(init: FormInit): HTMLElement | undefined {
  if (init.warnings.length === 0) return undefined;
  return el(
    'section',
    { class: 'warnings', role: 'status', 'aria-labelledby': 'warnings-title' },
    el('div', { class: 'warnings-title', id: 'warnings-title' }, init.strings.warningTitle),
    el('ul', {}, ...init.warnings.map((w) => el('li', {}, w))),
  );
}
