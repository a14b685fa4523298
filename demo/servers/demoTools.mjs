// Demo MCP tools, one per kind of elicitation. Written to be read: each tool shows how a server
// asks the user something with `server.server.elicitInput(...)` and what it gets back.
// Used by demoServer.mjs (stdio) and demoHttpServer.mjs (Streamable HTTP).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/**
 * @typedef {import('@modelcontextprotocol/sdk/types.js').ElicitRequestFormParams} ElicitRequestFormParams
 * @typedef {import('@modelcontextprotocol/sdk/types.js').ElicitRequestURLParams} ElicitRequestURLParams
 * @typedef {import('@modelcontextprotocol/sdk/types.js').PrimitiveSchemaDefinition} PrimitiveSchemaDefinition
 * @typedef {import('@modelcontextprotocol/sdk/types.js').CallToolResult} CallToolResult
 */

/** When DEMO_RECORD names a file, every answer is appended there as one JSON line (tests read it). @param {string} tool @param {unknown} result */
function record(tool, result) {
  if (process.env['DEMO_RECORD']) appendFileSync(process.env['DEMO_RECORD'], JSON.stringify({ tool, result }) + '\n');
}

/**
 * A tool result that says what happened in words and shows the raw answer as JSON. `summary` gets
 * the accepted content in the shape the tool's schema asks for: the host checked it before sending.
 * @template {Record<string, unknown>} C
 * @param {string} tool
 * @param {{ action: string, content?: Record<string, unknown> | undefined }} result
 * @param {(content: C) => string} summary
 * @returns {CallToolResult}
 */
function reply(tool, result, summary) {
  record(tool, result);
  const text = result.action === 'accept' ? summary(/** @type {C} */ (result.content ?? {})) : `The user chose "${result.action}".`;
  return { content: [{ type: 'text', text: `${text}\n\nRaw result: ${JSON.stringify(result)}` }] };
}

/** @param {string} key @param {PrimitiveSchemaDefinition} schema @returns {ElicitRequestFormParams['requestedSchema']} */
const single = (key, schema, required = true) => ({ type: 'object', properties: { [key]: schema }, required: required ? [key] : [] });

/** @param {string} name */
export function createDemoServer(name) {
  const server = new McpServer({ name, title: `Demo (${name})`, version: '1.0.0' });
  const ask = (/** @type {ElicitRequestFormParams | ElicitRequestURLParams} */ params) => server.server.elicitInput(params);

  server.registerTool('ask_name', { title: 'Ask for a name', description: 'One text field (InputBox).' }, async () =>
    reply(
      'ask_name',
      await ask({
        message: 'What should I call you?',
        requestedSchema: single('name', { type: 'string', title: 'Name', minLength: 1, maxLength: 40 }),
      }),
      (/** @type {{ name: string }} */ c) => `Hello, ${c.name}!`,
    ),
  );

  server.registerTool(
    'pick_number',
    { title: 'Pick a number', description: 'A whole number from 1 to 10 (InputBox with live validation).' },
    async () =>
      reply(
        'pick_number',
        await ask({
          message: 'How many seats should I reserve?',
          requestedSchema: single('seats', { type: 'integer', title: 'Seats', minimum: 1, maximum: 10, default: 2 }),
        }),
        (/** @type {{ seats: number }} */ c) => `Reserved ${c.seats} seat(s).`,
      ),
  );

  server.registerTool('confirm_deploy', { title: 'Confirm a deployment', description: 'A yes/no question (QuickPick).' }, async () =>
    reply(
      'confirm_deploy',
      await ask({
        message: 'Deploy build 1.4.2 to staging?',
        requestedSchema: single('confirm', { type: 'boolean', title: 'Deploy now', default: true }),
      }),
      (/** @type {{ confirm: boolean }} */ c) => (c.confirm ? 'Deploying to staging.' : 'Not deploying.'),
    ),
  );

  server.registerTool(
    'confirm_cleanup',
    { title: 'Confirm a cleanup', description: 'A confirmation without fields (Accept, Decline, Cancel); try "Accept and remember".' },
    async () =>
      reply(
        'confirm_cleanup',
        await ask({ message: 'Delete the build cache of this project?', requestedSchema: { type: 'object', properties: {} } }),
        () => 'Deleted the build cache.',
      ),
  );

  server.registerTool('choose_region', { title: 'Choose a region', description: 'One choice from titled options (QuickPick).' }, async () =>
    reply(
      'choose_region',
      await ask({
        message: 'Which region should the database live in?',
        requestedSchema: single('region', {
          type: 'string',
          title: 'Region',
          oneOf: [
            { const: 'eu-west-1', title: 'Europe (Ireland)' },
            { const: 'us-east-1', title: 'US East (Virginia)' },
            { const: 'ap-southeast-2', title: 'Asia Pacific (Sydney)' },
          ],
          default: 'eu-west-1',
        }),
      }),
      (/** @type {{ region: string }} */ c) => `Region set to ${c.region}.`,
    ),
  );

  server.registerTool(
    'pick_toppings',
    { title: 'Pick toppings', description: 'Several choices, 1 to 3 (multi-select QuickPick).' },
    async () =>
      reply(
        'pick_toppings',
        await ask({
          message: 'Which toppings would you like?',
          requestedSchema: single('toppings', {
            type: 'array',
            title: 'Toppings',
            minItems: 1,
            maxItems: 3,
            items: {
              anyOf: [
                { const: 'cheese', title: 'Cheese' },
                { const: 'mushroom', title: 'Mushrooms' },
                { const: 'olive', title: 'Olives' },
                { const: 'pepper', title: 'Peppers' },
              ],
            },
            default: ['cheese'],
          }),
        }),
        (/** @type {{ toppings: string[] }} */ c) => `Toppings: ${c.toppings.join(', ')}.`,
      ),
  );

  server.registerTool(
    'everything',
    { title: 'Everything form', description: 'Twelve fields of every kind, all with defaults (webview form).' },
    async () =>
      reply(
        'everything',
        await ask({
          message: 'Create a new project. Every field has a default: press Accept to take them all.',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', title: 'Project name', minLength: 3, maxLength: 40, default: 'my-project' },
              description: { type: 'string', title: 'Description', maxLength: 500, default: 'A new project' },
              owner: { type: 'string', title: 'Owner email', format: 'email', default: 'dev@example.com' },
              homepage: { type: 'string', title: 'Homepage', format: 'uri', default: 'https://example.com' },
              start: { type: 'string', title: 'Start date', format: 'date', default: '2026-12-01' },
              // `pattern` is plain JSON Schema, not in MCP's StringSchema (hence the cast); this host honours it.
              slug: /** @type {PrimitiveSchemaDefinition} */ ({
                type: 'string',
                title: 'Slug',
                pattern: '^[a-z0-9-]+$',
                default: 'my-project',
              }),
              replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 9, default: 3 },
              budget: { type: 'number', title: 'Monthly budget (USD)', minimum: 0, default: 250.5 },
              public: { type: 'boolean', title: 'Public repository', default: false },
              license: { type: 'string', title: 'License', enum: ['MIT', 'Apache-2.0', 'GPL-3.0'], default: 'MIT' },
              tier: {
                type: 'string',
                title: 'Tier',
                oneOf: [
                  { const: 'free', title: 'Free' },
                  { const: 'team', title: 'Team' },
                  { const: 'enterprise', title: 'Enterprise' },
                ],
                default: 'team',
              },
              features: {
                type: 'array',
                title: 'Features',
                items: { type: 'string', enum: ['ci', 'docs', 'issues', 'wiki'] },
                minItems: 1,
                default: ['ci', 'issues'],
              },
            },
            required: ['name', 'owner', 'replicas', 'license'],
          },
        }),
        (/** @type {{ name: string, replicas: number, license: string }} */ c) =>
          `Created project ${c.name} (${c.replicas} replicas, ${c.license}).`,
      ),
  );

  // url mode: the user signs in in the browser; the server later says it is done.
  server.registerTool(
    'connect_account',
    { title: 'Connect an account', description: 'Sends you to a browser sign-in (url mode).' },
    async () => {
      const elicitationId = randomUUID();
      const result = await ask({
        mode: 'url',
        message: 'Sign in to Example Cloud to connect your account.',
        url: `https://auth.example.com/authorize?client_id=demo&state=${elicitationId}`,
        elicitationId,
      });
      if (result.action === 'accept') {
        // A real server would wait for its OAuth callback; the demo pretends it arrives after 3 s.
        setTimeout(
          () =>
            void server.server
              .createElicitationCompletionNotifier(elicitationId)()
              .catch(() => {}),
          3000,
        );
      }
      return reply('connect_account', result, () => 'Opened the sign-in page; the server will report when it is done.');
    },
  );

  // The -32042 path: the tool cannot run until the user completes a browser step.
  let authorised = false;
  server.registerTool(
    'premium_report',
    { title: 'Premium report', description: 'Needs a browser authorisation first (-32042), then runs.' },
    () => {
      if (authorised) return { content: [{ type: 'text', text: 'Premium report: 42 widgets sold this week.' }] };
      const elicitationId = randomUUID();
      setTimeout(() => {
        authorised = true;
        void server.server
          .createElicitationCompletionNotifier(elicitationId)()
          .catch(() => {});
      }, 4000);
      throw new UrlElicitationRequiredError([
        {
          mode: 'url',
          message: 'Authorise access to premium reports.',
          url: `https://billing.example.com/authorize?request=${elicitationId}`,
          elicitationId,
        },
      ]);
    },
  );

  server.registerTool(
    'burst',
    {
      title: 'Burst of questions',
      description: 'Asks several yes/no questions at once (queue and rate limit).',
      inputSchema: { count: z.number().int().min(1).max(50).optional() },
    },
    async ({ count }) => {
      const n = count ?? 5;
      const results = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          ask({
            message: `Question ${i + 1} of ${n}: keep going?`,
            requestedSchema: single('yes', { type: 'boolean', title: 'Keep going' }),
          }).catch((e) => ({ action: 'error', error: String(e) })),
        ),
      );
      return reply('burst', { action: 'accept', content: { results } }, () => results.map((r, i) => `${i + 1}: ${r.action}`).join('\n'));
    },
  );

  return server;
}
