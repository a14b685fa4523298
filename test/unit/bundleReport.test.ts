/**
 * The `--analyze` report the README's bundle numbers come from: what each shipped file holds, and
 * which library still ships in more than one file.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bundleReport, contributions, duplicates } from '../../scripts/lib/bundleReport.mjs';

const input = (bytesInOutput: number): { bytesInOutput: number } => ({ bytesInOutput });

const extension = {
  outputs: {
    'dist/extension.js': {
      bytes: 4000,
      inputs: {
        'node_modules/zod/v4/core/schemas.js': input(1500),
        'node_modules/zod/v4/classic/schemas.js': input(500),
        'node_modules/@modelcontextprotocol/client/dist/index.mjs': input(1000),
        'src/servers/connection.ts': input(700),
        'lazy-stub:ajv|ajv': input(40),
      },
    },
    'dist/extension.js.map': { bytes: 9000, inputs: {} },
  },
};
const gateway = {
  outputs: {
    'dist/gateway.js': {
      bytes: 3000,
      inputs: {
        'node_modules/zod/v4/core/schemas.js': input(1200),
        'src/servers/connection.ts': input(300),
        'node_modules/@modelcontextprotocol/server/dist/index.mjs': input(1400),
      },
    },
  },
};
const suite = {
  outputs: { 'out/test/integration/index.js': { bytes: 99_000, inputs: { 'node_modules/zod/v4/core/schemas.js': input(1500) } } },
};

void describe('bundle report (npm run build -- --analyze)', () => {
  void it('counts a library by its package, scoped or not, and our code by its file; source maps and the test suite are not shipped', () => {
    const files = contributions([extension, gateway, suite]);
    assert.deepEqual([...files.keys()], ['dist/extension.js', 'dist/gateway.js']);
    assert.deepEqual(Object.fromEntries(files.get('dist/extension.js')?.by ?? []), {
      zod: 2000,
      '@modelcontextprotocol/client': 1000,
      'src/servers/connection.ts': 700,
      '(stubs)': 40,
    });
  });

  void it('a library in two files costs its smaller copy; our own modules and stubs are not counted as libraries', () => {
    assert.deepEqual(duplicates(contributions([extension, gateway])), [
      { name: 'zod', files: ['dist/extension.js', 'dist/gateway.js'], extraBytes: 1200 },
    ]);
  });

  void it('a package whose files are split between two output files ships nothing twice', () => {
    const lazy = {
      outputs: {
        'dist/httpTransports.js': {
          bytes: 900,
          inputs: { 'node_modules/@modelcontextprotocol/client/dist/streamableHttp.mjs': input(800) },
        },
      },
    };
    assert.deepEqual(duplicates(contributions([extension, lazy])), []);
  });

  void it('prints each file with its size and largest contributor first, then the total and the duplicates', () => {
    const lines = bundleReport([extension, gateway]).split('\n');
    assert.equal(lines[0], 'dist/extension.js  4 KB');
    assert.match(lines[1] ?? '', /^\s+2 KB {2}zod$/);
    assert.ok(lines.includes('shipped JavaScript: 7 KB in 2 files; libraries in more than one file: 1 KB'), lines.join('\n'));
    assert.match(bundleReport([gateway]), /libraries in more than one file: none\n$/);
  });
});
