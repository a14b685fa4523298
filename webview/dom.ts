/**
 * Tiny DOM builders. Server text only ever reaches the page through `textContent` and attribute
 * setters here: the CSP already blocks inline script, and never parsing server text as HTML means
 * markup in a message cannot even change the layout.
 */

type Attrs = Readonly<Record<string, string | boolean | undefined>>;
type Child = Node | string | undefined | false;

/** Creates an element; `true` attributes are set empty, `false`/`undefined` ones are skipped. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    e.setAttribute(name, value === true ? '' : value);
  }
  for (const c of children) {
    if (c === undefined || c === false) continue;
    e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return e;
}

/** Fills `{0}`, `{1}`… in a localised template (the host localises, the page substitutes). */
export function fmt(template: string, ...args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (m, i: string) => {
    const a = args[Number(i)];
    return a === undefined ? m : String(a);
  });
}

/** Own-property lookup: field keys are server-chosen and may be "constructor" or "__proto__". */
export function own<T>(rec: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(rec, key) ? rec[key] : undefined;
}
