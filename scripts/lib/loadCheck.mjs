// After a production build: dist/extension.js loads alone, and every lazy file loads after it.
// The bundles are CommonJS for the extension host; here they run in a child Node process with a
// stand-in for the `vscode` module, so the check sees the real files' require graph: a lazy file
// that activation would read anyway, or one whose stand-ins for shared modules do not resolve
// (scripts/build.mjs, LAZY and FROM_EXTENSION), fails the build instead of the first user.
import { execFileSync } from 'node:child_process';
import { parseJson } from './json.mjs';

/** The child's program: argv[1] is the dist folder, argv[2…] the lazy files' names. */
const PROGRAM = `
const Module = require('node:module');
const path = require('node:path');
const anything = new Proxy(function () {}, {
  get: (_t, key) => (key === Symbol.toPrimitive ? () => '' : anything),
  apply: () => anything,
  construct: () => anything,
});
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? anything : load.call(this, request, ...rest);
};
const [dist, ...lazy] = process.argv.slice(1);
const ours = () => Object.keys(require.cache).filter((f) => path.dirname(f) === dist).map((f) => path.basename(f)).sort();
const main = require(path.join(dist, 'extension.js'));
const atLoad = ours();
const failed = [];
for (const name of lazy) {
  try {
    const m = require(path.join(dist, name + '.js'));
    if (Object.keys(m).length === 0) failed.push(name + ': exports nothing');
  } catch (err) {
    failed.push(name + ': ' + (err instanceof Error ? err.message : String(err)));
  }
}
process.stdout.write(JSON.stringify({ activate: typeof main.activate, atLoad, failed }));
`;

/**
 * Problems found, as sentences; empty when all is well.
 * @param {string} dist absolute path of the dist folder
 * @param {readonly string[]} lazy the lazy files' names, without `.js`
 * @returns {string[]}
 */
export function loadCheck(dist, lazy) {
  const out = execFileSync(process.execPath, ['-e', PROGRAM, dist, ...lazy], { encoding: 'utf8' });
  const { activate, atLoad, failed } = /** @type {{ activate: string, atLoad: string[], failed: string[] }} */ (parseJson(out));
  const problems = [...failed.map((f) => `a lazy file does not load after dist/extension.js: ${f}`)];
  if (activate !== 'function') problems.push('dist/extension.js exports no activate function');
  const early = atLoad.filter((f) => f !== 'extension.js');
  if (early.length > 0) problems.push(`loading dist/extension.js already reads ${early.join(', ')}: those are meant to load on first use`);
  return problems;
}
