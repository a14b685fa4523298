#!/usr/bin/env node
// Demo MCP server that speaks only MCP 2026-07-28 (stdio). It never sends `elicitation/create` on
// its own: each tool answers `tools/call` with `input_required` and finishes when the client
// retries with the answers. Written to be read: see how a tool asks, and how it reads the answers.
// Built on the SDK's v2 line (`@modelcontextprotocol/server`).
import { McpServer, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { appendFileSync } from 'node:fs';

/**
 * When DEMO_RECORD names a file, each tool's final answer is appended there as a JSON line (tests read it).
 * @param {string} tool @param {unknown} result
 */
function record(tool, result) {
  if (process.env['DEMO_RECORD']) appendFileSync(process.env['DEMO_RECORD'], JSON.stringify({ tool, result }) + '\n');
}
/** @param {string} t @returns {import('@modelcontextprotocol/server').CallToolResult} */
const text = (t) => ({ content: [{ type: 'text', text: t }] });
/**
 * What the user answered under `key` in this retry (`missing` on the first call). The host checked
 * an accepted answer against the requestedSchema before it sent it.
 * @param {import('@modelcontextprotocol/server').ServerContext} ctx @param {string} key
 */
const answer = (ctx, key) => inputResponse(ctx.mcpReq.inputResponses, key);

function createServer() {
  const server = new McpServer(
    { name: 'demo-modern', title: 'Demo (MCP 2026-07-28 only)', version: '1.0.0' },
    { capabilities: { tools: {} }, inputRequired: { legacyShim: false } },
  );

  server.registerTool(
    'sign_up',
    { title: 'Sign up', description: 'A form: name, e-mail and plan, asked through input_required.' },
    (ctx) => {
      const a = answer(ctx, 'profile');
      if (a.kind !== 'elicit') {
        return inputRequired({
          inputRequests: {
            profile: inputRequired.elicit({
              message: 'Create your account',
              requestedSchema: {
                type: 'object',
                properties: {
                  name: { type: 'string', title: 'Name', minLength: 1 },
                  email: { type: 'string', title: 'E-mail', format: 'email' },
                  plan: {
                    type: 'string',
                    title: 'Plan',
                    oneOf: [
                      { const: 'free', title: 'Free' },
                      { const: 'team', title: 'Team' },
                    ],
                    default: 'free',
                  },
                },
                required: ['name', 'email'],
              },
            }),
          },
        });
      }
      record('sign_up', { action: a.action, ...(a.content ? { content: a.content } : {}) });
      if (a.action !== 'accept') return text(`The user chose "${a.action}".`);
      const profile = /** @type {{ name?: string, plan?: string }} */ (a.content ?? {});
      return text(`Welcome, ${profile.name} (${profile.plan ?? 'free'} plan).`);
    },
  );

  server.registerTool('plan_trip', { title: 'Plan a trip', description: 'Two questions in one round: where to, and when.' }, (ctx) => {
    const where = answer(ctx, 'destination');
    const when = answer(ctx, 'dates');
    if (where.kind !== 'elicit' || when.kind !== 'elicit') {
      return inputRequired({
        inputRequests: {
          destination: inputRequired.elicit({
            message: 'Where to?',
            requestedSchema: {
              type: 'object',
              properties: { city: { type: 'string', title: 'City', enum: ['Lisbon', 'Oslo', 'Kyoto'] } },
              required: ['city'],
            },
          }),
          dates: inputRequired.elicit({
            message: 'When do you leave?',
            requestedSchema: {
              type: 'object',
              properties: { leave: { type: 'string', title: 'Departure', format: 'date' } },
              required: ['leave'],
            },
          }),
        },
      });
    }
    if (where.action !== 'accept' || when.action !== 'accept') return text('No trip planned.');
    const { city } = /** @type {{ city?: string }} */ (where.content ?? {});
    const { leave } = /** @type {{ leave?: string }} */ (when.content ?? {});
    return text(`Trip to ${city} on ${leave}.`);
  });

  // The server decides when the browser step is done. This demo keeps that state in requestState
  // (a real server would protect it with an HMAC and check its own records).
  server.registerTool(
    'connect_account',
    { title: 'Connect an account', description: 'url mode: consent, open the page, then the server checks.' },
    (ctx) => {
      const a = answer(ctx, 'login');
      if (a.kind === 'elicit' && a.action !== 'accept') return text(`The user chose "${a.action}".`);
      if (a.kind === 'elicit' && ctx.mcpReq.requestState() === 'opened') {
        record('connect_account', { action: 'accept' });
        return text('Account connected.');
      }
      return inputRequired({
        inputRequests: {
          login: inputRequired.elicitUrl({
            url: 'https://example.com/connect?client=demo',
            message: 'Sign in to connect your example.com account.',
          }),
        },
        requestState: a.kind === 'elicit' ? 'opened' : 'asked',
      });
    },
  );

  server.registerTool('guess_even', { title: 'Pick an even number', description: 'Asks again until the answer is even.' }, (ctx) => {
    const a = answer(ctx, 'n');
    if (a.kind === 'elicit' && a.action !== 'accept') return text(`The user chose "${a.action}".`);
    const n = a.kind === 'elicit' ? a.content?.['n'] : undefined;
    if (typeof n === 'number' && n % 2 === 0) {
      record('guess_even', { action: 'accept', content: { n } });
      return text(`${n} is even. Thanks!`);
    }
    return inputRequired({
      inputRequests: {
        n: inputRequired.elicit({
          message: typeof n === 'number' ? `${n} is odd; pick an even number` : 'Pick an even number',
          requestedSchema: { type: 'object', properties: { n: { type: 'integer', title: 'Number' } }, required: ['n'] },
        }),
      },
    });
  });

  return server;
}

serveStdio(createServer, { legacy: 'reject' });
