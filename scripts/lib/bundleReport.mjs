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
 * Bytes per output file and contributor (`by`), and per input file (`inputs`).
 * @param {readonly Metafile[]} metafiles
 * @returns {Map<string, { bytes: number, by: Map<string, number>, inputs: Map<string, number> }>}
 */
export function contributions(metafiles) {
  /** @type {Map<string, { bytes: number, by: Map<string, number>, inputs: Map<string, number> }>} */
  const files = new Map();
  for (const meta of metafiles) {
    for (const [file, out] of Object.entries(meta.outputs)) {
      // What ships: dist/ and media/ (.vscodeignore), not the in-host test suite.
      if (!file.endsWith('.js') || !/^(dist|media)\//.test(file)) continue;
      /** @type {Map<string, number>} */
      const by = new Map();
      /** @type {Map<string, number>} */
      const inputs = new Map();
      for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
        if (bytesInOutput > 0) by.set(contributor(input), (by.get(contributor(input)) ?? 0) + bytesInOutput);
        if (bytesInOutput > 0) inputs.set(input, bytesInOutput);
      }
      files.set(file, { bytes: out.bytes, by, inputs });
    }
  }
  return files;
}

/**
 * Libraries (node_modules packages) of which one source file is in more than one output file,
 * with the bytes the extra copies cost (all copies but the largest, per source file). Counted
 * per source file, not per package: a package whose files are split between two output files
 * (the MCP client's entry: its HTTP transports lazy, the rest not) ships nothing twice.
 * @param {ReturnType<typeof contributions>} files
 * @returns {{ name: string, files: string[], extraBytes: number }[]}
 */
export function duplicates(files) {
  /** @type {Map<string, Map<string, number>>} */
  const where = new Map();
  for (const [file, { inputs }] of files) {
    for (const [input, bytes] of inputs) {
      const name = contributor(input);
      if (name.startsWith('(') || name.startsWith('src/') || name.startsWith('webview/')) continue;
      where.set(input, (where.get(input) ?? /** @type {Map<string, number>} */ (new Map())).set(file, bytes));
    }
  }
  /** @type {Map<string, { files: Set<string>, extraBytes: number }>} */
  const byLibrary = new Map();
  for (const [input, inFiles] of where) {
    if (inFiles.size < 2) continue;
    const sizes = [...inFiles.values()];
    const lib = byLibrary.get(contributor(input)) ?? { files: new Set(), extraBytes: 0 };
    for (const f of inFiles.keys()) lib.files.add(f);
    lib.extraBytes += sizes.reduce((a, b) => a + b, 0) - Math.max(...sizes);
    byLibrary.set(contributor(input), lib);
  }
  return [...byLibrary]
    .map(([name, { files: inFiles, extraBytes }]) => ({ name, files: [...inFiles], extraBytes }))
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
