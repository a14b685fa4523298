/**
 * The person at the keyboard, headless, for the conformance client (client.ts): everything the
 * extension asks of a user or of VS Code, answered as a cooperative user would. Nothing here
 * speaks MCP or OAuth; that is the extension's code.
 */
import type { CreateMessageResult, Tool } from '@modelcontextprotocol/client';
import type { Asker } from '../../src/elicitation/asker';
import type {
  AskAnswer,
  FormAnswer,
  FormPrompt,
  Presenter,
  RecalledNote,
  SignInAnswer,
  UrlAnswer,
  UrlPrompt,
} from '../../src/elicitation/presenter';
import type { SamplingSink } from '../../src/sampling/samplingBroker';
import type { SecretStore } from '../../src/servers/auth/authStore';
import type { SessionLog } from '../../src/servers/session';

/** The client's log, on stderr (the suite keeps it as the scenario's stderr.txt). */
export class StderrLog implements SessionLog {
  readonly isTracing = process.env['MCP_CONFORMANCE_TRACE'] === '1';
  trace(m: string): void {
    if (this.isTracing) process.stderr.write(`trace: ${m}\n`);
  }
  debug(): void {}
  info(m: string): void {
    process.stderr.write(`${m}\n`);
  }
  warn(m: string): void {
    process.stderr.write(`warn: ${m}\n`);
  }
  error(m: string, err?: unknown): void {
    process.stderr.write(`error: ${m}${err instanceof Error ? ` ${err.message}` : ''}\n`);
  }
}

/** VS Code's SecretStorage for one run: a Map. */
export class MemorySecrets implements SecretStore {
  private readonly map = new Map<string, string>();
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.map.get(key));
  }
  store(key: string, value: string): Promise<void> {
    this.map.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.map.delete(key);
    return Promise.resolve();
  }
}

/**
 * A user who answers every prompt: Accept on each form as shown (the broker fills in the defaults
 * the form shows pre-filled), Allow on each url consent. Sign-in consent is the sign-in service's
 * (client.ts), never the broker's.
 */
export class HeadlessPresenter implements Presenter {
  constructor(private readonly log: StderrLog) {}
  presentForm(prompt: FormPrompt): Promise<FormAnswer> {
    this.log.info(`form from ${prompt.asker.name}: ${prompt.form.fields.map((f) => f.key).join(', ') || '(confirmation)'} → accept`);
    return Promise.resolve({ action: 'accept', content: {} });
  }
  presentUrl(prompt: UrlPrompt): Promise<UrlAnswer> {
    this.log.info(`url consent from ${prompt.asker.name}: ${prompt.url} → accept`);
    return Promise.resolve({ action: 'accept' });
  }
  presentSignIn(): Promise<SignInAnswer> {
    return Promise.reject(new Error('the broker asked for a sign-in'));
  }
  askPermission(): Promise<AskAnswer> {
    return Promise.resolve('answer');
  }
  notifyBlocked(asker: Asker): void {
    this.log.warn(`blocked: ${asker.name}`);
  }
  notifyRateLimited(asker: Asker): void {
    this.log.warn(`rate limited: ${asker.name}`);
  }
  notifyServerCancelled(asker: Asker): void {
    this.log.info(`the server withdrew its question: ${asker.name}`);
  }
  notifyCallCancelled(asker: Asker): void {
    this.log.info(`call cancelled: ${asker.name}`);
  }
  notifyServerGone(asker: Asker): void {
    this.log.info(`server gone: ${asker.name}`);
  }
  notifyUrlCompleted(asker: Asker): void {
    this.log.info(`browser step completed: ${asker.name}`);
  }
  notifyAnsweredFromMemory(note: RecalledNote): void {
    this.log.info(`answered from memory: ${note.asker.name}`);
  }
}

/** The model VS Code would lend a sample to: one fixed answer. */
export const HEADLESS_SAMPLER: SamplingSink = {
  handle(): Promise<CreateMessageResult> {
    return Promise.resolve({ role: 'assistant', content: { type: 'text', text: 'Hello from the conformance client.' }, model: 'headless' });
  },
};

/**
 * The user's browser after Allow: opens the authorization URL and follows the authorization
 * server's redirects, which end at the extension's loopback listener (loopbackRedirect.ts). The
 * suite's authorization servers approve without a login page, as conformance clients expect.
 */
export async function headlessBrowser(url: string, log: StderrLog): Promise<void> {
  let next = url;
  try {
    for (let hop = 0; hop < 5; hop++) {
      const res = await fetch(next, { redirect: 'manual' });
      const location = res.headers.get('location');
      await res.body?.cancel();
      if (!location) {
        if (res.status >= 400) log.warn(`the browser got ${res.status} at ${new URL(next).origin}`);
        return;
      }
      next = new URL(location, next).href;
    }
  } catch (err) {
    log.warn(`the browser failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Arguments a user would type into Run Tool's form: a plausible value for each property. */
export function argumentsFor(tool: Tool): Record<string, unknown> {
  const props = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown; default?: unknown; enum?: unknown[] }>;
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(props)) {
    if (schema.default !== undefined) out[key] = schema.default;
    else if (Array.isArray(schema.enum) && schema.enum.length > 0) out[key] = schema.enum[0];
    else if (schema.type === 'number' || schema.type === 'integer') out[key] = 1;
    else if (schema.type === 'boolean') out[key] = true;
    else if (schema.type === 'string') out[key] = 'test';
  }
  return out;
}
