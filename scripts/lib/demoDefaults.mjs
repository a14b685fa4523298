// What the demo's `everything` form asks for, read from the demo server itself over an in-memory
// transport, so the benchmark and the e2e tests expect the schema's defaults and not a copy of them.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { repoRoot } from '../hostPaths.mjs';

/** @typedef {{ createDemoServer: (name: string) => import('@modelcontextprotocol/sdk/server/mcp.js').McpServer }} DemoTools */

/** @returns {Promise<Record<string, unknown>>} each field's default, by key */
export async function everythingDefaults() {
  // Loaded by URL: demo/ is plain JS outside the type-checked tooling, and a static import would
  // bring it into the check.
  /** @type {unknown} */
  const demoTools = await import(pathToFileURL(path.join(repoRoot, 'demo', 'servers', 'demoTools.mjs')).href);
  const { createDemoServer } = /** @type {DemoTools} */ (demoTools);
  const server = createDemoServer('schema-probe');
  const client = new Client({ name: 'probe', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  /** @type {Record<string, { default?: unknown }> | undefined} */
  let props;
  client.setRequestHandler(ElicitRequestSchema, (req) => {
    const p = /** @type {{ requestedSchema?: { properties?: Record<string, { default?: unknown }> } }} */ (req.params);
    props = p.requestedSchema?.properties;
    return { action: 'cancel' };
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  await client.callTool({ name: 'everything', arguments: {} });
  await client.close();
  await server.close();
  if (!props) throw new Error('the demo `everything` tool sent no schema');
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.default]));
}
