// Opens a VSIX (a zip) and checks that the README it ships shows its pictures: every image the
// packaged README references is a file inside the package, or an https URL (vsce refuses http
// and data URIs, and rewrites relative links only given a repository URL, which this project has
// not got: its package keeps relative paths, so they must resolve inside the VSIX).
// Plain Node: no zip library, so the check runs wherever `npm test` runs.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import path from 'node:path';

/**
 * Every file of a zip archive, by name, read through its central directory.
 * @param {string} file
 * @returns {Map<string, Buffer>}
 */
export function readZip(file) {
  const buf = readFileSync(file);
  // The end-of-central-directory record: the last 22 bytes, unless an archive comment follows it.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip archive`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  /** @type {Map<string, Buffer>} */
  const out = new Map();
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    if (!name.endsWith('/')) out.set(name, method === 0 ? Buffer.from(data) : inflateRawSync(data));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/**
 * The images a Markdown text shows: `![alt](src "title")`, reference definitions used by images,
 * and HTML `<img src>`.
 * @param {string} markdown
 * @returns {string[]}
 */
export function imageReferences(markdown) {
  const text = markdown.replace(/```[\s\S]*?```/g, '');
  const refs = [];
  for (const m of text.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) refs.push(/** @type {string} */ (m[1]));
  const defs = new Map([...text.matchAll(/^\s*\[([^\]]+)\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => [m[1]?.toLowerCase(), m[2]]));
  for (const m of text.matchAll(/!\[([^\]]*)\]\[([^\]]*)\]/g)) {
    const def = defs.get((m[2] || m[1] || '').toLowerCase());
    if (def) refs.push(def);
  }
  for (const m of text.matchAll(/<img\s[^>]*src=["']([^"']+)["']/gi)) refs.push(/** @type {string} */ (m[1]));
  return refs;
}

/**
 * What is wrong with the pictures of the README packaged in `vsix`: one line per image that would
 * not show on the extension's page. Empty when every picture shows.
 * @param {string} vsix
 * @returns {{ readme: string, images: string[], problems: string[] }}
 */
export function checkVsixReadme(vsix) {
  const files = readZip(vsix);
  // The manifest names the README the marketplace and VS Code's extension page show (vsce stores it as extension/readme.md).
  const manifest = files.get('extension.vsixmanifest')?.toString('utf8') ?? '';
  const readmeName =
    /Type="Microsoft\.VisualStudio\.Services\.Content\.Details"\s+Path="([^"]+)"/.exec(manifest)?.[1] ?? 'extension/readme.md';
  const readme = files.get(readmeName)?.toString('utf8');
  if (readme === undefined) return { readme: '', images: [], problems: [`${readmeName} is not in the package`] };
  const images = imageReferences(readme);
  const problems = [];
  for (const src of images) {
    if (/^https:\/\//i.test(src)) continue;
    if (/^[a-z][a-z0-9+.-]*:/i.test(src)) {
      problems.push(`${src}: only https images are shown (vsce refuses other schemes)`);
      continue;
    }
    const inside = path.posix.normalize(path.posix.join(path.posix.dirname(readmeName), decodeURI(src.split('#')[0] ?? '')));
    if (!inside.startsWith('extension/')) problems.push(`${src}: points outside the package`);
    else if (!files.has(inside)) problems.push(`${src}: ${inside} is not in the package`);
  }
  return { readme, images, problems };
}
