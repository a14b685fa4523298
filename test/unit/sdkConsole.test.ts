// The MCP SDK's console lines (src/util/sdkConsole.ts, which the build puts in place of the SDK's
// `console.<method>(` calls): they reach our log at their level, redacted like every log line, and
// never the global console, which the extension host writes to its own log unredacted.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { createAjv } from '../../src/elicitation/form/ajvFactory';
import { routeSdkConsole, sdkConsole } from '../../src/util/sdkConsole';
import { RedactingLog } from './support/signInHarness';

/** Whatever reached the global console while a test ran. */
const consoleLines: string[] = [];

beforeEach(() => {
  consoleLines.length = 0;
  for (const m of ['log', 'info', 'debug', 'trace', 'warn', 'error'] as const) {
    mock.method(console, m, (...args: unknown[]) => void consoleLines.push(args.map(String).join(' ')));
  }
});
afterEach(() => mock.restoreAll());

/** A log that redacts with the secrets it was told, as util/log.ts does, with the level on each line. */
function redactingLog(...secrets: string[]): { log: RedactingLog; route: { dispose(): void } } {
  const log = new RedactingLog(new Set(secrets));
  return {
    log,
    route: routeSdkConsole((level, text) => (level === 'debug' || level === 'trace' ? log.info(`${level}: ${text}`) : log[level](text))),
  };
}

void describe('the MCP SDK’s console lines go to our log, redacted', () => {
  void it('the invalid_grant warning quoting a refresh token reaches the log with the token redacted, and nothing reaches the console', () => {
    const refreshToken = 'rt-6f1c0b9e2d';
    const { log, route } = redactingLog(refreshToken);
    try {
      // The SDK's own wording (warnCredentialInvalidation), with the authorization server's error_description.
      sdkConsole.warn(
        `[mcp-sdk] OAuth "invalid_grant" — invalidating the stored tokens and retrying authorization. Cause: ${JSON.stringify(`refresh token ${refreshToken} is not valid`)}`,
      );
      assert.deepEqual(log.lines, [
        'warn: [mcp-sdk] OAuth "invalid_grant" — invalidating the stored tokens and retrying authorization. Cause: "refresh token [redacted] is not valid"',
      ]);
      assert.deepEqual(consoleLines, []);
    } finally {
      route.dispose();
    }
  });

  void it('each console method keeps its level; several arguments make one line, an object as JSON so its secret keys are redacted too', () => {
    const { log, route } = redactingLog();
    try {
      sdkConsole.log('a', 1);
      sdkConsole.info('b');
      sdkConsole.debug('Client.listPrompts() called but server does not advertise prompts capability');
      sdkConsole.error('failed:', new TypeError('fetch failed'), { client_secret: 'cs-93a1', status: 400 });
      assert.deepEqual(log.lines, [
        'a 1',
        'b',
        'debug: Client.listPrompts() called but server does not advertise prompts capability',
        'error: failed: TypeError: fetch failed {"client_secret":"[redacted]","status":400} undefined',
      ]);
      assert.deepEqual(consoleLines, []);
    } finally {
      route.dispose();
    }
  });

  void it('lines written while no route is set are held (the last 50) and reach the next route first', () => {
    for (let i = 0; i < 60; i++) sdkConsole.warn(`early ${i}`);
    assert.deepEqual(consoleLines, [], 'held, not printed');
    const { log, route } = redactingLog();
    try {
      assert.equal(log.lines.length, 50);
      assert.equal(log.lines[0], 'warn: early 10', 'the oldest went first');
      assert.equal(log.lines[49], 'warn: early 59');
    } finally {
      route.dispose();
    }
    // After the route is gone (the extension stopped): held again, not written to its log.
    sdkConsole.warn('late');
    assert.equal(log.lines.length, 50);
    const next = redactingLog();
    try {
      assert.deepEqual(next.log.lines, ['warn: late']);
    } finally {
      next.route.dispose();
    }
  });

  void it('disposing an older route leaves a newer one in place', () => {
    const first = redactingLog();
    const second = redactingLog();
    first.route.dispose();
    try {
      sdkConsole.warn('to the second');
      assert.deepEqual(first.log.lines, []);
      assert.deepEqual(second.log.lines, ['warn: to the second']);
    } finally {
      second.route.dispose();
    }
  });
});

// ajv warns about a schema it half ignores, quoting it: an unknown `format` is the case a server's
// schema makes (not strict, so it compiles and the format goes unchecked), and ajv's default logger
// is the global console (src/elicitation/form/ajvFactory.ts routes it here).
void describe('ajv’s lines go the same way', () => {
  void it('an unknown format in a server’s schema: ajv’s warning reaches our log, the format’s URL query redacted, and nothing the console', () => {
    const { log, route } = redactingLog();
    try {
      const validate = createAjv().compile({
        type: 'object',
        properties: { plan: { type: 'string', format: 'https://schemas.example/formats?key=sk-live-7c2e91' } },
      });
      assert.equal(validate({ plan: 'anything' }), true, 'the schema still compiled; the format is not checked');
      assert.deepEqual(consoleLines, []);
      assert.deepEqual(log.lines, [
        'warn: [ajv] unknown format "https://schemas.example/formats?[redacted]" ignored in schema at path "#/properties/plan"',
      ]);
    } finally {
      route.dispose();
    }
  });

  void it('each compile says its warning once, and a later compile of the same schema says it again', async () => {
    const { log, route } = redactingLog();
    try {
      const schema = { type: 'object', properties: { day: { type: 'string', format: 'weekday' } } };
      createAjv().compile(schema);
      assert.deepEqual(log.lines, ['warn: [ajv] unknown format "weekday" ignored in schema at path "#/properties/day"']);
      await Promise.resolve();
      createAjv().compile(schema);
      assert.equal(log.lines.length, 2, 'the second form that brings the schema is logged too');
    } finally {
      route.dispose();
    }
  });

  void it('a known format and a plain schema: ajv says nothing', () => {
    const { log, route } = redactingLog();
    try {
      createAjv().compile({ type: 'object', properties: { mail: { type: 'string', format: 'email' } }, 'x-unknown': true });
      assert.deepEqual(log.lines, []);
      assert.deepEqual(consoleLines, []);
    } finally {
      route.dispose();
    }
  });
});
