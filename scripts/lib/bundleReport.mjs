// `npm run build -- --analyze`: what each shipped JavaScript file weighs and holds, from esbuild's
// metafiles, and which library still ships in more than one file. The README's bundle numbers
// come from this report.

/** @typedef {{ readonly outputs: Record<string, { readonly bytes: number, readonly inputs: Record<string, { readonly bytesInOutput: number }> }> }} Metafile */

/** How many contributors each file lists. */
const TOP = 8;

/**
 * What an input counts under: its package for a library, the file itself for our code; the
 * build's own two-line stand-ins for shared libraries (scripts/build.mjs, LAZY) count as `(stubs)`.
 * @param {string} input a metafile input path
 */
export function contributor(input) {
  if (input.startsWith('lazy-')) return '(stubs)';
  const pkg = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return pkg?.[1] ?? input;
}

/** @param {number} bytes */
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;

/**
 * Bytes per output file and contributor.
 * @param {readonly Metafile[]} metafiles
 * @returns {Map<string, { bytes: number, by: Map<string, number> }>}
 */
export function contributions(metafiles) {
  /** @type {Map<string, { bytes: number, by: Map<string, number> }>} */
  const files = new Map();
  for (const meta of metafiles) {
    for (const [file, out] of Object.entries(meta.outputs)) {
      // What ships: dist/ and media/ (.vscodeignore), not the in-host test suite.
      if (!file.endsWith('.js') || !/^(dist|media)\//.test(file)) continue;
      /** @type {Map<string, number>} */
      const by = new Map();
      for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
        if (bytesInOutput > 0) by.set(contributor(input), (by.get(contributor(input)) ?? 0) + bytesInOutput);
      }
      files.set(file, { bytes: out.bytes, by });
    }
  }
  return files;
}

/**
 * Libraries (node_modules packages) found in more than one output file, with the bytes the
 * extra copies cost (all copies but the largest).
 * @param {ReturnType<typeof contributions>} files
 * @returns {{ name: string, files: string[], extraBytes: number }[]}
 */
export function duplicates(files) {
  /** @type {Map<string, Map<string, number>>} */
  const where = new Map();
  for (const [file, { by }] of files) {
    for (const [name, bytes] of by) {
      if (name.startsWith('(') || name.startsWith('src/') || name.startsWith('webview/')) continue;
      where.set(name, (where.get(name) ?? /** @type {Map<string, number>} */ (new Map())).set(file, bytes));
    }
  }
  return [...where]
    .filter(([, inFiles]) => inFiles.size > 1)
    .map(([name, inFiles]) => {
      const sizes = [...inFiles.values()];
      return { name, files: [...inFiles.keys()], extraBytes: sizes.reduce((a, b) => a + b, 0) - Math.max(...sizes) };
    })
    .sort((a, b) => b.extraBytes - a.extraBytes);
}

/**
 * The report, as printed.
 * @param {readonly Metafile[]} metafiles
 */
export function bundleReport(metafiles) {
  const files = contributions(metafiles);
  const lines = [];
  let total = 0;
  for (const [file, { bytes, by }] of files) {
    total += bytes;
    lines.push(`${file}  ${kb(bytes)}`);
    const top = [...by].sort((a, b) => b[1] - a[1]);
    for (const [name, b] of top.slice(0, TOP)) lines.push(`  ${kb(b).padStart(7)}  ${name}`);
    if (top.length > TOP) lines.push(`  ${kb(top.slice(TOP).reduce((s, [, b]) => s + b, 0)).padStart(7)}  ${top.length - TOP} more`);
  }
  const twice = duplicates(files);
  const extra = twice.reduce((s, d) => s + d.extraBytes, 0);
  lines.push(
    `shipped JavaScript: ${kb(total)} in ${files.size} files; libraries in more than one file: ${twice.length === 0 ? 'none' : kb(extra)}`,
  );
  for (const d of twice) lines.push(`  ${kb(d.extraBytes).padStart(7)}  ${d.name} (${d.files.join(', ')})`);
  return `${lines.join('\n')}\n`;
}
