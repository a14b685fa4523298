/**
 * The client that the MCP conformance suite (`@modelcontextprotocol/conformance client`) drives:
 * `scripts/conformance.mjs` runs it once per scenario, under Node 24, with the scenario server's
 * URL as its argument and the scenario in `MCP_CONFORMANCE_SCENARIO`.
 *
 * It is the extension's own connection code, not a copy: the same Connection, Session, HostClient
 * and transports, the same sign-in (SignInService, the SDK's OAuth client through our
 * ServerOAuthProvider, the fetch guard, the loopback redirect), the same elicitation broker and the
 * same input rounds and tool runner that Run Tool uses. Only the person is headless (headless.ts):
 * they allow the sign-in and their "browser" follows the authorization server's redirect back to the
 * loopback listener, and they accept each form as shown (defaults filled in, as the form shows them).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import type { ProtocolVersionChoice, RemoteServerDefinition } from '../../src/config/parse/definitions';
import { ElicitationBroker } from '../../src/elicitation/broker';
import { AuthStore } from '../../src/servers/auth/authStore';
import { LoopbackRedirect } from '../../src/servers/auth/loopbackRedirect';
import { SignInService } from '../../src/servers/auth/signIn';
import { Connection } from '../../src/servers/connection';
import { callToolWithElicitation, callWithInputRounds } from '../../src/servers/toolRunner';
import { httpTransports } from '../../src/servers/transports';
import { argumentsFor, HeadlessPresenter, headlessBrowser, HEADLESS_SAMPLER, MemorySecrets, StderrLog } from './headless';

/** What the suite passes for a few scenarios: pre-registered client credentials, the calls to make. */
interface ScenarioContext {
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly toolCalls?: readonly { readonly name: string; readonly arguments: Record<string, unknown> }[];
}

/** The client ID metadata document the suite's authorization servers expect (`auth/basic-cimd`). */
const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The wire the suite asks for: the dated revisions are stateful (initialize), 2026-07-28 is not. */
function versionChoice(version: string | undefined): ProtocolVersionChoice {
  return version === '2026-07-28' ? '2026-07-28' : version === '2025-11-25' ? '2025-11-25' : 'auto';
}

/**
 * Scenarios in which a tool call is meant to fail, and why; in any other, a failed call fails the
 * client, so the suite sees the exit code too. Each failure is logged on stderr either way.
 */
const CALL_FAILURES_EXPECTED: Readonly<Record<string, string>> = {
  // SEP-2243: a tool whose x-mcp-header annotation is invalid must not be called as offered.
  'http-invalid-tool-headers': 'tools with invalid header annotations are refused',
  // Its server lists one tool and answers no call: the scenario is about not fetching a `$ref`.
  'json-schema-ref-no-deref': 'the server implements no tools/call',
  // `test_mrtr_no_result_type` answers a 2026-07-28 call without `resultType`, which servers of that
  // revision MUST include (schema.ts, Result): the SDK refuses it, and the scenario checks only that
  // the client does not retry.
  'sep-2322-client-request-state': 'a 2026-07-28 result without resultType is refused',
};

async function main(): Promise<void> {
  const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
  const serverUrl = process.argv[2];
  if (!serverUrl) throw new Error('usage: client.ts <server-url> (the conformance suite passes it)');
  const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as ScenarioContext;
  const log = new StderrLog();
  const presenter = new HeadlessPresenter(log);
  const broker = new ElicitationBroker({
    presenter,
    gate: () => ({ outcome: 'show', decidedBy: 'user', policy: 'allow' }),
    settings: () => ({ sensitiveFields: 'warn', allowHttpLoopback: true, urlExpiryMs: 60_000 }),
    log,
  });
  const store = new AuthStore(new MemorySecrets());
  const def: RemoteServerDefinition = {
    name: 'conformance',
    type: 'http',
    url: serverUrl,
    headers: {},
    source: { kind: 'setting', scope: 'user' },
    // MCP_CONFORMANCE_DEFAULT_CHOICE: the revision this client chooses by default, not the suite's (scripts/conformance.mjs).
    protocolVersion: process.env['MCP_CONFORMANCE_DEFAULT_CHOICE']
      ? 'auto'
      : versionChoice(process.env['MCP_CONFORMANCE_PROTOCOL_VERSION']),
    // A pre-registered client (issue 25, item 5): its id is configuration, its secret in SecretStorage.
    ...(context.client_id ? { clientId: context.client_id } : {}),
    // A client ID metadata document, configured as a user would (`clientMetadataUrl`): the suite's
    // scenarios expect this URL, as the SDK's own conformance client names it. Set in every auth
    // scenario, so the registration order (pre-registered, metadata document where the authorization
    // server supports it, else dynamic registration) is what is tested, not one branch at a time.
    ...(scenario.startsWith('auth/') ? { clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL } : {}),
  };
  if (context.client_id && context.client_secret) await store.setClientSecret(def, context.client_secret);
  const signIn = new SignInService({
    store,
    redirect: new LoopbackRedirect(),
    engine: httpTransports,
    consent: async (request) => {
      log.info(`sign-in asked for ${request.server}: allowing; the browser opens ${new URL(request.url).origin}`);
      // As the real consent does: the browser goes on its own once the user allowed it.
      void headlessBrowser(request.url, log);
      return Promise.resolve('opened');
    },
    failed: (server, reason) => log.warn(`sign-in to ${server} failed: ${reason}`),
    // One server per run: its log is the run's, as the connection's is.
    logFor: () => log,
    addSecret: () => undefined,
    // Nothing is registered, so nothing is redacted (the conformance runs hold no real secrets).
    redact: (text) => text,
    timeoutMs: () => 20_000,
  });
  const conn = new Connection(def, {
    log,
    clientInfo: { name: 'mcp-elicitation-host', title: 'MCP Elicitation Host', version: '0.1.0' },
    sink: broker,
    sampler: HEADLESS_SAMPLER,
    onGaveUp: () => undefined,
    restartDelaysMs: [],
    connectTimeoutMs: () => 20_000,
    signIn,
  });
  try {
    await conn.start();
    if (conn.state.kind !== 'running') throw new Error(`the server did not start: ${JSON.stringify(conn.state)}`);
    await exercise(conn, broker, scenario, context, log);
  } finally {
    await conn.shutdown();
    signIn.dispose();
  }
}

/**
 * What a user of Run Tool would do with the server: call each tool (with the arguments the scenario
 * names, or plausible ones), then get each prompt and read each resource.
 */
async function exercise(
  conn: Connection,
  broker: ElicitationBroker,
  scenario: string,
  context: ScenarioContext,
  log: StderrLog,
): Promise<void> {
  const caps = conn.serverCapabilities ?? {};
  const tools: readonly Tool[] = conn.tools;
  log.info(`tools: ${tools.map((t) => t.name).join(', ') || '(none)'}`);
  const calls = context.toolCalls ?? tools.map((t) => ({ name: t.name, arguments: argumentsFor(t) }));
  let failures = 0;
  for (const call of calls) {
    try {
      const result: CallToolResult = await callToolWithElicitation(conn, broker, call);
      log.info(`${call.name} → ${JSON.stringify(result.content).slice(0, 200)}`);
    } catch (err) {
      failures++;
      log.warn(`${call.name} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (caps.prompts) {
    const { prompts } = (await conn.relay({ method: 'prompts/list' }, {})) as { prompts?: { name: string }[] };
    for (const p of prompts ?? []) {
      await callWithInputRounds(conn, broker, 'prompts/get', { name: p.name, arguments: {} }, p.name, {});
    }
  }
  if (caps.resources) {
    const { resources } = (await conn.relay({ method: 'resources/list' }, {})) as { resources?: { uri: string }[] };
    for (const r of resources ?? []) await callWithInputRounds(conn, broker, 'resources/read', { uri: r.uri }, r.uri, {});
  }
  const excuse = CALL_FAILURES_EXPECTED[scenario];
  if (failures > 0 && excuse) log.info(`${failures} call(s) failed, as expected here: ${excuse}`);
  else if (failures > 0) throw new Error(`${failures} tool call(s) failed`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`conformance client: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
