// JSON.parse returns `any`, which the type-aware lint rules will not let flow on unchecked. These
// return `unknown` instead: each caller states what it expects with a JSDoc cast.
import { readFileSync } from 'node:fs';

/**
 * @param {string} text
 * @returns {unknown}
 */
export function parseJson(text) {
  return JSON.parse(text);
}

/**
 * @param {string} file
 * @returns {unknown}
 */
export function readJson(file) {
  return parseJson(readFileSync(file, 'utf8'));
}
